import { endpoints, UserOrdersResponse } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway, smsToNumber } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

// The Dashboard's Finish and "Another SMS" (session token): the rental API's rules, answered as the
// Dashboard's Order, whose `finished` the order list carries too.

let s: TestServer;
let gw: { id: string; numbers: string[]; ports: string[] };

beforeAll(async () => {
  s = await startTestServer();
  gw = await seedGateway(s.db, { sims: 4, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
  await addService(s.db, { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true });
});
afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

const deliver = (phone: string, text: string) => smsToNumber(s.ctx, gw, phone, text);

describe('POST /api/Order/finish and /api/Order/anothersms', () => {
  it('finishes a rental with a code; refuses one without, and another user’s', async () => {
    const u = await s.createUser({ balance: 5 });
    const other = await s.createUser({ balance: 5 });
    const o = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token })).body
      .data;
    expect(o.finished).toBe(false);
    const early = await s.api(endpoints.order.finish, { body: { orderId: o.id }, token: u.token });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('order_no_code');
    await deliver(o.phoneNumber, 'Telegram code 55123');
    expect(
      (await s.api(endpoints.order.finish, { body: { orderId: o.id }, token: other.token })).status,
    ).toBe(404);
    const notRepeatable = await s.api(endpoints.order.anotherSms, {
      body: { orderId: o.id },
      token: u.token,
    });
    expect(notRepeatable.body.error).toBe('order_not_repeatable');

    const done = await s.api(endpoints.order.finish, { body: { orderId: o.id }, token: u.token });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ id: o.id, status: 'SUCCESS', codeText: '55123', finished: true });
    expect(Object.keys(done.body.data).sort()).toEqual(Object.keys(o).sort());
    const list = UserOrdersResponse.parse((await s.api(endpoints.order.getByUser, { token: u.token })).body);
    expect(list.orders.find((x) => x.id === o.id)?.finished).toBe(true);
    expect((await s.api(endpoints.order.finish, { body: { orderId: '' }, token: u.token })).status).toBe(400);
  });

  it('asks for another SMS on a repeatable rental after its code; the next code is recorded', async () => {
    const u = await s.createUser({ balance: 5 });
    const o = (await s.api(endpoints.order.create, { body: { serviceCode: 'go' }, token: u.token })).body
      .data;
    expect(
      (await s.api(endpoints.order.anotherSms, { body: { orderId: o.id }, token: u.token })).body.error,
    ).toBe('order_no_code');
    await deliver(o.phoneNumber, 'G-100001 Google');
    const asked = await s.api(endpoints.order.anotherSms, { body: { orderId: o.id }, token: u.token });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ codeText: '100001', finished: false });
    s.clock.advance(1000);
    await deliver(o.phoneNumber, 'G-100002 Google');
    const list = UserOrdersResponse.parse((await s.api(endpoints.order.getByUser, { token: u.token })).body);
    expect(list.orders.find((x) => x.id === o.id)).toMatchObject({ codeText: '100002', finished: false });
  });
});
