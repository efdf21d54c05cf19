import { countryName } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { type SeededGateway, smsToNumber, userWithApiKey } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverWithGatewayAndServices } from '../../test/suites.ts';

// The SMS-Activate handler, byte for byte: every action and every error token it answers, over
// GET with a query, POST with a form body and POST with the query string.

let s: TestServer;
let gw: SeededGateway;

serverWithGatewayAndServices(
  {
    sims: 12,
    numberBase: 15550000000,
    services: [
      { code: 'tg', name: 'Telegram', price: 1.25 },
      { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true },
      { code: 'wa', name: 'WhatsApp', price: 2, stock: 0 },
    ],
  },
  (t) => {
    ({ s, gw } = t);
  },
);

interface Raw {
  status: number;
  type: string;
  body: string;
}

async function raw(res: Response): Promise<Raw> {
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()).toString('utf8'),
  };
}

/** GET /stubs/handler_api.php?… (what hero-sms and most clients send). */
async function get(params: Record<string, string | number>): Promise<Raw> {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return raw(await fetch(`${s.url}/stubs/handler_api.php?${qs}`));
}

/** POST with a form body (sms-man style clients). */
async function postForm(params: Record<string, string | number>): Promise<Raw> {
  return raw(
    await fetch(`${s.url}/stubs/handler_api.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString(),
    }),
  );
}

/** A plain-text token answer: HTTP 200, text/plain, exactly these bytes. */
function expectText(r: Raw, body: string) {
  expect({ status: r.status, body: r.body }).toEqual({ status: 200, body });
  expect(r.type).toMatch(/^text\/plain/);
  expect(r.body).toBe(r.body.trimEnd());
}

function expectJson(r: Raw, value: unknown) {
  expect(r.status).toBe(200);
  expect(r.type).toMatch(/^application\/json/);
  expect(r.body).toBe(JSON.stringify(value));
}

const keyedUser = (balance = 10) => userWithApiKey(s, balance);

const deliver = (phone: string, text: string) => smsToNumber(s.ctx, gw, phone, text);

async function getNumber(key: string, service: string, extra: Record<string, string> = {}) {
  const r = await get({ api_key: key, action: 'getNumber', service, country: 187, ...extra });
  const m = /^ACCESS_NUMBER:(\d+):(\d+)$/.exec(r.body);
  if (!m) throw new Error(`getNumber answered ${r.status} ${r.body}`);
  return { id: m[1]!, phone: m[2]! };
}

async function advance(seconds: number) {
  s.clock.advance(seconds * 1000);
  await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
}

const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

describe('keys and actions', () => {
  it('NO_KEY without a key, BAD_KEY for a wrong one, ACCOUNT_INACTIVE for a deactivated account', async () => {
    expectText(await get({ action: 'getBalance' }), 'NO_KEY');
    expectText(await get({ api_key: '', action: 'getBalance' }), 'NO_KEY');
    expectText(await get({ api_key: 'sd_wrong', action: 'getBalance' }), 'BAD_KEY');
    expectText(await postForm({ api_key: 'sd_wrong', action: 'getBalance' }), 'BAD_KEY');
    const u = await keyedUser();
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [u.id]);
    expectText(await get({ api_key: u.key, action: 'getBalance' }), 'ACCOUNT_INACTIVE');
  });

  it('BAD_ACTION for an unknown or missing action (also for prototype names)', async () => {
    const u = await keyedUser();
    expectText(await get({ api_key: u.key, action: 'getRentNumber' }), 'BAD_ACTION');
    expectText(await get({ api_key: u.key }), 'BAD_ACTION');
    expectText(await get({ api_key: u.key, action: 'constructor' }), 'BAD_ACTION');
    expectText(await get({ api_key: u.key, action: '__proto__' }), 'BAD_ACTION');
  });

  it('getBalance and getBalanceAndCashBack: ACCESS_BALANCE with two decimals, by GET, form POST or query POST', async () => {
    const u = await keyedUser(12.5);
    expectText(await get({ api_key: u.key, action: 'getBalance' }), 'ACCESS_BALANCE:12.50');
    expectText(await postForm({ api_key: u.key, action: 'getBalance' }), 'ACCESS_BALANCE:12.50');
    const q = await raw(
      await fetch(`${s.url}/stubs/handler_api.php?api_key=${u.key}&action=getBalanceAndCashBack`, {
        method: 'POST',
      }),
    );
    expectText(q, 'ACCESS_BALANCE:12.50');
    // Unknown parameters are ignored; a repeated one counts once (the last).
    expectText(
      await get({ api_key: u.key, action: 'getBalance', lang: 'en', ref: 'x' }),
      'ACCESS_BALANCE:12.50',
    );
  });
});

describe('renting: getNumber, getNumberV2', () => {
  it('ACCESS_NUMBER:<numeric id>:<digits>, charged, the id is the order', async () => {
    const u = await keyedUser(10);
    const n = await getNumber(u.key, 'tg');
    expect(gw.numbers).toContain(n.phone);
    const [order] = await s.db.query<{ id: string; phone_number: string }>(
      'SELECT id::text AS id, phone_number FROM orders WHERE user_id = $1',
      [u.id],
    );
    expect(order).toEqual({ id: n.id, phone_number: n.phone });
    expectText(await get({ api_key: u.key, action: 'getBalance' }), 'ACCESS_BALANCE:8.75');
  });

  it('getNumberV2 answers the documented JSON', async () => {
    const u = await keyedUser(10);
    const created = s.clock.now();
    const r = await postForm({ api_key: u.key, action: 'getNumberV2', service: 'go', country: 187 });
    const body = JSON.parse(r.body);
    expectJson(r, {
      activationId: body.activationId,
      phoneNumber: body.phoneNumber,
      activationCost: 0.5,
      currency: 840,
      countryCode: 187,
      countryPhoneCode: 1,
      canGetAnotherSms: true,
      activationTime: utc(created),
      activationEndTime: utc(new Date(created.getTime() + 20 * 60_000)),
      activationOperator: 'any',
    });
    expect(Number.isInteger(body.activationId)).toBe(true);
    expect(body.phoneNumber).toMatch(/^\d+$/);
  });

  it('BAD_SERVICE, NO_NUMBERS, NO_BALANCE, WRONG_MAX_PRICE:<price>', async () => {
    const u = await keyedUser(1);
    expectText(
      await get({ api_key: u.key, action: 'getNumber', service: 'zz', country: 187 }),
      'BAD_SERVICE',
    );
    expectText(await get({ api_key: u.key, action: 'getNumber', country: 187 }), 'BAD_SERVICE');
    // stock 0: no numbers; another country: no numbers there.
    expectText(await get({ api_key: u.key, action: 'getNumber', service: 'wa', country: 187 }), 'NO_NUMBERS');
    expectText(await get({ api_key: u.key, action: 'getNumber', service: 'go', country: 0 }), 'NO_NUMBERS');
    expectText(await get({ api_key: u.key, action: 'getNumber', service: 'zz', country: 0 }), 'BAD_SERVICE');
    expectText(await get({ api_key: u.key, action: 'getNumber', service: 'tg', country: 187 }), 'NO_BALANCE');
    expectText(
      await get({ api_key: u.key, action: 'getNumber', service: 'go', country: 187, maxPrice: '0.4' }),
      'WRONG_MAX_PRICE:0.50',
    );
    expectText(
      await get({ api_key: u.key, action: 'getNumber', service: 'go', country: 187, maxPrice: 'cheap' }),
      // Not a price: SMS-Activate's own answer, with the current price.
      'WRONG_MAX_PRICE:0.50',
    );
    // A disabled service has no numbers either.
    await s.db.query(`UPDATE services SET is_enable = false WHERE code = 'go'`);
    try {
      expectText(
        await get({ api_key: u.key, action: 'getNumber', service: 'go', country: 187 }),
        'NO_NUMBERS',
      );
    } finally {
      await s.db.query(`UPDATE services SET is_enable = true WHERE code = 'go'`);
    }
    // Nothing was charged.
    expectText(await get({ api_key: u.key, action: 'getBalance' }), 'ACCESS_BALANCE:1.00');
    // maxPrice at or above the price rents.
    await getNumber(u.key, 'go', { maxPrice: '0.50' });
  });
});

describe('the activation lifecycle', () => {
  it('getStatus WAIT_CODE → OK:<code>; getStatusV2, getFullSms; setStatus 6 finishes', async () => {
    const u = await keyedUser();
    const n = await getNumber(u.key, 'tg');
    const q = { api_key: u.key, id: n.id };
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_WAIT_CODE');
    expectJson(await get({ ...q, action: 'getStatusV2' }), { verificationType: 0, sms: null, call: null });
    expectText(await get({ ...q, action: 'getFullSms' }), 'STATUS_WAIT_CODE');
    expectText(await get({ ...q, action: 'setStatus', status: 1 }), 'ACCESS_READY');
    expectText(await get({ ...q, action: 'setStatus', status: 6 }), 'BAD_STATUS');

    const at = s.clock.now();
    await deliver(n.phone, 'Telegram code 48213. Do not share it.\n');
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_OK:48213');
    expectJson(await get({ ...q, action: 'getStatusV2' }), {
      verificationType: 0,
      sms: { dateTime: utc(at), code: '48213', text: 'Telegram code 48213. Do not share it.\n' },
      call: null,
    });
    expectText(await get({ ...q, action: 'getFullSms' }), 'FULL_SMS:Telegram code 48213. Do not share it.');
    expectText(await get({ ...q, action: 'setStatus', status: 1 }), 'BAD_STATUS');
    expectText(await get({ ...q, action: 'setStatus', status: 8 }), 'BAD_STATUS');
    // Not repeatable: no other SMS.
    expectText(await get({ ...q, action: 'setStatus', status: 3 }), 'BAD_STATUS');
    // With its code and not finished, it is still active.
    const active = JSON.parse((await get({ api_key: u.key, action: 'getActiveActivations' })).body);
    expect(active.activeActivations.map((a: { activationId: string }) => a.activationId)).toEqual([n.id]);
    expectText(await get({ ...q, action: 'setStatus', status: 6 }), 'ACCESS_ACTIVATION');
    expectText(await get({ api_key: u.key, action: 'getActiveActivations' }), 'NO_ACTIVATIONS');
    // Finishing twice is fine; the code stays readable.
    expectText(await get({ ...q, action: 'setStatus', status: 6 }), 'ACCESS_ACTIVATION');
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_OK:48213');
  });

  it('setStatus 8 and -1: EARLY_CANCEL_DENIED first, then ACCESS_CANCEL with a refund; STATUS_CANCEL', async () => {
    const u = await keyedUser(10);
    const a = await getNumber(u.key, 'tg');
    const b = await getNumber(u.key, 'tg');
    expectText(
      await get({ api_key: u.key, action: 'setStatus', id: a.id, status: 8 }),
      'EARLY_CANCEL_DENIED',
    );
    await advance(121);
    expectText(await get({ api_key: u.key, action: 'setStatus', id: a.id, status: 8 }), 'ACCESS_CANCEL');
    expectText(
      await postForm({ api_key: u.key, action: 'setStatus', id: b.id, status: -1 }),
      'ACCESS_CANCEL',
    );
    expectText(await get({ api_key: u.key, action: 'getBalance' }), 'ACCESS_BALANCE:10.00');
    expectText(await get({ api_key: u.key, action: 'getStatus', id: a.id }), 'STATUS_CANCEL');
    expectText(await get({ api_key: u.key, action: 'getStatusV2', id: a.id }), 'STATUS_CANCEL');
    expectText(await get({ api_key: u.key, action: 'getFullSms', id: a.id }), 'STATUS_CANCEL');
    expectText(await get({ api_key: u.key, action: 'setStatus', id: a.id, status: 8 }), 'BAD_STATUS');
    expectText(await get({ api_key: u.key, action: 'setStatus', id: a.id, status: 6 }), 'BAD_STATUS');
  });

  it('repeatable service: setStatus 3 → STATUS_WAIT_RETRY:<last code> → STATUS_OK:<new code>', async () => {
    const u = await keyedUser();
    const n = await getNumber(u.key, 'go');
    const q = { api_key: u.key, id: n.id };
    expectText(await get({ ...q, action: 'setStatus', status: 3 }), 'BAD_STATUS');
    await deliver(n.phone, 'G-111111 is your Google code');
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_OK:111111');
    expectText(await get({ ...q, action: 'setStatus', status: 3 }), 'ACCESS_RETRY_GET');
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_WAIT_RETRY:111111');
    expectText(await get({ ...q, action: 'getFullSms' }), 'STATUS_WAIT_RETRY:111111');
    await advance(5);
    await deliver(n.phone, 'G-222222 is your Google code');
    expectText(await get({ ...q, action: 'getStatus' }), 'STATUS_OK:222222');
    expectText(await get({ ...q, action: 'getFullSms' }), 'FULL_SMS:G-222222 is your Google code');
    // Finished: no more SMS.
    expectText(await get({ ...q, action: 'setStatus', status: 6 }), 'ACCESS_ACTIVATION');
    expectText(await get({ ...q, action: 'setStatus', status: 3 }), 'BAD_STATUS');
  });

  it('NO_ACTIVATION for unknown, foreign or malformed ids; BAD_STATUS for unknown status values', async () => {
    const u = await keyedUser();
    const other = await keyedUser();
    const n = await getNumber(u.key, 'tg');
    for (const id of ['999999999', 'abc', '', '1e3', '-1', '99999999999999999999']) {
      expectText(await get({ api_key: u.key, action: 'getStatus', id }), 'NO_ACTIVATION');
      expectText(await get({ api_key: u.key, action: 'setStatus', id, status: 8 }), 'NO_ACTIVATION');
    }
    expectText(await get({ api_key: other.key, action: 'getStatus', id: n.id }), 'NO_ACTIVATION');
    expectText(await get({ api_key: other.key, action: 'setStatus', id: n.id, status: 8 }), 'NO_ACTIVATION');
    expectText(await get({ api_key: other.key, action: 'setStatus', id: n.id, status: 5 }), 'NO_ACTIVATION');
    for (const status of ['2', '5', '', 'x']) {
      expectText(await get({ api_key: u.key, action: 'setStatus', id: n.id, status }), 'BAD_STATUS');
    }
  });

  it('finishActivation and cancelActivation: 204 empty, or 404/409 with a {title, details} envelope', async () => {
    const u = await keyedUser();
    const a = await getNumber(u.key, 'tg');
    const early = await get({ api_key: u.key, action: 'cancelActivation', id: a.id });
    expect(early.status).toBe(409);
    expect(JSON.parse(early.body)).toEqual({ title: 'EARLY_CANCEL_DENIED', details: expect.any(String) });
    const noCode = await get({ api_key: u.key, action: 'finishActivation', id: a.id });
    expect(noCode.status).toBe(409);
    expect(JSON.parse(noCode.body).title).toBe('BAD_STATUS');
    const missing = await get({ api_key: u.key, action: 'finishActivation', id: '77777777' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).title).toBe('NO_ACTIVATION');
    await advance(121);
    const cancelled = await get({ api_key: u.key, action: 'cancelActivation', id: a.id });
    expect(cancelled).toMatchObject({ status: 204, body: '' });
    const b = await getNumber(u.key, 'tg');
    await deliver(b.phone, 'Telegram code 90909');
    expect(await get({ api_key: u.key, action: 'finishActivation', id: b.id })).toMatchObject({
      status: 204,
      body: '',
    });
  });
});

describe('lists and catalogue', () => {
  it('getActiveActivations: NO_ACTIVATIONS, then both arrays with the documented rows', async () => {
    const u = await keyedUser();
    expectText(await get({ api_key: u.key, action: 'getActiveActivations' }), 'NO_ACTIVATIONS');
    const created = s.clock.now();
    const n = await getNumber(u.key, 'go');
    const row = {
      activationId: n.id,
      serviceCode: 'go',
      phoneNumber: n.phone,
      activationCost: 0.5,
      activationStatus: '1',
      smsCode: null,
      smsText: null,
      activationTime: utc(created),
      discount: '0.00',
      repeated: '0',
      countryCode: '187',
      countryName: 'United States',
      canGetAnotherSms: '0',
      currency: '840',
    };
    expectJson(await get({ api_key: u.key, action: 'getActiveActivations' }), {
      status: 'success',
      activeActivations: [row],
      data: [row],
    });
    await deliver(n.phone, 'G-333333 Google');
    const after = {
      ...row,
      activationStatus: '6',
      smsCode: '333333',
      smsText: 'G-333333 Google',
      canGetAnotherSms: '1',
    };
    expectJson(await get({ api_key: u.key, action: 'getActiveActivations', start: 0, limit: 10 }), {
      status: 'success',
      activeActivations: [after],
      data: [after],
    });
    // Paging values that are not one are read leniently (defaults, clamped), never ERROR_SQL.
    const all = { status: 'success', activeActivations: [after], data: [after] };
    expectJson(await get({ api_key: u.key, action: 'getActiveActivations', limit: 'lots' }), all);
    expectJson(await get({ api_key: u.key, action: 'getActiveActivations', limit: 1000 }), all);
    expectJson(await get({ api_key: u.key, action: 'getActiveActivations', start: -5, limit: 0 }), all);
  });

  it('getHistory lists every order with status 6 / 8 / 1', async () => {
    const u = await keyedUser();
    expectJson(await get({ api_key: u.key, action: 'getHistory' }), []);
    const created = s.clock.now();
    const a = await getNumber(u.key, 'tg');
    await deliver(a.phone, 'Telegram code 12121');
    const body = JSON.parse((await get({ api_key: u.key, action: 'getHistory', size: 10 })).body);
    expect(body).toEqual([
      {
        id: Number(a.id),
        date: utc(created),
        phone: a.phone,
        sms: 'Telegram code 12121',
        cost: 1.25,
        status: '6',
        currency: 840,
      },
    ]);
    const from = Math.floor(created.getTime() / 1000) + 3600;
    expectJson(await get({ api_key: u.key, action: 'getHistory', start: from }), []);
  });

  it('getPrices, getNumbersStatus, getTopCountriesByService, getCountries, getServicesList, getOperators', async () => {
    const u = await keyedUser();
    const k = { api_key: u.key };
    const prices = JSON.parse((await get({ ...k, action: 'getPrices' })).body);
    expect(Object.keys(prices)).toEqual(['187']);
    expect(prices['187'].wa).toEqual({ cost: 2, count: 0, physicalCount: 0 });
    expect(prices['187'].tg).toEqual({
      cost: 1.25,
      count: expect.any(Number),
      physicalCount: prices['187'].tg.count,
    });
    const tgCount: number = prices['187'].tg.count;
    expectJson(await get({ ...k, action: 'getPrices', service: 'tg', country: 187 }), {
      187: { tg: { cost: 1.25, count: tgCount, physicalCount: tgCount } },
    });
    expectJson(await get({ ...k, action: 'getPrices', service: 'tg', country: 0 }), {});
    expectText(await get({ ...k, action: 'getPrices', service: 'nope' }), 'BAD_SERVICE');

    const status = JSON.parse((await get({ ...k, action: 'getNumbersStatus', country: 187 })).body);
    expect(status).toMatchObject({ tg_0: tgCount, wa_0: 0 });
    expectJson(await get({ ...k, action: 'getNumbersStatus', country: 2 }), {});

    expectJson(await get({ ...k, action: 'getTopCountriesByService', service: 'tg' }), {
      0: { country: 187, count: tgCount, price: 1.25, retail_price: 1.25 },
    });
    expectJson(await get({ ...k, action: 'getTopCountriesByService', service: 'tg', freePrice: 'true' }), {
      0: { country: 187, count: tgCount, price: 1.25, retail_price: 1.25, freePriceMap: { '1.25': tgCount } },
    });
    expectText(await get({ ...k, action: 'getTopCountriesByService', service: 'nope' }), 'BAD_SERVICE');

    expectJson(await get({ ...k, action: 'getCountries' }), {
      187: {
        id: 187,
        rus: countryName('US', 'ru'),
        eng: 'United States',
        chn: countryName('US', 'zh'),
        visible: 1,
        retry: 1,
        rent: 0,
        multiService: 0,
      },
    });
    expectJson(await get({ ...k, action: 'getServicesList' }), {
      status: 'success',
      services: [
        { code: 'go', name: 'Google' },
        { code: 'tg', name: 'Telegram' },
        { code: 'wa', name: 'WhatsApp' },
      ],
    });
    expectJson(await get({ ...k, action: 'getOperators', country: 187 }), {
      status: 'success',
      countryOperators: { 187: ['any'] },
    });
    expectText(await get({ ...k, action: 'getOperators', country: 1 }), 'OPERATORS_NOT_FOUND');
  });

  it('malformed bodies and parameters never answer 500', async () => {
    const u = await keyedUser();
    const bad = await raw(
      await fetch(`${s.url}/stubs/handler_api.php?api_key=${u.key}&action=getBalance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"oops":',
      }),
    );
    // An unreadable body carries no parameters: the query's action runs (never ERROR_SQL).
    expectText(bad, 'ACCESS_BALANCE:10.00');
    const json = await raw(
      await fetch(`${s.url}/stubs/handler_api.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: u.key, action: 'getBalance' }),
      }),
    );
    expectText(json, 'ACCESS_BALANCE:10.00');
    const twice = await raw(
      await fetch(`${s.url}/stubs/handler_api.php?api_key=${u.key}&action=getBalance&action=getBalance`),
    );
    // A parameter given twice is none of its values: the protocol's token, never ERROR_SQL.
    expectText(twice, 'BAD_ACTION');
  });

  it('never writes an API key into the log (the query string is redacted)', async () => {
    const u = await keyedUser();
    await get({ api_key: u.key, action: 'getBalance' });
    expect(s.logs.some((l) => l.includes(u.key))).toBe(false);
    expect(s.logs.some((l) => l.includes('api_key=[secret]'))).toBe(true);
    expect(s.logs.some((l) => l.includes('"level":50'))).toBe(false);
  });
});
