import { endpoints, type PublicService } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway, userWithApiKey } from '../../test/fixtures.ts';
import { startTestServer, TEST_DB, type TestServer } from '../../test/harness.ts';

// Renting by country and operator: a SIM counts where its IMSI (or ICCID, number…) says, a rent in
// a country takes only its SIMs at its price, and the catalogue's counts are what rents can take.

let s: TestServer;
let admin: string;
let serviceId: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  const now = s.clock.now();
  // 5 American SIMs (their ICCIDs say so), 4 Vodafone Germany and 3 Telekom Germany (their IMSIs).
  await seedGateway(s.db, { sims: 5, lastUpdate: now, numberBase: 12025550100 });
  await seedGateway(s.db, { sims: 4, lastUpdate: now, numberBase: 4915200000100, imsiPrefix: '26202' });
  await seedGateway(s.db, { sims: 3, lastUpdate: now, numberBase: 4915100000100, imsiPrefix: '26201' });
  await s.db.query('UPDATE sim_settings SET kept_for_sending_percent = 0');
  serviceId = await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
});

afterAll(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

const tgAt = async (body?: { country?: string; operator?: string }) => {
  const r = await s.api(endpoints.service.getAll, { body });
  expect(r.status).toBe(200);
  return (r.body.services as PublicService[]).find((x) => x.code === 'tg')!;
};

const setPrice = (country: string, price: number | null, operator?: string, token = admin) =>
  s.api(endpoints.catalogue.setServicePrice, { body: { serviceId, country, operator, price }, token });

describe('countries and operators from the SIMs', () => {
  it('lists the countries with SIMs, their operators and counts', async () => {
    const r = await s.api(endpoints.catalogue.countries, { body: {} });
    expect(r.status).toBe(200);
    expect(r.body.defaultCountry).toBe('US');
    expect(r.body.countries).toEqual([
      {
        country: 'DE',
        name: 'Germany',
        sims: 7,
        operators: [
          { name: 'Vodafone', sims: 4 },
          { name: 'Telekom', sims: 3 },
        ],
      },
      { country: 'US', name: 'United States', sims: 5, operators: [] },
    ]);
  });

  it('counts availability per country and operator', async () => {
    expect((await tgAt()).available).toBe(12);
    expect(await tgAt({ country: 'DE' })).toMatchObject({ available: 7, price: 1, country: 'DE' });
    expect((await tgAt({ country: 'de', operator: 'vodafone' })).available).toBe(4);
    expect(await tgAt({ country: 'FR' })).toMatchObject({ available: 0, price: 1 });
    const bad = await s.api(endpoints.service.getAll, { body: { country: 'Germany' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/two-letter code/);
  });
});

describe('prices per country and operator', () => {
  it('an admin sets them (audited); others may not; bad input is a 400', async () => {
    const user = await s.createUser({ balance: 0 });
    expect((await setPrice('DE', 0.8, undefined, user.token)).status).toBe(403);
    const bad = await setPrice('DE', 0.123);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/at most two decimals/);
    expect(
      (
        await s.api(endpoints.catalogue.setServicePrice, {
          body: { serviceId: '00000000-0000-0000-0000-000000000000', country: 'DE', price: 1 },
          token: admin,
        })
      ).status,
    ).toBe(404);

    expect((await setPrice('DE', 0.8)).status).toBe(200);
    const grid = await setPrice('DE', 1.15, 'Vodafone');
    expect(grid.body).toEqual({
      code: 1,
      serviceId,
      price: 1,
      prices: [
        { country: 'DE', operator: null, price: 0.8 },
        { country: 'DE', operator: 'Vodafone', price: 1.15 },
      ],
    });
    const audit = await s.api(endpoints.audit.list, { body: {}, token: admin });
    const kinds = (audit.body.entries as { kind: string; targetLabel: string }[]).filter(
      (e) => e.kind === 'service.countryPrice',
    );
    expect(kinds.map((e) => e.targetLabel)).toEqual(['tg in Germany, Vodafone', 'tg in Germany']);

    // Germany shows its cheapest price with a number (Telekom's: the country's), Vodafone its own.
    expect(await tgAt({ country: 'DE' })).toMatchObject({ price: 0.8, available: 7 });
    expect((await tgAt({ country: 'DE', operator: 'Vodafone' })).price).toBe(1.15);
    expect((await tgAt({ country: 'US' })).price).toBe(1);
    // All countries: the lowest price a rent would pay now.
    expect((await tgAt()).price).toBe(0.8);
  });

  it('a rent in a country takes its SIMs, the cheapest first, and pays their price exactly', async () => {
    const u = await s.createUser({ balance: 10 });
    const available = (await tgAt({ country: 'DE' })).available;
    const paid: number[] = [];
    for (;;) {
      const r = await s.api(endpoints.order.create, {
        body: { serviceCode: 'tg', country: 'DE' },
        token: u.token,
      });
      if (r.status !== 200) {
        expect(r.status).toBe(409);
        expect(r.body.error).toBe('no_numbers');
        expect(r.body.msg).toMatch(/in Germany/);
        break;
      }
      expect(r.body.data.country).toBe('DE');
      expect(r.body.data.phoneNumber).toMatch(/^49/);
      paid.push(r.body.data.price);
    }
    // What the catalogue said is exactly what rents could take: 3 Telekom at 0.80, then 4 Vodafone.
    expect(paid.length).toBe(available);
    expect(paid).toEqual([0.8, 0.8, 0.8, 1.15, 1.15, 1.15, 1.15]);
    const info = await s.api(endpoints.user.info, { token: u.token });
    expect(info.body.balance).toBe(3);
    expect((await tgAt({ country: 'DE' })).available).toBe(0);
    // Germany is empty; America still rents, at the service's own price.
    const us = await s.api(endpoints.order.create, {
      body: { serviceCode: 'tg', country: 'US' },
      token: u.token,
    });
    expect(us.body.data).toMatchObject({ country: 'US', price: 1 });
  });

  it('a price change applies to new orders only', async () => {
    const u = await s.createUser({ balance: 5 });
    // Another service, so Germany's SIMs are free for it.
    const wa = await addService(s.db, { code: 'wa', name: 'WhatsApp', price: 0.5 });
    const first = await s.api(endpoints.order.create, {
      body: { serviceCode: 'wa', country: 'DE' },
      token: u.token,
    });
    expect(first.body.data.price).toBe(0.5);
    const set = await s.api(endpoints.catalogue.setServicePrice, {
      body: { serviceId: wa, country: 'DE', price: '0.70' },
      token: admin,
    });
    expect(set.status).toBe(200);
    const second = await s.api(endpoints.order.create, {
      body: { serviceCode: 'wa', country: 'DE' },
      token: u.token,
    });
    expect(second.body.data.price).toBe(0.7);
    const orders = await s.api(endpoints.order.getByUser, { token: u.token });
    const byId = new Map((orders.body.orders as { id: string; price: number }[]).map((o) => [o.id, o.price]));
    expect(byId.get(first.body.data.id)).toBe(0.5);
    expect(byId.get(second.body.data.id)).toBe(0.7);
    // Removing the country's price brings the service's own back.
    await s.api(endpoints.catalogue.setServicePrice, {
      body: { serviceId: wa, country: 'DE', price: null },
      token: admin,
    });
    expect(
      (await s.api(endpoints.catalogue.servicePrices, { body: { serviceId: wa }, token: admin })).body.prices,
    ).toEqual([]);
  });

  it('refuses a country without numbers and a maximum below the price', async () => {
    const u = await s.createUser({ balance: 5 });
    const fr = await s.api(endpoints.order.create, {
      body: { serviceCode: 'wa', country: 'FR' },
      token: u.token,
    });
    expect(fr.status).toBe(409);
    expect(fr.body.msg).toBe(
      'No numbers available for WhatsApp in France right now. Please try another country or try again later.',
    );
    const info = await s.api(endpoints.user.info, { token: u.token });
    expect(info.body.balance).toBe(5);

    // Germany's WhatsApp is 0.50 (no price of its own any more): a maximum of 0.40 is refused with it.
    const k = await userWithApiKey(s, 5);
    const handler = (q: Record<string, string>) =>
      fetch(`${s.url}/stubs/handler_api.php?${new URLSearchParams({ api_key: k.key, ...q })}`).then((r) =>
        r.text(),
      );
    expect(await handler({ action: 'getNumber', service: 'wa', country: '43', maxPrice: '0.40' })).toBe(
      'WRONG_MAX_PRICE:0.50',
    );
    expect(await handler({ action: 'getNumber', service: 'wa', country: '43', operator: 'Telekom' })).toMatch(
      /^ACCESS_NUMBER:\d+:49151/,
    );
    expect(await handler({ action: 'getNumber', service: 'wa', country: '78' })).toBe('NO_NUMBERS');
    expect((await s.api(endpoints.user.info, { token: k.token })).body.balance).toBe(4.5);
  });
});

// Real concurrency needs real connections: PGlite is one connection, so this runs on PostgreSQL.
describe.runIf(TEST_DB === 'pg')('200 parallel rents in two countries', () => {
  it('each rent takes only its country’s SIMs, no number twice, every balance exact', async () => {
    const now = s.clock.now();
    await s.db.query('UPDATE gateways SET is_enable = false');
    await seedGateway(s.db, { sims: 25, lastUpdate: now, numberBase: 12025560000 });
    await seedGateway(s.db, { sims: 25, lastUpdate: now, numberBase: 4915900000000, imsiPrefix: '26203' });
    await addService(s.db, { code: 'vb', name: 'Viber', price: 1 });
    const users = await Promise.all(Array.from({ length: 20 }, () => s.createUser({ balance: 7 })));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const u = users[i % users.length]!;
        const country = i % 2 ? 'DE' : 'US';
        return s
          .api(endpoints.order.create, { body: { serviceCode: 'vb', country }, token: u.token })
          .then((r) => ({ r, u, country }));
      }),
    );
    const ok = results.filter(({ r }) => r.status === 200);
    for (const { r } of results) expect([200, 402, 409]).toContain(r.status);
    expect(ok.length).toBe(50);
    const numbers = new Set<string>();
    for (const { r, country } of ok) {
      expect(r.body.data.country).toBe(country);
      expect(r.body.data.phoneNumber.startsWith(country === 'DE' ? '49' : '1')).toBe(true);
      expect(numbers.has(r.body.data.phoneNumber)).toBe(false);
      numbers.add(r.body.data.phoneNumber);
    }
    expect(ok.filter((x) => x.country === 'DE').length).toBe(25);
    for (const u of users) {
      const rented = ok.filter((x) => x.u.id === u.id).length;
      expect((await s.api(endpoints.user.info, { token: u.token })).body.balance).toBe(7 - rented);
    }
  });
});
