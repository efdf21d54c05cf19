import { endpoints, UserOrdersResponse } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { addService, type SeededGateway, smsToPort } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverWithGatewayAndServices } from '../../test/suites.ts';
import { expireOverdue } from './orders.service.ts';

let s: TestServer;
let gw: SeededGateway;

serverWithGatewayAndServices(
  {
    sims: 3,
    services: [
      { code: 'tg', name: 'Telegram', price: 1.25 },
      { code: 'wa', name: 'WhatsApp', price: 2, pattern: '(\\d{3}-\\d{3})' },
      { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true },
    ],
  },
  (t) => {
    ({ s, gw } = t);
  },
);

const rent = (token: string, serviceCode: string) =>
  s.api(endpoints.order.create, { body: { serviceCode }, token });
const balanceOf = async (token: string) =>
  (await s.api(endpoints.user.info, { token })).body.balance as number;

/** An SMS arriving on a gateway port, through the real ingestion (stored once, then consumers). */
async function deliver(port: string, text: string): Promise<boolean> {
  const { stored } = await smsToPort(s.ctx, gw.id, port, text);
  const [row] = await s.db.query<{ matched: boolean }>('SELECT matched FROM incoming_sms WHERE id = $1', [
    stored[0],
  ]);
  return row!.matched;
}

const portOf = (phone: string) => gw.ports[gw.numbers.indexOf(phone)]!;

describe('renting', () => {
  it('charges the price, writes the ledger and returns a WAIT_CODE order with an expiry', async () => {
    const u = await s.createUser({ balance: 10 });
    const res = await rent(u.token, 'tg');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(1);
    const order = res.body.data;
    expect(order).toMatchObject({ serviceCode: 'tg', status: 'WAIT_CODE', price: 1.25, codeText: null });
    expect(gw.numbers).toContain(order.phoneNumber);
    expect(new Date(order.expiresAt).getTime() - new Date(order.createdAt).getTime()).toBe(20 * 60_000);
    expect(await balanceOf(u.token)).toBe(8.75);
    const ledger = await s.db.query<{ amount: string; kind: string }>(
      'SELECT amount::text, kind FROM ledger WHERE user_id = $1 ORDER BY id',
      [u.id],
    );
    expect(ledger).toEqual([
      { amount: '10.00', kind: 'topup' },
      { amount: '-1.25', kind: 'order_charge' },
    ]);
    const list = await s.api(endpoints.order.getByUser, { token: u.token });
    expect(list.body).toMatchObject({ code: 1, orders: [{ id: order.id, phoneNumber: order.phoneNumber }] });
    // The list is JSON built by PostgreSQL, the rent's answer is built in JavaScript: the same order
    // reads the same, and the list is exactly the contract's shape (no field missing or extra).
    expect(list.body.orders).toEqual([order]);
    expect(UserOrdersResponse.parse(list.body)).toEqual(list.body);
    const raw = await fetch(`${s.url}/api/Order/getbyuser`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
    });
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Compact, as JSON.stringify writes it: no spaces (this price, 1.25, has no trailing zero).
    const text = await raw.text();
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('lists an SMS text with quotes, backslashes, control characters and emoji exactly as received', async () => {
    const u = await s.createUser({ balance: 10 });
    const order = (await rent(u.token, 'tg')).body.data;
    const text =
      'Telegram code: 54321 "quoted" \\ back\\slash\ttab\nnew line 🙂 <script>x</script> \u2028 end';
    expect(await deliver(portOf(order.phoneNumber), text)).toBe(true);
    const list = await s.api(endpoints.order.getByUser, { token: u.token });
    expect(list.body.orders[0]).toMatchObject({
      id: order.id,
      codeText: '54321',
      smsText: text,
      status: 'SUCCESS',
    });
    expect(UserOrdersResponse.parse(list.body)).toEqual(list.body);
  });

  it('refuses with a clear 402 when the balance is short, and charges nothing', async () => {
    const u = await s.createUser({ balance: 1 });
    const res = await rent(u.token, 'tg');
    expect(res.status).toBe(402);
    expect(res.body.msg).toMatch(/balance is too low/);
    expect(await balanceOf(u.token)).toBe(1);
    expect((await s.api(endpoints.order.getByUser, { token: u.token })).body.orders).toEqual([]);
  });

  it('refuses unknown and disabled services', async () => {
    const u = await s.createUser({ balance: 5 });
    expect((await rent(u.token, 'nope')).status).toBe(404);
    await addService(s.db, { code: 'off', name: 'Off' });
    await s.db.query(`UPDATE services SET is_enable = false WHERE code = 'off'`);
    const res = await rent(u.token, 'off');
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/not available/);
  });

  it('never gives a number twice for one service, and says so when none is left', async () => {
    const u = await s.createUser({ balance: 100 });
    const phones = new Set<string>();
    await addService(s.db, { code: 'fb', name: 'Facebook' });
    for (let i = 0; i < 3; i++) phones.add((await rent(u.token, 'fb')).body.data.phoneNumber);
    expect(phones.size).toBe(3);
    const res = await rent(u.token, 'fb');
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/No numbers available for Facebook/);
    // The same SIMs still serve another service at the same time.
    await addService(s.db, { code: 'ig', name: 'Instagram' });
    expect((await rent(u.token, 'ig')).status).toBe(200);
  });

  it('skips offline gateways and SIMs without a number', async () => {
    const u = await s.createUser({ balance: 100 });
    await addService(s.db, { code: 'x1', name: 'X1' });
    await s.db.query(`UPDATE gateways SET last_update = $2 WHERE id = $1`, [
      gw.id,
      new Date(s.clock.now().getTime() - 4 * 60_000),
    ]);
    expect((await rent(u.token, 'x1')).status).toBe(409);
    await s.db.query(`UPDATE gateways SET last_update = $2 WHERE id = $1`, [gw.id, s.clock.now()]);
    const all = await s.api(endpoints.service.getAll);
    expect(all.body.services.find((x: { code: string }) => x.code === 'x1')!.available).toBe(3);
  });

  it('shows live availability capped by stock, without admin fields to the public', async () => {
    await addService(s.db, { code: 'cap', name: 'Capped', stock: 1 });
    const pub = await s.api(endpoints.service.getAll);
    const capped = pub.body.services.find((x: { code: string }) => x.code === 'cap');
    expect(capped!.available).toBe(1);
    expect((capped as { pattern?: string }).pattern).toBeUndefined();
    const u = await s.createUser({ balance: 10 });
    expect((await rent(u.token, 'cap')).status).toBe(200);
    expect((await rent(u.token, 'cap')).status).toBe(409);
    const admin = await s.api(endpoints.service.getAll, { token: await s.adminToken() });
    expect(admin.body.services.find((x: { code: string }) => x.code === 'cap')).toMatchObject({
      available: 0,
      stock: 1,
    });
  });
});

