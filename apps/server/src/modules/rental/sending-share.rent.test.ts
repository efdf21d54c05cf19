import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { simsInOpenRentals } from './orders.queries.ts';

// SIMs kept for sending: rentals never take the last SimsKeptForSendingPercent (default 20) percent
// of the free SIMs with role Both, across services and in parallel, and every availability count
// says exactly what a rent can take. Runs on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.

let s: TestServer;
let admin: string;
let gw: Awaited<ReturnType<typeof seedGateway>>;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  gw = await seedGateway(s.db, { sims: 10, lastUpdate: s.clock.now() });
  for (const code of ['ka', 'kb', 'kc', 'kd', 'ke', 'kf']) await addService(s.db, { code, price: 1 });
});
afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

/** Every open rental ends (refunded): all SIMs free again. */
async function freeAll() {
  await s.db.query(`UPDATE orders SET status = 'CANCEL', finished_at = $1 WHERE status = 'WAIT_CODE'`, [
    s.clock.now(),
  ]);
}

async function counts(code: string, key: string) {
  const getall = (await s.api(endpoints.service.getAll, { token: admin })).body.services.find(
    (x: { code: string }) => x.code === code,
  )!.available as number;
  const sa = JSON.parse(
    await (await fetch(`${s.url}/stubs/handler_api.php?api_key=${key}&action=getNumbersStatus`)).text(),
  )[`${code}_0`] as number;
  const v1 = (
    await (await fetch(`${s.url}/api/v1/services`, { headers: { authorization: `Bearer ${key}` } })).json()
  ).services.find((x: { service: string; code?: string }) => (x.code ?? x.service) === code)
    .available as number;
  return { getall, sa: Number(sa), v1 };
}

const heldSims = async () => (await simsInOpenRentals(s.db, s.clock.now())).length;

describe('SIMs kept for sending', () => {
  it('by default 20 % of the SIMs with role Both are never rented; the counts say what a rent can take', async () => {
    const u = await s.createUser({ balance: 100 });
    const key: string = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) }))
      .body.apiKey;
    const overview = (await s.api(endpoints.overview.get, { token: admin })).body;
    expect(overview).toMatchObject({ simsKeptForSending: 2, simsKeptForSendingPercent: 20 });
    expect(await counts('ka', key)).toEqual({ getall: 8, sa: 8, v1: 8 });

    for (let i = 0; i < 8; i++) {
      expect(
        (await s.api(endpoints.order.create, { body: { serviceCode: 'ka' }, token: u.token })).status,
      ).toBe(200);
    }
    const refused = await s.api(endpoints.order.create, { body: { serviceCode: 'ka' }, token: u.token });
    expect(refused.body.error).toBe('no_numbers');
    expect(await counts('ka', key)).toEqual({ getall: 0, sa: 0, v1: 0 });
    expect(await heldSims()).toBe(8);

    // Another service may rent the SIMs already held (they send nothing anyway), never the kept two.
    expect(await counts('kb', key)).toEqual({ getall: 8, sa: 8, v1: 8 });
    for (let i = 0; i < 8; i++) {
      expect(
        (await s.api(endpoints.order.create, { body: { serviceCode: 'kb' }, token: u.token })).status,
      ).toBe(200);
    }
    expect(
      (await s.api(endpoints.order.create, { body: { serviceCode: 'kb' }, token: u.token })).body.error,
    ).toBe('no_numbers');
    expect(await heldSims()).toBe(8);

    // SIMs with role Rental only are not part of the share: the two free ones become rentable (the
    // 8 held SIMs with role Both keep floor(8 × 20 %) = 1, and none of them is free).
    const held = await simsInOpenRentals(s.db, s.clock.now());
    await s.db.query(`UPDATE sims SET role = 'rental' WHERE gateway_id = $1 AND NOT (id = ANY($2::uuid[]))`, [
      gw.id,
      held,
    ]);
    expect(await counts('kc', key)).toEqual({ getall: 10, sa: 10, v1: 10 });
    expect((await s.api(endpoints.overview.get, { token: admin })).body.simsKeptForSending).toBe(1);
    await s.db.query(`UPDATE sims SET role = 'both' WHERE gateway_id = $1`, [gw.id]);
    await freeAll();
  }, 120_000);

  it('is a setting saved with the limits (a field left out keeps its value); 0 lets rentals take every SIM', async () => {
    const u = await s.createUser({ balance: 100 });
    const key: string = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) }))
      .body.apiKey;
    const before = (await s.api(endpoints.settings.get, { token: admin })).body;
    expect(before.simsKeptForSendingPercent).toBe(20);
    const bad = await s.api(endpoints.settings.update, {
      body: { ...limits(before), SimsKeptForSendingPercent: 101 },
      token: admin,
    });
    expect(bad.status).toBe(400);
    const saved = await s.api(endpoints.settings.update, {
      body: { ...limits(before), SimsKeptForSendingPercent: 0 },
      token: admin,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.simsKeptForSendingPercent).toBe(0);
    expect(
      (await s.api(endpoints.outreach.getSettings, { token: u.token })).body.simsKeptForSendingPercent,
    ).toBe(0);
    expect((await s.api(endpoints.overview.get, { token: admin })).body).toMatchObject({
      simsKeptForSending: 0,
    });
    expect(await counts('kd', key)).toEqual({ getall: 10, sa: 10, v1: 10 });
    for (let i = 0; i < 10; i++) {
      expect(
        (await s.api(endpoints.order.create, { body: { serviceCode: 'kd' }, token: u.token })).status,
      ).toBe(200);
    }
    expect(await heldSims()).toBe(10);
    // Left out: kept. Set again to 50 %: 5 kept, and with every SIM held nothing more is taken.
    const again = await s.api(endpoints.settings.update, { body: limits(before), token: admin });
    expect(again.body.simsKeptForSendingPercent).toBe(0);
    await s.api(endpoints.settings.update, {
      body: { ...limits(before), SimsKeptForSendingPercent: 50 },
      token: admin,
    });
    await freeAll();
    // (kd's numbers wait out the reuse cooldown now: ke has never rented.)
    expect(await counts('ke', key)).toEqual({ getall: 5, sa: 5, v1: 5 });
    await s.api(endpoints.settings.update, {
      body: { ...limits(before), SimsKeptForSendingPercent: 20 },
      token: admin,
    });
  }, 120_000);

  it('holds under parallel rents of several services', async () => {
    await freeAll();
    const u = await s.createUser({ balance: 100 });
    const codes = ['ka', 'kb', 'kc', 'kd', 'ke', 'kf'];
    const results = await Promise.all(
      codes.flatMap((code) =>
        Array.from({ length: 4 }, () =>
          s.api(endpoints.order.create, { body: { serviceCode: code }, token: u.token }),
        ),
      ),
    );
    expect(results.every((r) => r.status === 200 || r.body.error === 'no_numbers')).toBe(true);
    // 10 SIMs, 2 kept: never more than 8 held, whatever the interleaving.
    expect(await heldSims()).toBeLessThanOrEqual(8);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(8);
    await freeAll();
  });
});

/** The bulk SMS limits as read, to send back with a change (this helper's field only is the point). */
function limits(r: { maxBatchSendSms: number; maxMsgPerDay: number } | Record<string, unknown>) {
  const v = r as { maxBatchSendSms: number; maxMsgPerDay: number };
  return { MaxBatchSendSms: v.maxBatchSendSms, MaxMsgPerDay: v.maxMsgPerDay };
}
