import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/db.ts';
import { startServer } from '../../server.ts';
import { addService, ledgerMismatches, seedGateway } from '../../test/fixtures.ts';
import { openTestDb, startTestServer, TEST_DB, type TestServer, testConfig } from '../../test/harness.ts';
import { openSse } from '../../test/sse.ts';
import { expireOverdue } from './orders.service.ts';

// Real concurrency needs real connections: PGlite is one connection, so this runs on PostgreSQL.
describe.runIf(TEST_DB === 'pg')('concurrent rents on PostgreSQL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await seedGateway(s.db, { sims: 50, lastUpdate: s.clock.now() });
    await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
    await addService(s.db, { code: 'wa', name: 'WhatsApp', price: 1 });
    // Every SIM rentable: the SIMs kept for sending have their own parallel test (sending-share.rent.test.ts).
    await s.db.query('UPDATE sim_settings SET kept_for_sending_percent = 0');
  });
  afterAll(async () => {
    await s.close();
  });

  /** 200 rents at once by 20 users (10 each, alternating services); checks what every wave must hold. */
  async function wave(users: { id: string; token: string }[], balanceBefore: number) {
    const attempts = Array.from({ length: 200 }, (_, i) => {
      const u = users[i % users.length]!;
      return s
        .api(endpoints.order.create, { body: { serviceCode: i % 2 ? 'tg' : 'wa' }, token: u.token })
        .then((r) => ({ r, u }));
    });
    const results = await Promise.all(attempts);
    const ok = results.filter(({ r }) => r.status === 200);
    for (const { r } of results) expect([200, 402, 409]).toContain(r.status);
    const perService = new Map<string, Set<string>>();
    for (const { r } of ok) {
      const o = r.body.data as { serviceCode: string; phoneNumber: string };
      const set = perService.get(o.serviceCode) ?? new Set();
      expect(set.has(o.phoneNumber)).toBe(false);
      set.add(o.phoneNumber);
      perService.set(o.serviceCode, set);
    }
    // 20 users × $7 = 140 rents affordable; 100 numbers exist (50 per service). Every refusal was
    // for a real reason: either the service ran out or the user's money did.
    expect(ok.length).toBe(100);
    expect([...perService.values()].map((x) => x.size)).toEqual([50, 50]);
    for (const u of users) {
      const orders = ok.filter((x) => x.u.id === u.id).length;
      const info = await s.api(endpoints.user.info, { token: u.token });
      expect(info.body.balance).toBe(balanceBefore - orders);
    }
    expect(await ledgerMismatches(s.db)).toEqual([]);
    return perService;
  }

  it('200 concurrent rents against 50 SIMs: no number twice per service, every balance exact', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => s.createUser({ balance: 7 })));
    const first = await wave(users, 7);

    // Every rental expires without an SMS (refunded): each number returns to both services' pools
    // (NUMBER_REUSE_LIMIT 3), and a second burst of 200 rents takes each exactly once again.
    s.clock.advance(21 * 60_000);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    // Two sweepers at once: each order is cancelled and refunded exactly once.
    const swept = await Promise.all([expireOverdue(s.ctx), expireOverdue(s.ctx)]);
    expect(swept[0] + swept[1]).toBe(100);
    expect(await ledgerMismatches(s.db)).toEqual([]);
    const token = await s.adminToken();
    const availability = async () =>
      (await s.api(endpoints.service.getAll, { token })).body.services.map(
        (x: { available: number }) => x.available,
      );
    // Held back for NUMBER_REUSE_COOLDOWN_MINUTES after the rentals ended, then back.
    expect(await availability()).toEqual([0, 0]);
    s.clock.advance(10 * 60_000);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    const listed = await s.api(endpoints.service.getAll, { token });
    expect(listed.body.services.map((x: { available: number }) => x.available)).toEqual([50, 50]);

    const second = await wave(users, 7);
    expect(second).toEqual(first);
    const [pairs] = await s.db.query<{ orders: number; open: number; most: number }>(
      `SELECT count(*)::int AS orders, count(*) FILTER (WHERE status = 'WAIT_CODE')::int AS open,
              (SELECT max(n)::int FROM (SELECT count(*) AS n FROM orders GROUP BY phone_number, service_id) x) AS most
         FROM orders`,
    );
    expect(pairs).toEqual({ orders: 200, open: 100, most: 2 });
  });
});

describe.runIf(TEST_DB === 'pg')('several server processes on one PostgreSQL', () => {
  it('an order changed through one server reaches an SSE client of another (LISTEN/NOTIFY)', async () => {
    const testDb = await openTestDb();
    const a = await startTestServer({ testDb });
    // A second, independent server on the same database, with its own connection pool.
    const dbB = await openPostgres(testDb.url!);
    const b = await startServer({ config: testConfig(), db: dbB, clock: a.clock, workers: false });
    try {
      await seedGateway(a.db, { sims: 2, lastUpdate: a.clock.now() });
      await addService(a.db, { code: 'mp', name: 'Multi' });
      const u = await a.createUser({ balance: 5 });
      const stream = await openSse(`${b.url}/api/Order/stream`, u.token);
      try {
        const res = await a.api(endpoints.order.create, { body: { serviceCode: 'mp' }, token: u.token });
        const ev = await stream.next((e) => e.event === 'order');
        expect(JSON.parse(ev.data).id).toBe(res.body.data.id);
      } finally {
        stream.close();
      }
    } finally {
      await b.stop();
      await dbB.close();
      await a.close();
    }
  });
});

describe('live order events', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('pushes a rented order and its cancellation to the owner only, over SSE', async () => {
    const gw = await seedGateway(s.db, { sims: 2, lastUpdate: s.clock.now() });
    await addService(s.db, { code: 'ev', name: 'Events' });
    const owner = await s.createUser({ balance: 5 });
    const other = await s.createUser({ balance: 5 });
    const mine = await openSse(`${s.url}/api/Order/stream`, owner.token);
    const theirs = await openSse(`${s.url}/api/Order/stream`, other.token);
    try {
      const created = (
        await s.api(endpoints.order.create, { body: { serviceCode: 'ev' }, token: owner.token })
      ).body.data;
      const ev = await mine.next((e) => e.event === 'order');
      expect(JSON.parse(ev.data)).toMatchObject({ id: created.id, status: 'WAIT_CODE' });
      s.clock.advance(121_000);
      await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
      await s.api(endpoints.order.cancel, { body: { orderId: created.id }, token: owner.token });
      const cancelled = await mine.next((e) => JSON.parse(e.data).status === 'CANCEL');
      expect(JSON.parse(cancelled.data).id).toBe(created.id);
      expect(theirs.events.filter((e) => e.event === 'order')).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('refuses the stream without a token', async () => {
    expect((await s.api(endpoints.live.stream)).status).toBe(401);
  });
});
