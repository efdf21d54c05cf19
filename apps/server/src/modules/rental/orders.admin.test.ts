import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { type ApiCall, startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  const gwA = await seedGateway(s.db, { name: 'alpha', sims: 5, lastUpdate: s.clock.now() });
  await seedGateway(s.db, { name: 'beta', sims: 2, lastUpdate: new Date(0) });
  // 230 orders straight in the table: enough for 3 pages of 100.
  const svc = await addService(s.db, { code: 'tg', name: 'Telegram' });
  const u = await s.createUser({ username: 'buyer' });
  await s.db.query(
    `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                         phone_number, price, status, code_text, created_at, expires_at)
     SELECT $1, $2, 'tg', 'Telegram', $3, 'alpha', '1.01', '1555000' || lpad(i::text, 4, '0'), 1,
            CASE WHEN i % 3 = 0 THEN 'SUCCESS' WHEN i % 3 = 1 THEN 'CANCEL' ELSE 'WAIT_CODE' END,
            CASE WHEN i % 3 = 0 THEN '1234' END, now(), now() + interval '20 minutes'
       FROM generate_series(1, 230) i`,
    [u.id, svc, gwA.id],
  );
});
afterAll(async () => {
  await s.close();
});

const get = (
  endpoint: typeof endpoints.order.adminOrders,
  query: ApiCall<typeof endpoints.order.adminOrders>['query'],
) => s.api(endpoint, { query, token: admin });

describe('GET /api/Admin/orders', () => {
  it('pages by 100, newest first', async () => {
    const p1 = await get(endpoints.order.adminOrders, { page: 1, pageSize: 100 });
    expect(p1.body).toMatchObject({ page: 1, totalPages: 3, total: 230 });
    expect(p1.body.items).toHaveLength(100);
    expect(p1.body.items[0]).toMatchObject({
      gateway: 'alpha',
      port: '1.01',
      username: 'buyer',
      serviceCode: 'tg',
      serviceName: 'Telegram',
    });
    const p3 = await get(endpoints.order.adminOrders, { page: 3, pageSize: 100 });
    expect(p3.body.items).toHaveLength(30);
    const ids = [...p1.body.items, ...p3.body.items].map((o: { id: string }) => Number(o.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('filters by status, gateway and phone', async () => {
    const ok = await get(endpoints.order.adminOrders, { status: 'SUCCESS' });
    expect(ok.body.total).toBe(76);
    expect(ok.body.items.every((o) => o.status === 'SUCCESS' && o.codeText === '1234')).toBe(true);
    expect((await get(endpoints.order.adminOrders, { gateway: 'beta' })).body).toMatchObject({
      total: 0,
      totalPages: 1,
      items: [],
    });
    const phone = await get(endpoints.order.adminOrders, { phoneNumber: '0042' });
    expect(phone.body.items.map((o: { phoneNumber: string }) => o.phoneNumber)).toEqual(['15550000042']);
  });

  it('refuses a bad page with a 400', async () => {
    expect((await get(endpoints.order.adminOrders, { page: '0' })).status).toBe(400);
    expect((await get(endpoints.order.adminOrders, { page: 'abc' })).status).toBe(400);
  });
});

describe('GET /admin/orderfilter', () => {
  it('lists gateways, statuses and per-gateway success rates', async () => {
    const res = await s.api(endpoints.order.orderFilter, { token: admin });
    expect(res.body.gateways).toEqual(['alpha', 'beta']);
    expect(res.body.statuses).toEqual(['WAIT_CODE', 'SUCCESS', 'CANCEL']);
    expect(res.body.groupPipeline).toEqual([
      { gateway: 'alpha', totalOrders: 230, successOrders: 76, successRate: 33 },
    ]);
  });
});
