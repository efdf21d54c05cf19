import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
let gwId: string;
let once: string;
let rep: string;

beforeAll(async () => {
  s = await startTestServer();
  gwId = (await seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() })).id;
  once = await addService(s.db, { code: 'once', name: 'Once' });
  rep = await addService(s.db, { code: 'rep', name: 'Rep', repeatable: true });
});
afterAll(async () => {
  await s.close();
});

async function order(userId: string, serviceId: string, phone: string, status: string, expiresInMin: number) {
  const now = s.clock.now();
  await s.db.query(
    `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                         phone_number, price, status, code_text, created_at, expires_at)
     SELECT $1, $2, code, name, $3, 'gw', '1.01', $4, 1, $5, CASE WHEN $5 = 'SUCCESS' THEN '1234' END, $6, $7
       FROM services WHERE id = $2`,
    [userId, serviceId, gwId, phone, status, now, new Date(now.getTime() + expiresInMin * 60_000)],
  );
}

describe('POST /api/Order/stats', () => {
  it('counts waiting rentals and unexpired repeatable ones with a code as active, not a finished one-code rental', async () => {
    const u = await s.createUser();
    await order(u.id, once, '15550000001', 'WAIT_CODE', 20); // active
    await order(u.id, once, '15550000002', 'SUCCESS', 15); // done: its one code arrived
    await order(u.id, rep, '15550000003', 'SUCCESS', 15); // active: can receive more codes
    await order(u.id, rep, '15550000004', 'SUCCESS', -1); // expired
    await order(u.id, once, '15550000005', 'CANCEL', 10); // cancelled
    await order(u.id, rep, '15550000006', 'SUCCESS', 15); // finished: Finish closed it
    await s.db.query(`UPDATE orders SET closed_at = $2 WHERE user_id = $1 AND phone_number = '15550000006'`, [
      u.id,
      s.clock.now(),
    ]);
    const res = await s.api(endpoints.order.stats, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ activeNumbers: 2, dailyRentals: 6 });
  });
});
