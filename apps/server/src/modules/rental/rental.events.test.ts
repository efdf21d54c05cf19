import { endpoints } from '@simdock/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { recvSmsPush, type SeededGateway } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { openSse } from '../../test/sse.ts';
import { serverWithGatewayAndServices } from '../../test/suites.ts';

// Module-boundary behaviours of rental: events carry ids (any SMS size is fine), patterns run on a
// linear-time engine, and each refusal has its own stable code.

let s: TestServer;
let gw: SeededGateway;

// seedGateway stores the push secret "secret": device pushes below use the real push route.
serverWithGatewayAndServices(
  {
    sims: 8,
    services: [
      { code: 'tg', name: 'Telegram', price: 1, pattern: '(\\d{5})' },
      { code: 'evil', name: 'Evil', price: 1, textContains: 'Evil', pattern: '(a|aa)+$' },
      { code: 'off', name: 'Disabled', price: 1 },
      { code: 'full', name: 'Full', price: 1, stock: 0 },
    ],
  },
  (t) => {
    ({ s, gw } = t);
  },
);
beforeAll(async () => {
  await s.db.query(`UPDATE services SET is_enable = false WHERE code = 'off'`);
});

/** Pushes one SMS as the device would (recv-sms, base64 content) to the gateway's push URL. */
async function devicePush(port: string, text: string) {
  const body = recvSmsPush(port, text, s.clock.now());
  return s.post(`/api/gw/${gw.id}/secret/sms`, body);
}

const portOf = (phone: string) => gw.ports[gw.numbers.indexOf(phone)]!;

describe('order events on the live stream', () => {
  it('a 9,000-character SMS with a code completes its order and reaches the live stream', async () => {
    const u = await s.createUser({ balance: 5 });
    const stream = await openSse(`${s.url}/api/Order/stream`, u.token);
    try {
      const order = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token }))
        .body.data;
      const text = `Telegram code 48213. ${'x'.repeat(9000)}`;
      expect(text.length).toBeGreaterThan(9000);
      const pushed = await devicePush(portOf(order.phoneNumber), text);
      expect(pushed.status).toBe(200);
      const event = await stream.next((e) => e.event === 'order' && JSON.parse(e.data).status === 'SUCCESS');
      const data = JSON.parse(event.data);
      expect(data).toMatchObject({ id: order.id, codeText: '48213' });
      expect(data.smsText).toHaveLength(text.length);
      const [row] = await s.db.query<{ status: string; code_text: string }>(
        'SELECT status, code_text FROM orders WHERE id = $1',
        [order.id],
      );
      expect(row).toEqual({ status: 'SUCCESS', code_text: '48213' });
    } finally {
      stream.close();
    }
  });

  it('sends a user only their own orders', async () => {
    const a = await s.createUser({ balance: 5 });
    const b = await s.createUser({ balance: 5 });
    const streamB = await openSse(`${s.url}/api/Order/stream`, b.token);
    try {
      const mine = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: b.token })).body
        .data;
      await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: a.token });
      await streamB.next((e) => e.event === 'order' && JSON.parse(e.data).id === mine.id);
      // Give a's events time to arrive, then check none leaked: b sees its own order and balance only.
      await new Promise((r) => setTimeout(r, 200));
      const orders = streamB.events.filter((e) => e.event === 'order');
      expect(orders.every((e) => JSON.parse(e.data).id === mine.id)).toBe(true);
      expect(streamB.events.filter((e) => e.event === 'balance').map((e) => JSON.parse(e.data))).toEqual([
        { balance: 4 },
      ]);
    } finally {
      streamB.close();
    }
  });
});

describe('service patterns cannot hang the server', () => {
  it('runs a catastrophic pattern on hostile SMS in milliseconds', async () => {
    const u = await s.createUser({ balance: 5 });
    const order = (await s.api(endpoints.order.create, { body: { serviceCode: 'evil' }, token: u.token }))
      .body.data;
    // On a backtracking engine the 41-character text alone blocks the process for ~30 s.
    for (const n of [41, 1000, 1990]) {
      const started = performance.now();
      const res = await devicePush(portOf(order.phoneNumber), `Evil ${'a'.repeat(n)}!`);
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
    }
    // The SMS matched the service text but held no code: the order still waits.
    const [row] = await s.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [order.id]);
    expect(row!.status).toBe('WAIT_CODE');
  });

  it('refuses a pattern RE2 cannot compile, with the reason', async () => {
    const res = await s.api(endpoints.service.update, {
      body: { name: 'Back', code: 'back', price: 1, pattern: '(\\d)\\1' },
      token: await s.adminToken(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'pattern', error: 'bad_input' });
    expect(res.body.msg).toMatch(/not a valid regular expression/);
  });
});

describe('each refusal has its own code', () => {
  it('names the cause of every refused rent and cancel', async () => {
    const poor = await s.createUser({ balance: 0.5 });
    const rich = await s.createUser({ balance: 10 });
    const code = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => {
      const r = await res;
      return [r.status, r.body.error];
    };
    expect(
      await code(s.api(endpoints.order.create, { body: { serviceCode: 'nope' }, token: rich.token })),
    ).toEqual([404, 'service_not_found']);
    expect(
      await code(s.api(endpoints.order.create, { body: { serviceCode: 'off' }, token: rich.token })),
    ).toEqual([409, 'service_disabled']);
    expect(
      await code(s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: poor.token })),
    ).toEqual([402, 'balance_too_low']);
    const order = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: rich.token }))
      .body.data;
    expect(
      await code(s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: rich.token })),
    ).toEqual([409, 'cancel_too_early']);
    expect(
      await code(s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: poor.token })),
    ).toEqual([404, 'order_not_found']);
    await devicePush(portOf(order.phoneNumber), 'Telegram code 11111');
    s.clock.advance(3 * 60_000);
    expect(
      await code(s.api(endpoints.order.cancel, { body: { orderId: order.id }, token: rich.token })),
    ).toEqual([409, 'order_has_code']);
    await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
    const other = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: rich.token }))
      .body.data;
    s.clock.advance(3 * 60_000);
    expect(
      (await s.api(endpoints.order.cancel, { body: { orderId: other.id }, token: rich.token })).status,
    ).toBe(200);
    expect(
      await code(s.api(endpoints.order.cancel, { body: { orderId: other.id }, token: rich.token })),
    ).toEqual([409, 'order_already_cancelled']);
    // The admin's stock cap is reached (0 here): no numbers.
    expect(
      await code(s.api(endpoints.order.create, { body: { serviceCode: 'full' }, token: rich.token })),
    ).toEqual([409, 'no_numbers']);
  });
});