describe('cancelling', () => {
  it('is refused during the minimum time, then refunds once', async () => {
    const u = await s.createUser({ balance: 5 });
    const order = (await rent(u.token, 'wa')).body.data;
    const early = await s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: u.token });
    expect(early.status).toBe(409);
    expect(early.body.msg).toMatch(/Please wait/);
    s.clock.advance(121_000);
    const ok = await s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: u.token });
    expect(ok.status).toBe(200);
    expect(ok.body.data.status).toBe('CANCEL');
    expect(await balanceOf(u.token)).toBe(5);
    const again = await s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: u.token });
    expect(again.status).toBe(409);
    expect(await balanceOf(u.token)).toBe(5);
  });

  it("is refused once a code arrived, and for another user's order", async () => {
    const u = await s.createUser({ balance: 5 });
    const other = await s.createUser({ balance: 5 });
    const order = (await rent(u.token, 'tg')).body.data;
    s.clock.advance(121_000);
    expect(
      (await s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: other.token })).status,
    ).toBe(404);
    expect(await deliver(portOf(order.phoneNumber), 'Telegram code: 55555')).toBe(true);
    const res = await s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: u.token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/code has already arrived/);
  });
});

describe('expiry', () => {
  it('refunds overdue orders exactly once, with two sweepers at once', async () => {
    const u = await s.createUser({ balance: 10 });
    await addService(s.db, { code: 'exp', name: 'Expiring', price: 3, rentMinutes: 5 });
    const a = (await rent(u.token, 'exp')).body.data;
    const b = (await rent(u.token, 'exp')).body.data;
    expect(await balanceOf(u.token)).toBe(4);
    s.clock.advance(5 * 60_000 + 1);
    const [n1, n2] = await Promise.all([expireOverdue(s.ctx), expireOverdue(s.ctx)]);
    expect(n1 + n2).toBeGreaterThanOrEqual(2);
    expect(await expireOverdue(s.ctx)).toBe(0);
    expect(await balanceOf(u.token)).toBe(10);
    const orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders;
    expect(
      orders
        .filter((o: { id: string }) => [a.id, b.id].includes(o.id))
        .map((o: { status: string }) => o.status),
    ).toEqual(['CANCEL', 'CANCEL']);
    const refunds = await s.db.query('SELECT 1 FROM ledger WHERE user_id = $1 AND kind = $2', [
      u.id,
      'refund',
    ]);
    expect(refunds).toHaveLength(2);
  });
});

