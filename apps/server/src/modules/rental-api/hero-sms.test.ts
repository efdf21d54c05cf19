import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { AuthenticationError, EarlyCancelError, HeroSMSClient, NoNumbersError } from 'hero-sms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

// An independent, published SMS-Activate client (npm `hero-sms` 2.0.0) pointed at our handler with
// its `baseUrl` option, against the real server and a simulated gateway speaking the device
// protocol: balance, rent, the code arrives, finish; rent, cancel, refund.

let s: TestServer;
let sim: GatewaySim;
let client: HeroSMSClient;
let userId: string;

beforeAll(async () => {
  s = await startTestServer();
  sim = await GatewaySim.start({ ports: 4, seed: 23 });
  const admin = await s.adminToken();
  const gw = await s.api(endpoints.gateway.update, {
    body: {
      gateway: {
        name: 'box-hero',
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: 'root',
        isEnable: true,
      },
    },
    token: admin,
  });
  expect(gw.status).toBe(200);
  expect(
    (await s.api(endpoints.gateway.scan, { body: { id: gw.body.id }, token: admin })).body,
  ).toMatchObject({
    totalSIM: 4,
    onlineStatus: 'Online',
  });
  await s.api(endpoints.service.update, {
    body: { name: 'Telegram', code: 'tg', price: 0.75, textContains: 'Telegram', pattern: '(\\d{5})' },
    token: admin,
  });
  const u = await s.createUser({ balance: 5 });
  userId = u.id;
  const apiKey = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
    .apiKey;
  client = new HeroSMSClient({ apiKey, baseUrl: `${s.url}/stubs/handler_api.php`, timeout: 10_000 });
});

afterAll(async () => {
  await sim?.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

describe('hero-sms against our handler', () => {
  it('balance, rent, the code arrives from the device, finish', async () => {
    expect(await client.getBalance()).toBe(5);
    const services = await client.getServicesList();
    expect(services.services).toContainEqual({ code: 'tg', name: 'Telegram' });
    const prices = await client.getPrices({ service: 'tg', country: 187 });
    expect(prices['187']?.tg?.cost).toBe(0.75);

    const { activationId, phoneNumber } = await client.getNumber({ service: 'tg', country: 187 });
    expect(Number.isInteger(activationId)).toBe(true);
    expect(phoneNumber).toMatch(/^\d+$/);
    expect(await client.getBalance()).toBe(4.25);
    expect(await client.getStatus(activationId)).toEqual({ status: 'STATUS_WAIT_CODE' });

    const slot = sim.slots().find((x) => x.sn === phoneNumber);
    expect(slot).toBeDefined();
    sim.injectSms({
      port: slot!.port,
      from: 'Telegram',
      text: 'Telegram code: 70412. Do not give it to anyone.',
    });
    const status = await waitFor(async () => {
      const st = await client.getStatus(activationId);
      return st.status === 'STATUS_OK' ? st : undefined;
    }, 10_000);
    expect(status).toEqual({ status: 'STATUS_OK', code: '70412' });

    const active = await client.getActiveActivations();
    expect(active.data[0]).toMatchObject({ activationId: String(activationId), smsCode: '70412' });
    expect(await client.complete(activationId)).toBe('ACCESS_ACTIVATION');
    const history = await client.getHistory();
    expect(history[0]).toMatchObject({ id: activationId, status: '6', cost: 0.75 });
    expect(await client.getBalance()).toBe(4.25);
  });

  it('rent, cancel (refused early, then accepted), refund', async () => {
    const before = await client.getBalance();
    const { activationId } = await client.getNumber({ service: 'tg', country: 187 });
    expect(await client.getBalance()).toBe(before - 0.75);
    await expect(client.cancel(activationId)).rejects.toBeInstanceOf(EarlyCancelError);
    s.clock.advance(121_000);
    // The simulated device keeps reporting; the server's clock moved, so refresh its last report.
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    expect(await client.cancel(activationId)).toBe('ACCESS_CANCEL');
    expect(await client.getStatus(activationId)).toEqual({ status: 'STATUS_CANCEL' });
    expect(await client.getBalance()).toBe(before);
    const [refund] = await s.db.query<{ amount: string }>(
      `SELECT amount::text AS amount FROM ledger WHERE user_id = $1 AND kind = 'refund' AND ref = $2`,
      [userId, `order:${activationId}`],
    );
    expect(refund).toEqual({ amount: '0.75' });
  });

  it('maps our refusals to its typed errors', async () => {
    const poor = await s.createUser({ balance: 0.1 });
    const key = (await s.api(endpoints.apikey.reset, { token: poor.token, headers: await s.reauth(poor) }))
      .body.apiKey;
    const c = new HeroSMSClient({ apiKey: key, baseUrl: `${s.url}/stubs/handler_api.php` });
    // hero-sms 2.0.0 knows NO_BALANCE only in Hero's JSON envelope; the classic plain token (what
    // SA clients read) reaches it as an unparsed answer, still carrying the token.
    await expect(c.getNumber({ service: 'tg', country: 187 })).rejects.toMatchObject({
      rawResponse: 'NO_BALANCE',
    });
    await expect(c.getNumber({ service: 'tg', country: 0 })).rejects.toBeInstanceOf(NoNumbersError);
    const bad = new HeroSMSClient({ apiKey: 'sd_not-a-key', baseUrl: `${s.url}/stubs/handler_api.php` });
    await expect(bad.getBalance()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
