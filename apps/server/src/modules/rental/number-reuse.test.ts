import { endpoints, SpentCountsResponse, SpentNumbersResponse } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { expireOverdue } from './orders.service.ts';

// The number reuse rule (RENTABLE_SIMS_SQL): a rental that ended without any SMS gives the number
// back to the service's pool, at most NUMBER_REUSE_LIMIT times; a code, an SMS of the service or an
// admin's mark spends it for that service. Each service here has its own one-SIM gateway, the only
// one enabled while it is tested, so "the number" is that SIM's. Runs on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.

let s: TestServer;
let admin: string;
let user: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer(); // NUMBER_REUSE_LIMIT: the default, 3
  admin = await s.adminToken();
  user = await s.createUser({ balance: 100 });
});
afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

/** A service with one SIM of its own; returns its id, the SIM's number, gateway and port. */
async function oneSimService(code: string, opts: { repeatable?: boolean } = {}) {
  const gw = await seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() });
  const id = await addService(s.db, {
    code,
    name: `Svc ${code}`,
    textContains: `Svc ${code}`,
    pattern: '(\\d{5})',
    repeatable: opts.repeatable ?? false,
  });
  // Only this service's SIM is rentable from now on (services rent from every usable SIM).
  await s.db.query('UPDATE gateways SET is_enable = (id = $1)', [gw.id]);
  return { id, code, number: gw.numbers[0]!, gatewayId: gw.id, port: gw.ports[0]! };
}

/** Moves the clock and keeps every seeded gateway online (usable SIMs need a recent report). */
async function advance(ms: number) {
  s.clock.advance(ms);
  await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
}

async function available(code: string): Promise<number> {
  const res = await s.api(endpoints.service.getAll, { token: admin });
  return res.body.services.find((x: { code: string }) => x.code === code)!.available;
}

const rent = (code: string) =>
  s.api(endpoints.order.create, { body: { serviceCode: code }, token: user.token });

/** Rents the number and lets the rental end without any SMS (expired, or cancelled by the user). */
async function emptyRental(svc: { code: string; number: string }, end: 'expire' | 'cancel') {
  const r = await rent(svc.code);
  expect(r.status).toBe(200);
  expect(r.body.data.phoneNumber).toBe(svc.number);
  if (end === 'cancel') {
    await advance(121_000);
    const c = await s.api(endpoints.order.cancel, { body: { orderId: r.body.data.id }, token: user.token });
    expect(c.status).toBe(200);
    expect(c.body.data.status).toBe('CANCEL');
  } else {
    await advance(21 * 60_000);
    expect(await expireOverdue(s.ctx)).toBeGreaterThanOrEqual(1);
  }
  // Held back for NUMBER_REUSE_COOLDOWN_MINUTES (10) after the rental ended, so the service's SMS
  // that comes late for it cannot reach the next renter; then back in the pool.
  expect(await available(svc.code)).toBe(0);
  await advance(10 * 60_000 - 1000);
  expect(await available(svc.code)).toBe(0);
  await advance(1000);
  return r.body.data.id as string;
}

async function sms(svc: { gatewayId: string; port: string }, text: string) {
  const r = await s.api(endpoints.sim.simulateSms, {
    body: { gatewayId: svc.gatewayId, port: svc.port, from: 'Service', text },
    token: admin,
  });
  expect(r.status).toBe(200);
}

async function spent(serviceId: string) {
  const r = await s.api(endpoints.service.spentNumbers, { body: { serviceId }, token: admin });
  expect(r.status).toBe(200);
  return SpentNumbersResponse.parse(r.body);
}

