import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('POST /api/Admin/overview', () => {
  it('is for Admin9 only', async () => {
    const u = await s.createUser();
    expect((await s.api(endpoints.overview.get, { token: u.token })).status).toBe(403);
    expect((await s.api(endpoints.overview.get)).status).toBe(401);
  });

  it('counts users, balances, gateways, SIMs, today’s orders and unmatched SMS', async () => {
    const admin = await s.adminToken();
    const before = (await s.api(endpoints.overview.get, { token: admin })).body;
    const now = s.clock.now();
    const online = await seedGateway(s.db, { sims: 3, lastUpdate: now });
    await seedGateway(s.db, { sims: 2, lastUpdate: new Date(now.getTime() - 10 * 60_000) });
    const u = await s.createUser({ balance: 12.5 });
    const svc = await addService(s.db, { code: 'tg', name: 'Telegram' });
    await s.db.query(
      `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                           phone_number, price, status, code_text, created_at, expires_at)
       VALUES ($1, $2, 'tg', 'Telegram', $3, 'gw', '1.01', '15550000001', 1, 'SUCCESS', '1234', $4, $4),
              ($1, $2, 'tg', 'Telegram', $3, 'gw', '2.01', '15550000002', 1, 'WAIT_CODE', NULL, $4, $4)`,
      [u.id, svc, online.id, now],
    );
    await s.db.query(
      `INSERT INTO incoming_sms (gateway_id, port, sender, body, received_at, dedupe_key, matched)
       VALUES ($1, '1.01', 'x', 'hello', $2, 'k1', false), ($1, '1.01', 'x', 'code', $2, 'k2', true)`,
      [online.id, now],
    );
    const res = await s.api(endpoints.overview.get, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      users: before.users + 1,
      balanceHeld: before.balanceHeld + 12.5,
      gatewaysTotal: 2,
      gatewaysOnline: 1,
      sims: 5,
      simsUsable: 5,
      ordersToday: 2,
      ordersTodaySuccess: 1,
      ordersWaiting: 1,
      unmatchedSms24h: 1,
    });
  });

  it('a locked SIM is not usable: the overview and the SIM list agree with the lock count', async () => {
    const admin = await s.adminToken();
    const gw = await seedGateway(s.db, { sims: 3, lastUpdate: s.clock.now() });
    const before = (await s.api(endpoints.overview.get, { token: admin })).body;
    const lock = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: gw.ports[0]!, reason: 'Spam report' },
      token: admin,
    });
    expect(lock.status).toBe(200);
    expect(lock.body.sim).toMatchObject({ usable: false, lock: { locked: true } });
    const after = (await s.api(endpoints.overview.get, { token: admin })).body;
    expect(after.simsLocked).toBe(before.simsLocked + 1);
    expect(after.simsUsable).toBe(before.simsUsable - 1);
    const report = await s.api(endpoints.gateway.report, { body: { id: gw.id }, token: admin });
    expect(report.status).toBe(200);
    const sims = report.body.sims as { port: string; usable: boolean }[];
    expect(sims.filter((x) => x.usable).map((x) => x.port)).toEqual(gw.ports.slice(1));
  });
});
