import { endpoints, SpentNumbersResponse } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { expireOverdue } from './orders.service.ts';

// Renters must not empty a service's pool for free: their own (refunded) cancellations count once
// per user and number toward NUMBER_REUSE_LIMIT, cancellations are capped per user and hour
// (RENTAL_CANCELS_PER_HOUR), and an admin can return spent numbers to the pool without a restart.
// Runs on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.

let s: TestServer;
let admin: string;

beforeAll(async () => {
  // The cap is out of the way here; its own test below runs a server with a small one.
  s = await startTestServer({ env: { RENTAL_CANCELS_PER_HOUR: '0' } });
  admin = await s.adminToken();
});
afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

/** A service with one SIM of its own (the only enabled gateway while it is tested). */
async function oneSimService(server: TestServer, code: string) {
  const gw = await seedGateway(server.db, { sims: 1, lastUpdate: server.clock.now() });
  const id = await addService(server.db, { code, name: `Svc ${code}`, textContains: `Svc ${code}` });
  await server.db.query('UPDATE gateways SET is_enable = (id = $1)', [gw.id]);
  return { id, code, number: gw.numbers[0]!, gatewayId: gw.id, port: gw.ports[0]! };
}

async function advance(server: TestServer, ms: number) {
  server.clock.advance(ms);
  await server.db.query('UPDATE gateways SET last_update = $1', [server.clock.now()]);
}

async function available(code: string): Promise<number> {
  const res = await s.api(endpoints.service.getAll, { token: admin });
  return res.body.services.find((x: { code: string }) => x.code === code)!.available;
}

/** One rental of the number by `token`, ended by the renter's cancel or by expiry; then the cooldown. */
async function emptyRental(svc: { code: string; number: string }, token: string, end: 'cancel' | 'expire') {
  const r = await s.api(endpoints.order.create, { body: { serviceCode: svc.code }, token });
  expect(r.status).toBe(200);
  expect(r.body.data.phoneNumber).toBe(svc.number);
  if (end === 'cancel') {
    await advance(s, 121_000);
    const c = await s.api(endpoints.order.cancel, { body: { orderId: r.body.data.id }, token });
    expect(c.status).toBe(200);
  } else {
    await advance(s, 21 * 60_000);
    expect(await expireOverdue(s.ctx)).toBeGreaterThanOrEqual(1);
  }
  await advance(s, 10 * 60_000);
}

async function spent(serviceId: string) {
  const r = await s.api(endpoints.service.spentNumbers, { body: { serviceId }, token: admin });
  expect(r.status).toBe(200);
  return SpentNumbersResponse.parse(r.body);
}