describe('number reuse', () => {
  it('an expired or cancelled rental without SMS gives the number back to the service', async () => {
    const svc = await oneSimService('reuse1');
    expect(await available('reuse1')).toBe(1);
    await emptyRental(svc, 'expire');
    expect(await available('reuse1')).toBe(1);
    await emptyRental(svc, 'cancel');
    expect(await available('reuse1')).toBe(1);
    // Two empty rentals so far: not spent.
    expect((await spent(svc.id)).numbers).toEqual([]);
  });

  it('the number is taken while its rental is open (one open order per number and service)', async () => {
    const svc = await oneSimService('open1');
    const r = await rent('open1');
    expect(r.status).toBe(200);
    expect(await available('open1')).toBe(0);
    const again = await rent('open1');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('no_numbers');
    // The database refuses a second open order for the pair, whatever the code does.
    await expect(
      s.db.query(
        `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_name, port, phone_number, price,
                             status, created_at, expires_at)
         VALUES ($1, $2, 'open1', 'x', 'gw', '1.01', $3, 1, 'WAIT_CODE', now(), now())`,
        [user.id, svc.id, svc.number],
      ),
    ).rejects.toThrow(/orders_number_open_per_service|duplicate key/);
  });

  it('after a code the number is spent for that service (and only that one)', async () => {
    const svc = await oneSimService('code1');
    const other = await addService(s.db, { code: 'code1b', name: 'Other', textContains: 'Other' });
    const r = await rent('code1');
    await sms(svc, 'Svc code1 code: 12345');
    await advance(21 * 60_000);
    await expireOverdue(s.ctx);
    expect(await available('code1')).toBe(0);
    expect((await rent('code1')).body.error).toBe('no_numbers');
    const list = await spent(svc.id);
    expect(list).toMatchObject({ reuseLimit: 3, total: 1 });
    expect(list.numbers).toEqual([
      { phoneNumber: svc.number, reason: 'code', at: expect.any(String), rentals: 1, mark: null },
    ]);
    // Another service may still rent it.
    expect((await spent(other)).numbers).toEqual([]);
    expect(r.body.data.phoneNumber).toBe(svc.number);
    const b = await rent('code1b');
    expect(b.status).toBe(200);
  });

  it("the service's SMS without a code spends the number too (the user was refunded)", async () => {
    const svc = await oneSimService('sms1');
    const r = await rent('sms1');
    await sms(svc, 'Welcome to Svc sms1');
    await advance(21 * 60_000);
    await expireOverdue(s.ctx);
    const o = await s.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [
      r.body.data.id,
    ]);
    expect(o[0]!.status).toBe('CANCEL');
    expect(await available('sms1')).toBe(0);
    expect((await spent(svc.id)).numbers).toMatchObject([{ phoneNumber: svc.number, reason: 'sms' }]);
  });

  it('a repeatable rental with a code, still open, keeps the number (and spends it)', async () => {
    const svc = await oneSimService('rep1', { repeatable: true });
    await rent('rep1');
    await sms(svc, 'Svc rep1 code: 55555');
    expect(await available('rep1')).toBe(0);
    expect((await rent('rep1')).body.error).toBe('no_numbers');
    expect((await spent(svc.id)).numbers).toMatchObject([{ reason: 'code', rentals: 1 }]);
  });

  it('returns to the pool at most NUMBER_REUSE_LIMIT (3) times: 4 empty rentals in all', async () => {
    const svc = await oneSimService('limit1');
    for (let i = 1; i <= 4; i++) {
      expect(await available('limit1')).toBe(1);
      // Expired rentals all count; one user's cancellations count once (pool-churn.test.ts).
      await emptyRental(svc, 'expire');
      if (i < 4) expect((await spent(svc.id)).numbers).toEqual([]);
    }
    expect(await available('limit1')).toBe(0);
    expect((await rent('limit1')).body.error).toBe('no_numbers');
    expect((await spent(svc.id)).numbers).toMatchObject([
      { phoneNumber: svc.number, reason: 'limit', rentals: 4, mark: null },
    ]);
    const counts = SpentCountsResponse.parse(
      (await s.api(endpoints.service.spentCounts, { token: admin })).body,
    );
    expect(counts.counts.find((c) => c.serviceId === svc.id)?.spent).toBe(1);
  });
});

