import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldAll } from '../../db/tallies.ts';
import {
  addService,
  ledgerMismatches,
  type SeededGateway,
  seedGateway,
  smsToNumber,
} from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { BALANCE_TALLIES } from '../billing/index.ts';
import { USER_TALLIES } from '../users/index.ts';
import { ORDER_TALLIES } from './orders.queries.ts';
import { expireOverdue } from './orders.service.ts';

// The counters behind the stat cards, the overview, Order Manager's per-gateway statistics and
// Device Statistics (migration 030) against a recount of the rows they stand for, after rents,
// codes, cancels with their refunds, expiries, a deleted gateway and an erased user, folded or not,
// and after rents and folds at once.

let s: TestServer;
let admin: string;
let gwA: SeededGateway;
let gwB: SeededGateway;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  gwA = await seedGateway(s.db, { name: 'gw-a', sims: 12, lastUpdate: s.clock.now() });
  gwB = await seedGateway(s.db, { name: 'gw-b', sims: 12, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
  await addService(s.db, { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true });
  await s.db.query('UPDATE sim_settings SET kept_for_sending_percent = 0');
});
afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

const fold = () =>
  Promise.all([foldAll(s.db, ORDER_TALLIES), foldAll(s.db, USER_TALLIES), foldAll(s.db, BALANCE_TALLIES)]);

/** What the tallies say and what a count of the rows says, side by side. */
async function compare() {
  const perGateway = await s.db.query(
    `SELECT coalesce(t.gateway_id::text, '-') AS g, t.gateway_name, t.service_id, t.orders, t.success
       FROM (SELECT gateway_id, gateway_name, service_id, sum(orders)::int AS orders, sum(success)::int AS success
               FROM order_tallies GROUP BY 1, 2, 3 HAVING sum(orders) <> 0 OR sum(success) <> 0) t
      ORDER BY 1, 2, 3`,
  );
  const perGatewayCount = await s.db.query(
    `SELECT coalesce(gateway_id::text, '-') AS g, gateway_name, service_id, count(*)::int AS orders,
            count(*) FILTER (WHERE status = 'SUCCESS')::int AS success
       FROM orders GROUP BY gateway_id, gateway_name, service_id ORDER BY 1, 2, 3`,
  );
  expect(perGateway).toEqual(perGatewayCount);
  const perName = await s.db.query(
    `SELECT gateway_name, sum(orders)::int AS orders, sum(success)::int AS success FROM order_gateway_tallies
      GROUP BY 1 HAVING sum(orders) <> 0 OR sum(success) <> 0 ORDER BY 1`,
  );
  const perNameCount = await s.db.query(
    `SELECT gateway_name, count(*)::int AS orders, count(*) FILTER (WHERE status = 'SUCCESS')::int AS success
       FROM orders GROUP BY 1 ORDER BY 1`,
  );
  expect(perName).toEqual(perNameCount);
  const days = await s.db.query(
    `SELECT day::text AS day, sum(orders)::int AS orders, sum(success)::int AS success FROM order_days
      GROUP BY day HAVING sum(orders) <> 0 OR sum(success) <> 0 ORDER BY day`,
  );
  const daysCount = await s.db.query(
    `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS orders,
            count(*) FILTER (WHERE status = 'SUCCESS')::int AS success FROM orders GROUP BY 1 ORDER BY 1`,
  );
  expect(days).toEqual(daysCount);
  const users = await s.db.query(
    `SELECT (SELECT coalesce(sum(users), 0)::int FROM user_tallies) AS users,
            (SELECT coalesce(sum(active), 0)::int FROM user_tallies) AS active,
            (SELECT coalesce(sum(held), 0)::numeric(16, 2)::text FROM balance_tallies) AS held`,
  );
  const usersCount = await s.db.query(
    `SELECT count(*)::int AS users, count(*) FILTER (WHERE status = 'Active')::int AS active,
            coalesce(sum(balance), 0)::numeric(16, 2)::text AS held FROM users`,
  );
  expect(users).toEqual(usersCount);
}

async function rent(token: string, serviceCode: string) {
  const r = await s.api(endpoints.order.create, { body: { serviceCode }, token });
  expect([r.status, r.body]).toEqual([200, expect.anything()]);
  return r.body.data as { id: string; phoneNumber: string };
}

const gatewayOf = (phone: string) => (gwA.numbers.includes(phone) ? gwA : gwB);