describe("a renter's own cancellations", () => {
  it('renting and cancelling a number again and again does not spend it for everyone', async () => {
    const svc = await oneSimService(s, 'churn1');
    const churner = await s.createUser({ balance: 10 });
    // Twice the old limit: before, the 4th cancellation spent the number for the service for good.
    for (let i = 0; i < 8; i++) await emptyRental(svc, churner.token, 'cancel');
    expect(await available('churn1')).toBe(1);
    expect((await spent(svc.id)).numbers).toEqual([]);
    // Cancelling cost the churner nothing, and gained nothing either.
    const rows = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE service_id = $1 AND cancelled_by_user`,
      [svc.id],
    );
    expect(rows[0]!.n).toBe(8);
  });

  it('expired rentals count, and one cancellation per user: a number nobody can use still leaves', async () => {
    const svc = await oneSimService(s, 'churn2');
    const [a, b, c] = [
      await s.createUser({ balance: 10 }),
      await s.createUser({ balance: 10 }),
      await s.createUser({ balance: 10 }),
    ];
    await emptyRental(svc, a.token, 'cancel');
    await emptyRental(svc, a.token, 'cancel'); // a's second cancellation does not count
    await emptyRental(svc, b.token, 'expire');
    await emptyRental(svc, b.token, 'cancel');
    expect(await available('churn2')).toBe(1);
    expect((await spent(svc.id)).numbers).toEqual([]);
    // a, b's expiry, b's cancellation and now c: 4 counted, over NUMBER_REUSE_LIMIT (3).
    await emptyRental(svc, c.token, 'cancel');
    expect(await available('churn2')).toBe(0);
    expect((await spent(svc.id)).numbers).toMatchObject([{ reason: 'limit', rentals: 5 }]);
  });
});

describe('returning spent numbers to the pool', () => {
  it('one number, then all spent by the limit; audited; the service rents them again', async () => {
    const svc = await oneSimService(s, 'back1');
    const u = await s.createUser({ balance: 10 });
    for (let i = 0; i < 4; i++) await emptyRental(svc, u.token, 'expire');
    expect(await available('back1')).toBe(0);
    expect((await spent(svc.id)).numbers).toMatchObject([{ phoneNumber: svc.number, reason: 'limit' }]);

    const back = await s.api(endpoints.service.returnToPool, {
      body: { serviceId: svc.id, phoneNumber: svc.number },
      token: admin,
    });
    expect(back.status).toBe(200);
    expect(back.body.msg).toContain('back in the pool');
    expect(await available('back1')).toBe(1);
    expect((await spent(svc.id)).numbers).toEqual([]);
    // Not spent any more: nothing to return.
    const again = await s.api(endpoints.service.returnToPool, {
      body: { serviceId: svc.id, phoneNumber: svc.number },
      token: admin,
    });
    expect(again.status).toBe(404);

    // It counts afresh: 4 more empty rentals spend it again; "return all" brings it back.
    for (let i = 0; i < 4; i++) await emptyRental(svc, u.token, 'expire');
    expect(await available('back1')).toBe(0);
    const all = await s.api(endpoints.service.returnAllToPool, { body: { serviceId: svc.id }, token: admin });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ code: 1, returned: 1 });
    expect(await available('back1')).toBe(1);
    const none = await s.api(endpoints.service.returnAllToPool, {
      body: { serviceId: svc.id },
      token: admin,
    });
    expect(none.body).toMatchObject({ code: 1, returned: 0 });
    expect(
      (await s.api(endpoints.order.create, { body: { serviceCode: 'back1' }, token: u.token })).status,
    ).toBe(200);

    const audit = await s.api(endpoints.audit.list, { token: admin });
    const kinds = audit.body.entries.filter((e) => e.targetId === svc.id).map((e) => e.kind);
    expect(kinds).toEqual(['service.numbersReturned', 'service.numberReturned']);
  });

  it('a number with an SMS of the service only when confirmed; one with a code never', async () => {
    const svc = await oneSimService(s, 'back2');
    const u = await s.createUser({ balance: 10 });
    const sms = (text: string) =>
      s.api(endpoints.sim.simulateSms, {
        body: { gatewayId: svc.gatewayId, port: svc.port, from: 'Service', text },
        token: admin,
      });
    const r = await s.api(endpoints.order.create, { body: { serviceCode: 'back2' }, token: u.token });
    expect(r.status).toBe(200);
    expect((await sms('Welcome to Svc back2')).status).toBe(200);
    await advance(s, 21 * 60_000);
    await expireOverdue(s.ctx);
    await advance(s, 10 * 60_000); // the cooldown after the rental ended
    expect((await spent(svc.id)).numbers).toMatchObject([{ reason: 'sms' }]);
    const body = { serviceId: svc.id, phoneNumber: svc.number };
    const refused = await s.api(endpoints.service.returnToPool, { body: body, token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.field).toBe('includeSms');
    // "Return all" takes only numbers spent by the limit.
    expect(
      (await s.api(endpoints.service.returnAllToPool, { body: { serviceId: svc.id }, token: admin })).body
        .returned,
    ).toBe(0);
    expect(await available('back2')).toBe(0);
    expect(
      (await s.api(endpoints.service.returnToPool, { body: { ...body, includeSms: true }, token: admin }))
        .status,
    ).toBe(200);
    expect(await available('back2')).toBe(1);

    await s.api(endpoints.order.create, { body: { serviceCode: 'back2' }, token: u.token });
    expect((await sms('Svc back2 code: 12345')).status).toBe(200);
    const code = await s.api(endpoints.service.returnToPool, {
      body: { ...body, includeSms: true },
      token: admin,
    });
    expect(code.status).toBe(409);
    expect(code.body.msg).toContain('received a code');
    expect(await available('back2')).toBe(0);
  });

  it('is for admins only and checks its input', async () => {
    const svc = await oneSimService(s, 'back3');
    const u = await s.createUser({ balance: 0 });
    for (const endpoint of [endpoints.service.returnToPool, endpoints.service.returnAllToPool]) {
      const body = { serviceId: svc.id, phoneNumber: svc.number };
      expect((await s.api(endpoint, { body, token: u.token })).status).toBe(403);
      expect((await s.api(endpoint, { body })).status).toBe(401);
      expect((await s.api(endpoint, { body: { ...body, serviceId: 'nope' }, token: admin })).status).toBe(
        404,
      );
    }
    const bad = await s.api(endpoints.service.returnToPool, {
      body: { serviceId: svc.id, phoneNumber: 'abc' },
      token: admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('phoneNumber');
  });
});

describe('RENTAL_CANCELS_PER_HOUR', () => {
  it('refuses a cancellation over the cap with 429 and a stable code, in every API; an hour later it is fine', async () => {
    const c = await startTestServer({ env: { RENTAL_CANCELS_PER_HOUR: '2' } });
    try {
      await seedGateway(c.db, { sims: 6, lastUpdate: c.clock.now() });
      await addService(c.db, { code: 'cap1', price: 1 });
      const u = await c.createUser({ balance: 20 });
      const key: string = (
        await c.api(endpoints.apikey.reset, { token: u.token, headers: await c.reauth(u) })
      ).body.apiKey;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await c.api(endpoints.order.create, { body: { serviceCode: 'cap1' }, token: u.token });
        expect(r.status).toBe(200);
        ids.push(r.body.data.id);
      }
      await advance(c, 121_000);
      for (const id of ids.slice(0, 2)) {
        expect((await c.api(endpoints.order.cancel, { body: { orderId: id }, token: u.token })).status).toBe(
          200,
        );
      }
      const refused = await fetch(`${c.url}/api/Order/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
        body: JSON.stringify({ orderId: ids[2] }),
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
      const body = await refused.json();
      expect(body).toMatchObject({ code: 0, error: 'cancel_limit_reached' });
      expect(body.msg).toMatch(/cancelled 2 rentals in the last hour/);
      // Nothing moved: the order still waits, not refunded.
      const o = await c.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [ids[2]]);
      expect(o[0]!.status).toBe('WAIT_CODE');

      // The SMS-Activate handler answers its own refusal token; Hero's cancelActivation a 429 envelope.
      const sa = await fetch(
        `${c.url}/stubs/handler_api.php?api_key=${key}&action=setStatus&status=8&id=${ids[2]}`,
      );
      expect(await sa.text()).toBe('EARLY_CANCEL_DENIED');
      const hero = await fetch(
        `${c.url}/stubs/handler_api.php?api_key=${key}&action=cancelActivation&id=${ids[2]}`,
      );
      expect(hero.status).toBe(429);
      expect(await hero.json()).toMatchObject({ title: 'EARLY_CANCEL_DENIED' });
      // The REST API: 429 with the code.
      const v1 = await fetch(`${c.url}/api/v1/orders/${ids[3]}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(v1.status).toBe(429);
      expect(await v1.json()).toMatchObject({ error: 'cancel_limit_reached' });

      // An hour after the first cancellations the window has room again.
      await advance(c, 60 * 60_000);
      expect(
        (await c.api(endpoints.order.cancel, { body: { orderId: ids[2]! }, token: u.token })).status,
      ).toBe(200);
      expect(await ledgerMismatches(c.db)).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
