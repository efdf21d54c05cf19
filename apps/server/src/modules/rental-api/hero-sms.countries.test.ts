import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { HeroSMSClient, NoNumbersError } from 'hero-sms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

// The published `hero-sms` client's country, operator and price calls against the real server and
// a simulated box whose SIMs are American (T-Mobile) and German (Vodafone, Telekom): every answer
// comes from what the SIMs report (IMSI, operator text), read by a Scan.

let s: TestServer;
let sim: GatewaySim;
let client: HeroSMSClient;
let apiKey: string;

const US = 187;
const DE = 43;

beforeAll(async () => {
  s = await startTestServer();
  // Ports 1–2 T-Mobile US, 3–4 Vodafone DE, 5–6 Telekom DE.
  sim = await GatewaySim.start({
    ports: 6,
    seed: 48,
    carriers: ['us-tmobile', 'us-tmobile', 'de-vodafone', 'de-vodafone', 'de-telekom', 'de-telekom'],
  });
  const admin = await s.adminToken();
  const gw = await s.api(endpoints.gateway.update, {
    body: {
      gateway: {
        name: 'box-de',
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: 'root',
        isEnable: true,
      },
    },
    token: admin,
  });
  expect(
    (await s.api(endpoints.gateway.scan, { body: { id: gw.body.id }, token: admin })).body.totalSIM,
  ).toBe(6);
  await s.db.query('UPDATE sim_settings SET kept_for_sending_percent = 0');
  const tg = await s.api(endpoints.service.update, {
    body: { name: 'Telegram', code: 'tg', price: 0.75, textContains: 'Telegram', pattern: '(\\d{5})' },
    token: admin,
  });
  for (const [country, operator, price] of [
    ['DE', null, 0.5],
    ['DE', 'Vodafone', 0.6],
  ] as const) {
    const r = await s.api(endpoints.catalogue.setServicePrice, {
      body: { serviceId: tg.body.id, country, operator, price },
      token: admin,
    });
    expect(r.status).toBe(200);
  }
  const u = await s.createUser({ balance: 5 });
  apiKey = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body.apiKey;
  client = new HeroSMSClient({ apiKey, baseUrl: `${s.url}/stubs/handler_api.php`, timeout: 10_000 });
});

afterAll(async () => {
  await sim?.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

describe('hero-sms: countries, operators and prices from the SIMs', () => {
  it('lists the countries and their operators', async () => {
    const countries = await client.getCountries();
    expect(
      Object.keys(countries)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([DE, US]);
    expect(countries[String(DE)]).toMatchObject({ id: DE, eng: 'Germany', rus: 'Германия', visible: 1 });
    const ops = await client.getOperators(DE);
    expect(ops.countryOperators[String(DE)]?.sort()).toEqual(['Telekom', 'Vodafone']);
    expect((await client.getOperators(US)).countryOperators[String(US)]).toEqual(['T-Mobile']);
  });

  it('prices and counts per country, and the top countries with their price map', async () => {
    const prices = await client.getPrices({ service: 'tg' });
    expect(prices).toEqual({
      [US]: { tg: { cost: 0.75, count: 2, physicalCount: 2 } },
      [DE]: { tg: { cost: 0.5, count: 4, physicalCount: 4 } },
    });
    const top = Object.values(await client.getTopCountriesByService({ service: 'tg', freePrice: true }));
    expect(top).toEqual([
      { country: DE, count: 4, price: 0.5, retail_price: 0.5, freePriceMap: { '0.50': 2, '0.60': 2 } },
      { country: US, count: 2, price: 0.75, retail_price: 0.75, freePriceMap: { '0.75': 2 } },
    ]);
    // hero-sms has no getNumbersStatus: the same key, asked directly.
    const status = await fetch(
      `${s.url}/stubs/handler_api.php?api_key=${apiKey}&action=getNumbersStatus&country=${DE}&operator=Vodafone`,
    ).then((r) => r.json());
    expect(status).toEqual({ tg_0: 2 });
  });

  it('rents by country and operator at their price, and has no numbers where they ran out', async () => {
    const v = await client.getNumberV2({ service: 'tg', country: DE, operator: 'Vodafone' });
    expect(v).toMatchObject({
      activationCost: 0.6,
      countryCode: DE,
      countryPhoneCode: 49,
      activationOperator: 'Vodafone',
    });
    const slot = sim.slots().find((x) => x.sn === v.phoneNumber);
    expect(slot?.opr).toBe('26202 Vodafone');
    const { phoneNumber } = await client.getNumber({ service: 'tg', country: US });
    expect(phoneNumber).toMatch(/^1/);
    expect(await client.getBalance()).toBe(3.65);
    await client.getNumber({ service: 'tg', country: DE, operator: 'Vodafone' });
    await expect(
      client.getNumber({ service: 'tg', country: DE, operator: 'Vodafone' }),
    ).rejects.toBeInstanceOf(NoNumbersError);
    // Telekom still has numbers, at Germany's price.
    expect((await client.getNumberV2({ service: 'tg', country: DE })).activationCost).toBe(0.5);
  });
});