describe('the stat tallies (migration 030)', () => {
  it('equal a recount after rents, codes, cancels and refunds, expiries, a deleted gateway and an erased user', async () => {
    const u1 = await s.createUser({ balance: 30 });
    const u2 = await s.createUser({ balance: 30 });
    await compare();

    // Rents, and a code for some of them (one repeatable rental receives two).
    const a = await rent(u1.token, 'tg');
    const b = await rent(u1.token, 'go');
    const c = await rent(u2.token, 'tg');
    await rent(u2.token, 'go');
    await rent(u2.token, 'tg');
    await smsToNumber(s.ctx, gatewayOf(a.phoneNumber), a.phoneNumber, 'Telegram code 55123');
    await smsToNumber(s.ctx, gatewayOf(b.phoneNumber), b.phoneNumber, 'G-100001 Google');
    await smsToNumber(s.ctx, gatewayOf(b.phoneNumber), b.phoneNumber, 'G-100002 Google');
    await compare();

    // A cancel (refunded, once the minimum wait is over) and a finish.
    s.clock.advance(3 * 60_000);
    expect((await s.api(endpoints.order.cancel, { body: { orderId: c.id }, token: u2.token })).status).toBe(
      200,
    );
    expect((await s.api(endpoints.order.finish, { body: { orderId: b.id }, token: u1.token })).status).toBe(
      200,
    );
    await compare();
    await fold();
    await compare();

    // The rest expire (refunded) the next day: the new day's rents land on their own day.
    s.clock.advance(25 * 3600_000);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    expect(await expireOverdue(s.ctx)).toBeGreaterThanOrEqual(2);
    admin = await s.adminToken();
    await rent(await s.login(u1.username, u1.password), 'tg');
    await compare();

    // An admin's balance edit and a deactivation (User Manager).
    const [row] = await s.db.query<{ username: string; email: string }>(
      'SELECT username, email FROM users WHERE id = $1',
      [u2.id],
    );
    const edit = await s.api(endpoints.userAdmin.updateUser, {
      rawBody: { user: { id: u2.id, ...row, roles: ['User'], balance: 12.34, status: 'Inactive' } },
      token: admin,
    });
    expect(edit.status).toBe(200);
    await compare();

    // The orders keep their gateway's name when it goes (its id is set null); an erased user
    // takes their orders along.
    await s.db.query('DELETE FROM gateways WHERE id = $1', [gwB.id]);
    await compare();
    await fold();
    const fresh = await s.createUser({ balance: 5 });
    const e = await rent(fresh.token, 'go');
    await smsToNumber(s.ctx, gatewayOf(e.phoneNumber), e.phoneNumber, 'G-100003 Google');
    await compare();
    await s.db.query('DELETE FROM users WHERE id = $1', [fresh.id]);
    await compare();
    await fold();
    await compare();
  });

  it('stay exact with rents and folds at the same time', async () => {
    s.clock.advance(25 * 3600_000);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    await expireOverdue(s.ctx);
    admin = await s.adminToken();
    const users = await Promise.all(Array.from({ length: 8 }, () => s.createUser({ balance: 10 })));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) {
      const u = users[i % users.length]!;
      work.push(
        s.api(endpoints.order.create, { body: { serviceCode: i % 2 ? 'tg' : 'go' }, token: u.token }),
      );
      if (i % 4 === 0) work.push(fold());
    }
    const results = await Promise.all(work);
    for (const r of results)
      if (r && typeof r === 'object' && 'status' in r) expect([200, 409]).toContain(r.status);
    await compare();
    await Promise.all([fold(), fold()]);
    await compare();
    // Folded: one row per key.
    const piled = await s.db.query(
      `SELECT 1 FROM order_tallies GROUP BY gateway_id, gateway_name, service_id HAVING count(*) > 1`,
    );
    expect(piled).toEqual([]);
  });

  it('answer the screens: per-gateway statistics, Device Statistics, the overview and User Manager', async () => {
    const stats = await s.call('GET', '/admin/orderfilter', undefined, admin);
    expect(stats.status).toBe(200);
    const byName = await s.db.query<{ gateway: string; totalOrders: number; successOrders: number }>(
      `SELECT gateway_name AS gateway, count(*)::int AS "totalOrders",
              count(*) FILTER (WHERE status = 'SUCCESS')::int AS "successOrders"
         FROM orders GROUP BY 1 ORDER BY 1`,
    );
    expect(
      stats.body.groupPipeline.map((g: { gateway: string; totalOrders: number; successOrders: number }) => ({
        gateway: g.gateway,
        totalOrders: g.totalOrders,
        successOrders: g.successOrders,
      })),
    ).toEqual(byName);
    expect(stats.body.gateways).toEqual(expect.arrayContaining(['gw-a', 'gw-b']));

    const [mac] = await s.db.query<{ mac: string }>('SELECT mac FROM gateways WHERE id = $1', [gwA.id]);
    const device = await s.api(endpoints.order.deviceStats, { body: { mac: mac!.mac }, token: admin });
    expect(device.status).toBe(200);
    const perService = await s.db.query(
      `SELECT sv.name, count(*) FILTER (WHERE o.status = 'WAIT_CODE')::int AS using, count(*)::int AS used,
              count(*) FILTER (WHERE o.status = 'SUCCESS')::int AS success
         FROM orders o JOIN services sv ON sv.id = o.service_id WHERE o.gateway_id = $1
        GROUP BY sv.id, sv.name ORDER BY used DESC, sv.name`,
      [gwA.id],
    );
    expect(device.body.serviceStatss).toEqual(perService);

    const overview = await s.api(endpoints.overview.get, { token: admin });
    const dayStart = new Date(s.clock.now());
    dayStart.setUTCHours(0, 0, 0, 0);
    const [today] = await s.db.query<{ n: number; ok: number; waiting: number; users: number }>(
      `SELECT count(*) FILTER (WHERE created_at >= $1)::int AS n,
              count(*) FILTER (WHERE created_at >= $1 AND status = 'SUCCESS')::int AS ok,
              count(*) FILTER (WHERE status = 'WAIT_CODE')::int AS waiting,
              (SELECT count(*) FROM users)::int AS users
         FROM orders`,
      [dayStart],
    );
    expect(overview.body).toMatchObject({
      users: today!.users,
      ordersToday: today!.n,
      ordersTodaySuccess: today!.ok,
      ordersWaiting: today!.waiting,
    });
    expect(today!.n).toBeGreaterThan(0);

    const list = await s.api(endpoints.userAdmin.getUser, { body: { page: 1, pageSize: 50 }, token: admin });
    const [u] = await s.db.query<{ total: number; active: number; held: string }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'Active')::int AS active,
              sum(balance)::text AS held FROM users`,
    );
    expect(list.body.stats).toMatchObject({
      totalUsers: u!.total,
      activeUsers: u!.active,
      totalBalance: Number(u!.held),
    });
  });
});
