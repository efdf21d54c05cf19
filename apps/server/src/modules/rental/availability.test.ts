import { AdminServiceListResponse, endpoints, type Service, ServiceListResponse } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { openPostgres } from '../../db/db.ts';
import { Runtime } from '../../runtime.ts';
import { startServer } from '../../server.ts';
import { addService, seedGateway, waitFor } from '../../test/fixtures.ts';
import { openTestDb, startTestServer, TEST_DB, type TestServer, testConfig } from '../../test/harness.ts';
import { availabilityCache } from './availability.ts';
import { expireOverdue } from './orders.service.ts';

// The catalogue's availability is kept per process (./availability.ts): callers share one
// computation, and a rent, a release or a change made here is seen by the very next caller, one
// made by another process as soon as its event arrives; other changes within
// CATALOGUE_CACHE_SECONDS.

const CACHE_SECONDS = 60;

async function availableAt(url: string, code: string): Promise<number | undefined> {
  const res = await fetch(`${url}/api/Service/getall`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  const body = (await res.json()) as { services: Service[] };
  return body.services.find((x) => x.code === code)?.available;
}

describe('the kept availability, in one process', () => {
  let s: TestServer;
  let user: { token: string };
  let gatewayId: string;

  beforeAll(async () => {
    s = await startTestServer({
      env: { CATALOGUE_CACHE_SECONDS: String(CACHE_SECONDS), NUMBER_REUSE_COOLDOWN_MINUTES: '0' },
    });
    gatewayId = (await seedGateway(s.db, { sims: 3, lastUpdate: s.clock.now() })).id;
    await addService(s.db, { code: 'kept', name: 'Kept', rentMinutes: 20 });
    user = await s.createUser({ balance: 100 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const available = () => availableAt(s.url, 'kept');
  const rent = async () => {
    const r = await s.api(endpoints.order.create, { body: { serviceCode: 'kept' }, token: user.token });
    expect(r.status).toBe(200);
    return r.body.data.id as string;
  };

  it('is reused until something changes: a change made behind its back (SQL) shows only after its age', async () => {
    expect(await available()).toBe(3);
    await s.db.query("UPDATE sims SET state = 'empty' WHERE gateway_id = $1 AND port = $2", [
      gatewayId,
      '3.01',
    ]);
    expect(await available()).toBe(3);
    // Past twice its age it is computed again before answering.
    s.clock.advance(2 * CACHE_SECONDS * 1000 + 1);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    expect(await available()).toBe(2);
  });

  it('answers the declared shapes: public fields for anyone, every service with the admin fields for an admin', async () => {
    const pub = await s.api(endpoints.service.getAll);
    const parsed = ServiceListResponse.parse(pub.body);
    expect(parsed.services.map((x) => x.code)).toContain('kept');
    expect(pub.body.services[0]).not.toHaveProperty('stock');
    const admin = await s.api(endpoints.service.getAll, { token: await s.adminToken() });
    expect(AdminServiceListResponse.parse(admin.body).services.find((x) => x.code === 'kept')).toMatchObject({
      stock: 1000,
      isEnable: true,
    });
  });

  it('drops at once for the next caller after a rent, and comes back after the release', async () => {
    expect(await available()).toBe(2);
    const id = await rent();
    expect(await available()).toBe(1);
    await rent();
    expect(await available()).toBe(0);
    s.clock.advance(121_000);
    const c = await s.api(endpoints.order.cancel, { body: { orderId: id }, token: user.token });
    expect(c.status).toBe(200);
    expect(await available()).toBe(1);
    // The other rental expires (the sweep), its number is free again.
    s.clock.advance(20 * 60_000);
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    expect(await available()).toBe(1); // kept: the sweep has not run
    expect(await expireOverdue(s.ctx)).toBe(1);
    expect(await available()).toBe(2);
  });

  it('follows an admin who disables a service or marks a number spent', async () => {
    const admin = await s.adminToken();
    const all = await s.api(endpoints.service.getAll, { token: admin });
    const svc = all.body.services.find((x: { code: string }) => x.code === 'kept');
    const r = await s.api(endpoints.service.update, { rawBody: { ...svc, isEnable: false }, token: admin });
    expect(r.status).toBe(200);
    expect(await available()).toBeUndefined(); // the public list shows enabled services only
    expect(
      (await s.api(endpoints.service.update, { rawBody: { ...svc, isEnable: true }, token: admin })).status,
    ).toBe(200);
    expect(await available()).toBe(2);
    const [sim] = await s.db.query<{ number: string }>(
      "SELECT number FROM sims WHERE gateway_id = $1 AND state = 'ready' ORDER BY port LIMIT 1",
      [gatewayId],
    );
    const mark = await s.api(endpoints.service.markSpent, {
      body: { serviceId: svc!.id, phoneNumber: sim!.number, reason: 'blocked by the service' },
      token: admin,
    });
    expect(mark.status).toBe(200);
    expect(await available()).toBe(1);
  });

  it('follows an admin who locks and unlocks a SIM', async () => {
    const admin = await s.adminToken();
    const before = (await available())!;
    const lock = await s.api(endpoints.sim.lock, {
      body: { gatewayId, port: '2.01', reason: 'the carrier blocked it' },
      token: admin,
    });
    expect(lock.status).toBe(200);
    expect(await available()).toBe(before - 1);
    const unlock = await s.api(endpoints.sim.unlock, {
      body: { gatewayId, port: '2.01', reason: 'fixed' },
      token: admin,
    });
    expect(unlock.status).toBe(200);
    expect(await available()).toBe(before);
  });
});

describe('one computation per process', () => {
  const ctxWith = (seconds: number) => {
    const clock = new ManualClock();
    return {
      clock,
      ctx: {
        clock,
        runtime: new Runtime(),
        config: { CATALOGUE_CACHE_SECONDS: seconds },
      } as unknown as AppContext,
    };
  };
  /** A computation the test finishes by hand; counts how many were started. */
  const manual = () => {
    const started: ((v: Service[]) => void)[] = [];
    return {
      started,
      compute: () => new Promise<Service[]>((resolve) => started.push(resolve)),
    };
  };
  const answer = (available: number) => [{ available } as Service];

  it('callers that arrive while it runs share it', async () => {
    const { ctx } = ctxWith(5);
    const m = manual();
    const cache = availabilityCache(ctx, m.compute);
    const calls = Array.from({ length: 20 }, () => cache.services());
    expect(m.started).toHaveLength(1);
    m.started[0]!(answer(7));
    for (const c of await Promise.all(calls)) expect(c[0]!.available).toBe(7);
    expect((await cache.services())[0]!.available).toBe(7);
    expect(m.started).toHaveLength(1);
  });

  it('a change during a computation: later callers get a new one, and the old answer is not kept', async () => {
    const { ctx } = ctxWith(5);
    const m = manual();
    const cache = availabilityCache(ctx, m.compute);
    const before = cache.services();
    cache.invalidate();
    const after = cache.services();
    expect(m.started).toHaveLength(2);
    m.started[0]!(answer(3));
    m.started[1]!(answer(2));
    expect((await before)[0]!.available).toBe(3);
    expect((await after)[0]!.available).toBe(2);
    expect((await cache.services())[0]!.available).toBe(2);
    expect(m.started).toHaveLength(2);
  });

  it('past its age the old answer is given once more while one new computation runs', async () => {
    const { ctx, clock } = ctxWith(5);
    const m = manual();
    const cache = availabilityCache(ctx, m.compute);
    const first = cache.services();
    m.started[0]!(answer(4));
    await first;
    clock.advance(6000);
    expect((await cache.services())[0]!.available).toBe(4);
    expect((await cache.services())[0]!.available).toBe(4);
    expect(m.started).toHaveLength(2);
    m.started[1]!(answer(1));
    await new Promise((r) => setImmediate(r));
    expect((await cache.services())[0]!.available).toBe(1);
    // Far past its age (a clock jump) nobody gets the old answer.
    clock.advance(60_000);
    const late = cache.services();
    expect(m.started).toHaveLength(3);
    m.started[2]!(answer(0));
    expect((await late)[0]!.available).toBe(0);
  });

  it('a failed computation is not kept: the next caller tries again', async () => {
    const { ctx } = ctxWith(5);
    let n = 0;
    const cache = availabilityCache(ctx, async () => {
      n += 1;
      if (n === 1) throw new Error('database gone');
      return answer(9);
    });
    await expect(cache.services()).rejects.toThrow('database gone');
    expect((await cache.services())[0]!.available).toBe(9);
  });
});

describe.runIf(TEST_DB === 'pg')('several processes and the pool for heavy reads', () => {
  it("another process's rent reaches this one's kept availability (its event), within seconds", async () => {
    const env = { CATALOGUE_CACHE_SECONDS: '300' };
    const testDb = await openTestDb({ migrated: true });
    const a = await startTestServer({ testDb, env });
    const dbB = await openPostgres(testDb.url!);
    const b = await startServer({ config: testConfig(env), db: dbB, clock: a.clock, workers: false });
    try {
      await seedGateway(a.db, { sims: 2, lastUpdate: a.clock.now() });
      await addService(a.db, { code: 'xp', name: 'Across' });
      const u = await a.createUser({ balance: 5 });
      expect(await availableAt(a.url, 'xp')).toBe(2);
      expect(await availableAt(b.url, 'xp')).toBe(2);
      expect(
        (await a.api(endpoints.order.create, { body: { serviceCode: 'xp' }, token: u.token })).status,
      ).toBe(200);
      expect(await availableAt(a.url, 'xp')).toBe(1);
      // B's copy would be kept for 300 s (the clock does not move): only the event can change it.
      await waitFor(async () => (await availableAt(b.url, 'xp')) === 1, 3000);
    } finally {
      await b.stop();
      await dbB.close();
      await a.close();
    }
  });

  it('while the heavy reads wait for their pool, rents and sign-ins go on', async () => {
    const s = await startTestServer();
    try {
      await seedGateway(s.db, { sims: 2, lastUpdate: s.clock.now() });
      await addService(s.db, { code: 'hv', name: 'Heavy' });
      const u = await s.createUser({ balance: 5 });
      await s.db.session(async (holder) => {
        await holder.query('SELECT pg_advisory_lock(73001)');
        // Every connection of the heavy pool (2 in tests) waits on the lock.
        const blocked = [1, 2].map(() => s.db.heavy.query('SELECT pg_advisory_xact_lock_shared(73001)'));
        await waitFor(async () => {
          const [r] = await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          return r!.n === 2;
        });
        let catalogueDone = false;
        const catalogue = s.api(endpoints.service.getAll).then((r) => {
          catalogueDone = true;
          return r;
        });
        const rented = await s.api(endpoints.order.create, { body: { serviceCode: 'hv' }, token: u.token });
        expect(rented.status).toBe(200);
        expect(await s.login(u.username, u.password)).toBeTruthy();
        expect(catalogueDone).toBe(false);
        await holder.query('SELECT pg_advisory_unlock(73001)');
        await Promise.all(blocked);
        const res = await catalogue;
        expect(res.status).toBe(200);
        expect(res.body.services.find((x: { code: string }) => x.code === 'hv')!.available).toBe(1);
      });
    } finally {
      await s.close();
    }
  });
});