describe('admin marks', () => {
  it('mark → not rentable, listed with reason, who and when; unmark → rentable again; both audited', async () => {
    const svc = await oneSimService('mark1');
    const mark = await s.api(endpoints.service.markSpent, {
      body: { serviceId: svc.id, phoneNumber: svc.number, reason: '  Banned by the service  ' },
      token: admin,
    });
    expect(mark.status).toBe(200);
    expect(mark.body).toMatchObject({ code: 1, msg: expect.stringContaining(svc.number) });
    expect(await available('mark1')).toBe(0);
    expect((await rent('mark1')).body.error).toBe('no_numbers');
    const list = await spent(svc.id);
    expect(list.numbers).toEqual([
      {
        phoneNumber: svc.number,
        reason: 'admin',
        at: s.clock.now().toISOString(),
        rentals: 0,
        mark: { reason: 'Banned by the service', markedBy: 'admin', markedAt: s.clock.now().toISOString() },
      },
    ]);
    expect(
      (
        await s.api(endpoints.service.spentNumbers, {
          body: { serviceId: svc.id, search: '999999999' },
          token: admin,
        })
      ).body,
    ).toMatchObject({ total: 0, numbers: [] });
    // Marking again replaces the reason.
    await s.api(endpoints.service.markSpent, {
      body: { serviceId: svc.id, phoneNumber: svc.number, reason: 'Again' },
      token: admin,
    });
    expect((await spent(svc.id)).numbers[0]!.mark!.reason).toBe('Again');

    const unmark = await s.api(endpoints.service.unmarkSpent, {
      body: { serviceId: svc.id, phoneNumber: svc.number },
      token: admin,
    });
    expect(unmark.status).toBe(200);
    expect(await available('mark1')).toBe(1);
    expect((await spent(svc.id)).numbers).toEqual([]);
    const again = await s.api(endpoints.service.unmarkSpent, {
      body: { serviceId: svc.id, phoneNumber: svc.number },
      token: admin,
    });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('not_found');

    const audit = await s.api(endpoints.audit.list, { token: admin });
    const kinds = audit.body.entries.filter((e) => e.targetId === svc.id).map((e) => [e.kind, e.targetLabel]);
    expect(kinds).toEqual([
      ['service.numberUnspent', `mark1 ${svc.number}`],
      ['service.numberSpent', `mark1 ${svc.number}`],
      ['service.numberSpent', `mark1 ${svc.number}`],
    ]);
  });

  it('a mark on a number its orders spent is listed with both; only the mark can be undone', async () => {
    const svc = await oneSimService('mark2');
    await rent('mark2');
    await sms(svc, 'Svc mark2 code: 24680');
    const spaced = `${svc.number.slice(0, 4)} ${svc.number.slice(4)}`;
    expect(
      (
        await s.api(endpoints.service.markSpent, {
          body: { serviceId: svc.id, phoneNumber: spaced, reason: 'ban' },
          token: admin,
        })
      ).status,
    ).toBe(200);
    expect((await spent(svc.id)).numbers).toMatchObject([
      { phoneNumber: svc.number, reason: 'code', mark: { reason: 'ban' } },
    ]);
    expect(
      (
        await s.api(endpoints.service.unmarkSpent, {
          body: { serviceId: svc.id, phoneNumber: svc.number },
          token: admin,
        })
      ).status,
    ).toBe(200);
    const refused = await s.api(endpoints.service.unmarkSpent, {
      body: { serviceId: svc.id, phoneNumber: svc.number },
      token: admin,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('received a code');
    expect((await spent(svc.id)).numbers).toMatchObject([{ reason: 'code', mark: null }]);
  });

  it('validates every input and is for admins only', async () => {
    const svc = await oneSimService('mark3');
    const u = await s.createUser({ balance: 0 });
    const bad = async (body: unknown, status: number, error: string, field?: string) => {
      const r = await s.api(endpoints.service.markSpent, { rawBody: body, token: admin });
      expect(r.status).toBe(status);
      expect(r.body.error).toBe(error);
      if (field) expect(r.body.field).toBe(field);
    };
    await bad({ serviceId: svc.id, phoneNumber: 'abc', reason: 'x' }, 400, 'bad_input', 'phoneNumber');
    await bad({ serviceId: svc.id, phoneNumber: '12', reason: 'x' }, 400, 'bad_input', 'phoneNumber');
    await bad({ serviceId: svc.id, phoneNumber: '1'.repeat(33), reason: 'x' }, 400, 'bad_input');
    await bad({ serviceId: svc.id, phoneNumber: svc.number, reason: '   ' }, 400, 'bad_input', 'reason');
    await bad({ serviceId: svc.id, phoneNumber: svc.number, reason: 'x'.repeat(201) }, 400, 'bad_input');
    await bad({ serviceId: svc.id, phoneNumber: svc.number }, 400, 'bad_input');
    await bad({ serviceId: 'nope', phoneNumber: svc.number, reason: 'x' }, 404, 'service_not_found');
    await bad(
      { serviceId: '00000000-0000-4000-8000-000000000000', phoneNumber: svc.number, reason: 'x' },
      404,
      'service_not_found',
    );
    const list404 = await s.api(endpoints.service.spentNumbers, {
      body: { serviceId: 'nope' },
      token: admin,
    });
    expect(list404.status).toBe(404);
    for (const endpoint of [
      endpoints.service.spentCounts,
      endpoints.service.spentNumbers,
      endpoints.service.markSpent,
      endpoints.service.unmarkSpent,
    ]) {
      // One body for all four: the role is checked before it is read.
      const body = { serviceId: svc.id, phoneNumber: svc.number, reason: 'x' };
      expect((await s.api(endpoint, { rawBody: body, token: u.token })).status).toBe(403);
      expect((await s.api(endpoint, { rawBody: body })).status).toBe(401);
    }
    expect(await available('mark3')).toBe(1);
  });
});

describe('NUMBER_REUSE_LIMIT=0', () => {
  it('rents a number once per service, as before the setting', async () => {
    const z = await startTestServer({ env: { NUMBER_REUSE_LIMIT: '0' } });
    try {
      await seedGateway(z.db, { sims: 1, lastUpdate: z.clock.now() });
      const id = await addService(z.db, { code: 'zero' });
      const u = await z.createUser({ balance: 5 });
      const r = await z.api(endpoints.order.create, { body: { serviceCode: 'zero' }, token: u.token });
      expect(r.status).toBe(200);
      z.clock.advance(21 * 60_000);
      await z.db.query('UPDATE gateways SET last_update = $1', [z.clock.now()]);
      expect(await expireOverdue(z.ctx)).toBe(1);
      z.clock.advance(60 * 60_000);
      await z.db.query('UPDATE gateways SET last_update = $1', [z.clock.now()]);
      expect(
        (await z.api(endpoints.order.create, { body: { serviceCode: 'zero' }, token: u.token })).body.error,
      ).toBe('no_numbers');
      const list = await z.api(endpoints.service.spentNumbers, {
        body: { serviceId: id },
        token: await z.adminToken(),
      });
      expect(list.body).toMatchObject({ reuseLimit: 0, numbers: [{ reason: 'limit', rentals: 1 }] });
      expect(await ledgerMismatches(z.db)).toEqual([]);
    } finally {
      await z.close();
    }
  });
});

describe('the kept pair state (number_service_state)', () => {
  /** The same aggregates as the rule reads from the orders (RENTABLE_SIMS_SQL, SPENT_BY_ORDERS). */
  const fromOrders = () =>
    s.db.query(
      `SELECT o.service_id, o.phone_number, count(*)::int AS rentals, max(o.id)::text AS last_id,
              bool_or(o.status <> 'CANCEL') AS held, bool_or(o.code_text IS NOT NULL) AS coded,
              bool_or(o.sms_text IS NOT NULL AND (nr.after_order_id IS NULL OR o.id > nr.after_order_id))
                AS sms_since_return,
              (count(*) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                                  AND o.status = 'CANCEL' AND NOT o.cancelled_by_user)
               + count(DISTINCT o.user_id) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                                                    AND o.status = 'CANCEL' AND o.cancelled_by_user))::int AS counted,
              max(o.finished_at) AS free_after
         FROM orders o
         LEFT JOIN number_returns nr ON nr.service_id = o.service_id AND nr.phone_number = o.phone_number
        GROUP BY 1, 2 ORDER BY 1, 2`,
    );
  const kept = () =>
    s.db.query(
      `SELECT service_id, phone_number, rentals, last_id::text AS last_id, held, coded, sms_since_return,
              counted, free_after
         FROM number_service_state ORDER BY 1, 2`,
    );

  it('after every rental, SMS, cancellation, expiry and admin return above, equals what the orders say', async () => {
    const before = await kept();
    expect(before.length).toBeGreaterThan(5);
    expect(before).toEqual(await fromOrders());
    // The tests above spent numbers by SMS and by the reuse limit.
    expect(before.some((r) => r.sms_since_return)).toBe(true);
    expect(before.some((r) => (r.counted as number) > 3)).toBe(true);
    // An admin returns what the reuse limit spent: the returns change the pairs' state too.
    const counts = SpentCountsResponse.parse(
      (await s.api(endpoints.service.spentCounts, { token: admin })).body,
    );
    for (const c of counts.counts) {
      expect(
        (await s.api(endpoints.service.returnAllToPool, { body: { serviceId: c.serviceId }, token: admin }))
          .status,
      ).toBe(200);
    }
    expect((await s.db.query('SELECT 1 FROM number_returns')).length).toBeGreaterThan(0);
    const after = await kept();
    expect(after).toEqual(await fromOrders());
    expect(after).not.toEqual(before);
  });
});