describe('code delivery', () => {
  it('extracts the code for the matching service only, keeping the full text', async () => {
    const u = await s.createUser({ balance: 20 });
    await addService(s.db, { code: 'tg2', name: 'Telegram2', textContains: 'telegram' });
    await addService(s.db, {
      code: 'wa2',
      name: 'WhatsApp2',
      textContains: 'WhatsApp',
      pattern: '(\\d{3}-\\d{3})',
    });
    const tg = (await rent(u.token, 'tg2')).body.data;
    const wa = (await rent(u.token, 'wa2')).body.data;
    // Another service's SMS on the Telegram SIM does not touch the Telegram order.
    await deliver(portOf(tg.phoneNumber), 'Your Instagram code is 998877');
    await deliver(portOf(tg.phoneNumber), 'TELEGRAM code 4321. Do not share it');
    await deliver(portOf(wa.phoneNumber), 'Your WhatsApp code: 123-456');
    const orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders as Array<
      Record<string, unknown>
    >;
    expect(orders.find((o) => o.id === tg.id)).toMatchObject({
      status: 'SUCCESS',
      codeText: '4321',
      smsText: 'TELEGRAM code 4321. Do not share it',
    });
    expect(orders.find((o) => o.id === wa.id)).toMatchObject({ status: 'SUCCESS', codeText: '123-456' });
  });

  it('a non-repeatable order keeps its first code; a repeatable one records later codes until expiry', async () => {
    const u = await s.createUser({ balance: 20 });
    await addService(s.db, { code: 'once', name: 'Once', textContains: 'once' });
    await addService(s.db, {
      code: 'rep',
      name: 'Rep',
      textContains: 'rep',
      pattern: 'G-(\\d{6})',
      repeatable: true,
    });
    const once = (await rent(u.token, 'once')).body.data;
    const rep = (await rent(u.token, 'rep')).body.data;
    await deliver(portOf(once.phoneNumber), 'once 1111');
    await deliver(portOf(once.phoneNumber), 'once 2222');
    await deliver(portOf(rep.phoneNumber), 'rep G-111111');
    await deliver(portOf(rep.phoneNumber), 'rep G-222222');
    let orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders as Array<
      Record<string, unknown>
    >;
    expect(orders.find((o) => o.id === once.id)).toMatchObject({ codeText: '1111', smsText: 'once 1111' });
    expect(orders.find((o) => o.id === rep.id)).toMatchObject({ status: 'SUCCESS', codeText: '222222' });
    const codes = await s.db.query<{ code_text: string }>(
      'SELECT code_text FROM order_codes WHERE order_id = $1::bigint ORDER BY id',
      [rep.id],
    );
    expect(codes.map((c) => c.code_text)).toEqual(['111111', '222222']);
    s.clock.advance(21 * 60_000);
    await deliver(portOf(rep.phoneNumber), 'rep G-333333');
    orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders as Array<
      Record<string, unknown>
    >;
    expect(orders.find((o) => o.id === rep.id)).toMatchObject({ codeText: '222222' });
  });

  it('keeps an SMS with the service text but no code visible and the order waiting', async () => {
    const u = await s.createUser({ balance: 20 });
    await addService(s.db, { code: 'nc', name: 'NoCode', textContains: 'nocode' });
    const o = (await rent(u.token, 'nc')).body.data;
    await deliver(portOf(o.phoneNumber), 'nocode: welcome!');
    const orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders as Array<
      Record<string, unknown>
    >;
    expect(orders.find((x) => x.id === o.id)).toMatchObject({
      status: 'WAIT_CODE',
      codeText: null,
      smsText: 'nocode: welcome!',
    });
  });

  it("does not give a swapped SIM's SMS to the rental of the card that was there before", async () => {
    const u = await s.createUser({ balance: 5 });
    await addService(s.db, { code: 'swp', name: 'Swap', textContains: 'swap' });
    const o = (await rent(u.token, 'swp')).body.data;
    const port = portOf(o.phoneNumber);
    // The device reports another card in that port: its number is not known yet.
    await s.db.query(
      `UPDATE sims SET iccid = 'other-card', number = NULL WHERE gateway_id = $1 AND port = $2`,
      [gw.id, port],
    );
    expect(await deliver(port, 'swap code 12345')).toBe(false);
    // The card comes back: codes reach the order again.
    await s.db.query(`UPDATE sims SET iccid = $3, number = $4 WHERE gateway_id = $1 AND port = $2`, [
      gw.id,
      port,
      `8901${o.phoneNumber}`,
      o.phoneNumber,
    ]);
    expect(await deliver(port, 'swap code 67890')).toBe(true);
    const orders = (await s.api(endpoints.order.getByUser, { token: u.token })).body.orders as Array<
      Record<string, unknown>
    >;
    expect(orders.find((x) => x.id === o.id)).toMatchObject({ codeText: '67890' });
  });

  it('keeps an SMS that matched no order, visible to admins', async () => {
    expect(await deliver('3.01', 'Random marketing text 123456')).toBe(false);
    const res = await s.api(endpoints.gateway.inbox, {
      query: { matched: 'false' },
      token: await s.adminToken(),
    });
    expect(res.status).toBe(200);
    // Earlier tests left unmatched SMS too (e.g. a code after its order expired).
    const marketing = res.body.items.find((m: { text: string }) => m.text === 'Random marketing text 123456');
    expect(marketing).toMatchObject({ port: '3.01', matched: false });
    expect(res.body.items.every((m: { matched: boolean }) => !m.matched)).toBe(true);
    const user = await s.createUser();
    expect((await s.api(endpoints.gateway.inbox, { token: user.token })).status).toBe(403);
  });
});
