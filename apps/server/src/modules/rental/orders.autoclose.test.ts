import { endpoints, UserOrdersResponse } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { type SeededGateway, smsToNumber } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { openSse } from '../../test/sse.ts';
import { serverWithGatewayAndServices } from '../../test/suites.ts';
import { rentalModule, simsInOpenRentals } from './index.ts';

// Rentals with a code close by themselves at the end of their time (docs/operations.md, "Data
// retention"): as a Finish then would, with the code still shown and no money moved, so the open
// rentals the dispatcher and the chat read stay few.

let s: TestServer;
let gw: SeededGateway;

serverWithGatewayAndServices(
  {
    sims: 6,
    services: [
      { code: 'tg', name: 'Telegram', price: 1.25 },
      { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true },
    ],
  },
  (t) => {
    ({ s, gw } = t);
  },
);

/** One tick of the order-expiry job, as the workers run it. */
async function sweep(): Promise<void> {
  const job = rentalModule.jobs!.find((j) => j.name === 'order-expiry')!;
  await job.run(s.ctx);
}

const money = async (userId: string) =>
  s.db.query<{ amount: string; kind: string; ref: string | null }>(
    'SELECT amount::text, kind, ref FROM ledger WHERE user_id = $1 ORDER BY id',
    [userId],
  );
const balance = async (userId: string) =>
  (await s.db.query<{ b: string }>('SELECT balance::text AS b FROM users WHERE id = $1', [userId]))[0]!.b;
const myOrder = async (token: string, id: string) =>
  UserOrdersResponse.parse((await s.api(endpoints.order.getByUser, { token })).body).orders.find(
    (o) => o.id === id,
  )!;
const simOf = async (id: string) =>
  (await s.db.query<{ sim_id: string }>('SELECT sim_id FROM orders WHERE id = $1', [id]))[0]!.sim_id;

describe('a rental with a code closes at the end of its time', () => {
  it('not before its time; then finished with its code, status SUCCESS, money unchanged, announced live', async () => {
    const u = await s.createUser({ balance: 5 });
    const stream = await openSse(`${s.url}/api/Order/stream`, u.token);
    try {
      const o = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token })).body
        .data;
      await smsToNumber(s.ctx, gw, o.phoneNumber, 'Telegram code 55123');
      const ledger = await money(u.id);
      const bal = await balance(u.id);
      expect(bal).toBe('3.75');

      // One second before the end of its time: still open.
      s.clock.set(Date.parse(o.expiresAt) - 1000);
      await sweep();
      expect(await myOrder(u.token, o.id)).toMatchObject({ status: 'SUCCESS', finished: false });

      s.clock.set(Date.parse(o.expiresAt) + 5000);
      await sweep();
      const closed = await myOrder(u.token, o.id);
      expect(closed).toMatchObject({ status: 'SUCCESS', codeText: '55123', finished: true });
      expect(closed.smsText).toBe('Telegram code 55123');
      const [row] = await s.db.query<{ closed_at: Date; expires_at: Date }>(
        'SELECT closed_at, expires_at FROM orders WHERE id = $1',
        [o.id],
      );
      expect(row!.closed_at.getTime()).toBe(row!.expires_at.getTime());
      const event = await stream.next((e) => e.event === 'order' && JSON.parse(e.data).finished === true);
      expect(JSON.parse(event.data)).toMatchObject({ id: o.id, status: 'SUCCESS', codeText: '55123' });

      // Nothing charged or refunded by the close, nor by later sweeps or a Finish afterwards.
      await sweep();
      const finish = await s.api(endpoints.order.finish, { body: { orderId: o.id }, token: u.token });
      expect(finish.body.data).toMatchObject({ status: 'SUCCESS', codeText: '55123', finished: true });
      expect(await money(u.id)).toEqual(ledger);
      expect(await balance(u.id)).toBe(bal);
    } finally {
      stream.close();
    }
  });

  it('an order without a code is still cancelled and refunded once; a finished one is left as it was', async () => {
    const u = await s.createUser({ balance: 5 });
    const waiting = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token }))
      .body.data;
    const done = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token })).body
      .data;
    await smsToNumber(s.ctx, gw, done.phoneNumber, 'Telegram code 77001');
    s.clock.advance(60_000);
    await s.api(endpoints.order.finish, { body: { orderId: done.id }, token: u.token });
    const [{ closed_at: finishedAt }] = (await s.db.query<{ closed_at: Date }>(
      'SELECT closed_at FROM orders WHERE id = $1',
      [done.id],
    )) as [{ closed_at: Date }];
    s.clock.set(Date.parse(waiting.expiresAt) + 1000);
    await sweep();
    expect(await myOrder(u.token, waiting.id)).toMatchObject({ status: 'CANCEL' });
    const [after] = await s.db.query<{ closed_at: Date }>('SELECT closed_at FROM orders WHERE id = $1', [
      done.id,
    ]);
    expect(after!.closed_at.getTime()).toBe(finishedAt.getTime());
    expect((await money(u.id)).map((r) => r.amount)).toEqual(['5.00', '-1.25', '-1.25', '1.25']);
    expect(await balance(u.id)).toBe('3.75');
  });

  it('a repeatable rental holds its SIM until its time is over, then closes and frees it for sending', async () => {
    const u = await s.createUser({ balance: 5 });
    const o = (await s.api(endpoints.order.create, { body: { serviceCode: 'go' }, token: u.token })).body
      .data;
    await smsToNumber(s.ctx, gw, o.phoneNumber, 'G-100001 Google');
    const sim = await simOf(o.id);
    s.clock.set(Date.parse(o.expiresAt) - 1000);
    expect(await simsInOpenRentals(s.db, s.clock.now())).toContain(sim);
    await sweep();
    expect(await myOrder(u.token, o.id)).toMatchObject({ finished: false });
    s.clock.set(Date.parse(o.expiresAt));
    await sweep();
    expect(await myOrder(u.token, o.id)).toMatchObject({
      status: 'SUCCESS',
      codeText: '100001',
      finished: true,
    });
    expect(await simsInOpenRentals(s.db, s.clock.now())).not.toContain(sim);
    // No late code reaches a closed rental.
    await smsToNumber(s.ctx, gw, o.phoneNumber, 'G-100002 Google');
    expect(await myOrder(u.token, o.id)).toMatchObject({ codeText: '100001' });
  });

  it('closes a backlog larger than one batch in one tick, each order once', async () => {
    const u = await s.createUser({ balance: 5 });
    const o = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token })).body
      .data;
    await smsToNumber(s.ctx, gw, o.phoneNumber, 'Telegram code 12345');
    // 1,200 past rentals with a code, never finished (as an upgrade finds them): copies of this one.
    await s.db.query(
      `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, sim_id, port,
                           phone_number, price, status, code_text, sms_text, created_at, expires_at, finished_at)
       SELECT user_id, service_id, service_code, service_name, gateway_id, gateway_name, sim_id, port,
              '1999' || lpad(g::text, 7, '0'), price, 'SUCCESS', code_text, sms_text,
              created_at - g * interval '1 minute', expires_at - g * interval '1 minute', finished_at
         FROM orders, generate_series(1, 1200) g WHERE id = $1`,
      [o.id],
    );
    s.clock.set(Date.parse(o.expiresAt) + 1000);
    await sweep();
    const [left] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE user_id = $1 AND closed_at IS NULL`,
      [u.id],
    );
    expect(left!.n).toBe(0);
    const [wrong] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE user_id = $1 AND closed_at <> expires_at`,
      [u.id],
    );
    expect(wrong!.n).toBe(0);
  });
});
