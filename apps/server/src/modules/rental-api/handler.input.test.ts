import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { lenientJson } from './handler.routes.ts';

// The SMS-Activate handler and bad input: the key is checked first, and a malformed body, a bad
// maxPrice or a NUL in a parameter gets the protocol's own token, never ERROR_SQL.

let s: TestServer;
let key = '';

beforeAll(async () => {
  s = await startTestServer({ env: { API_RATE_LIMIT: '100000' } });
  await seedGateway(s.db, { sims: 2, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1.25 });
  const u = await s.createUser({ balance: 10 });
  key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body.apiKey;
});
afterAll(() => s.close());

const HANDLER = '/stubs/handler_api.php';

async function send(query: string, init: RequestInit = {}) {
  const res = await fetch(`${s.url}${HANDLER}${query ? `?${query}` : ''}`, init);
  return { status: res.status, body: await res.text() };
}
const json = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('SMS-Activate handler: bad input gets protocol tokens', () => {
  it.each([
    { label: 'bad JSON', body: '{"action":' },
    { label: 'a bad JSON array', body: '[1,2' },
    { label: 'trailing garbage', body: '{"action":"getBalance"}}' },
    { label: 'deeply nested arrays', body: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  ])(
    '$label: NO_KEY without a key, BAD_KEY with a wrong one, no parameters with the key',
    async ({ body }) => {
      expect(await send('', json(body))).toEqual({ status: 200, body: 'NO_KEY' });
      expect(await send('api_key=sd_wrong', json(body))).toEqual({ status: 200, body: 'BAD_KEY' });
      // With the key the body simply carries no parameters: no action.
      expect(await send(`api_key=${key}`, json(body))).toEqual({ status: 200, body: 'BAD_ACTION' });
      expect(await send(`api_key=${key}&action=getBalance`, json(body))).toEqual({
        status: 200,
        body: 'ACCESS_BALANCE:10.00',
      });
    },
  );

  it('a body of another type is ignored, not refused before the key', async () => {
    const init = { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<x/>' };
    expect(await send('', init)).toEqual({ status: 200, body: 'NO_KEY' });
    expect(await send(`api_key=${key}&action=getBalance`, init)).toEqual({
      status: 200,
      body: 'ACCESS_BALANCE:10.00',
    });
  });

  it.each([['abc'], ['-1'], ['1e3'], ['NaN'], ['Infinity'], ['1.2.3'], ['\u0000']])(
    'getNumber with maxPrice %j answers WRONG_MAX_PRICE with the price, and rents nothing',
    async (maxPrice) => {
      const q = new URLSearchParams({ api_key: key, action: 'getNumber', service: 'tg', maxPrice });
      expect(await send(q.toString())).toEqual({ status: 200, body: 'WRONG_MAX_PRICE:1.25' });
      expect(await send(`api_key=${key}&action=getBalance`)).toEqual({
        status: 200,
        body: 'ACCESS_BALANCE:10.00',
      });
    },
  );

  it.each([['t\u0000g'], ['\u0000'], ['x'.repeat(65)], ['\ud800']])(
    'a service %j answers BAD_SERVICE',
    async (service) => {
      for (const action of ['getNumber', 'getNumberV2', 'getPrices', 'getTopCountriesByService']) {
        const q = new URLSearchParams({ api_key: key, action, service });
        expect(await send(q.toString()), action).toEqual({ status: 200, body: 'BAD_SERVICE' });
        expect(await send('', json(JSON.stringify({ api_key: key, action, service })))).toEqual({
          status: 200,
          body: 'BAD_SERVICE',
        });
      }
    },
  );

  it('NUL in the key or the action is BAD_KEY or BAD_ACTION', async () => {
    expect(
      await send(new URLSearchParams({ api_key: `${key}\u0000`, action: 'getBalance' }).toString()),
    ).toEqual({
      status: 200,
      body: 'BAD_KEY',
    });
    expect(await send(new URLSearchParams({ api_key: key, action: 'getBalance\u0000' }).toString())).toEqual({
      status: 200,
      body: 'BAD_ACTION',
    });
  });
});

describe('SMS-Activate handler: a parameter given twice or as an array', () => {
  const orders = async () => (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders'))[0]!.n;
  /** The same parameters four ways: repeated in the query, in a form, `name[]` in the query, a JSON array. */
  async function everyWay(fixed: Record<string, string>, name: string, values: [string, string]) {
    const q = new URLSearchParams({ api_key: key, ...fixed });
    const repeated = new URLSearchParams(q);
    for (const v of values) repeated.append(name, v);
    const brackets = new URLSearchParams(q);
    for (const v of values) brackets.append(`${name}[]`, v);
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    return [
      await send(repeated.toString()),
      await send('', { ...form, body: repeated.toString() }),
      await send(brackets.toString()),
      await send('', json(JSON.stringify({ api_key: key, ...fixed, [name]: values }))),
    ];
  }
  const four = (body: string) => Array.from({ length: 4 }, () => ({ status: 200, body }));

  it('a duplicated action is BAD_ACTION (not ERROR_SQL), even when both name the same action', async () => {
    expect(await everyWay({}, 'action', ['getBalance', 'getBalance'])).toEqual(four('BAD_ACTION'));
    expect(await everyWay({}, 'action', ['getBalance', 'getNumber'])).toEqual(four('BAD_ACTION'));
  });

  it('an array service rents nothing: BAD_SERVICE for every action that reads a service', async () => {
    const before = await orders();
    for (const action of ['getNumber', 'getNumberV2', 'getPrices', 'getTopCountriesByService']) {
      expect(await everyWay({ action }, 'service', ['tg', 'tg']), action).toEqual(four('BAD_SERVICE'));
    }
    expect(await orders()).toBe(before);
    expect(await send(`api_key=${key}&action=getBalance`)).toEqual({
      status: 200,
      body: 'ACCESS_BALANCE:10.00',
    });
  });

  it('every other parameter: its own token, or read as absent where the protocol reads it leniently', async () => {
    const before = await orders();
    expect(await everyWay({ action: 'getNumber', service: 'tg' }, 'maxPrice', ['5', '5'])).toEqual(
      four('WRONG_MAX_PRICE:1.25'),
    );
    expect(await everyWay({ action: 'getNumber', service: 'tg' }, 'country', ['187', '187'])).toEqual(
      four('NO_NUMBERS'),
    );
    expect(await everyWay({ action: 'getStatus' }, 'id', ['1', '1'])).toEqual(four('NO_ACTIVATION'));
    expect(await everyWay({ action: 'setStatus', status: '8' }, 'id', ['1', '1'])).toEqual(
      four('NO_ACTIVATION'),
    );
    expect(await orders()).toBe(before);
    // A real activation, so that only the repeated status can refuse.
    const rented = await send(
      new URLSearchParams({ api_key: key, action: 'getNumber', service: 'tg' }).toString(),
    );
    const id = rented.body.split(':')[1]!;
    expect(await everyWay({ action: 'setStatus', id }, 'status', ['8', '8'])).toEqual(four('BAD_STATUS'));
    expect(await send(new URLSearchParams({ api_key: key, action: 'getStatus', id }).toString())).toEqual({
      status: 200,
      body: 'STATUS_WAIT_CODE',
    });
    // The key given twice is no key.
    const q = new URLSearchParams({ action: 'getBalance', api_key: key });
    q.append('api_key', key);
    expect(await send(q.toString())).toEqual({ status: 200, body: 'BAD_KEY' });
    // Paging values that are not one number are read as absent, as other bad paging values are.
    for (const name of ['start', 'limit']) {
      const [a] = await everyWay({ action: 'getActiveActivations' }, name, ['0', '1']);
      expect(JSON.parse(a!.body), name).toMatchObject({ status: 'success' });
    }
    for (const name of ['start', 'end', 'offset', 'size']) {
      const [a] = await everyWay({ action: 'getHistory' }, name, ['0', '1']);
      expect(Array.isArray(JSON.parse(a!.body)), name).toBe(true);
    }
    // Ignored parameters stay ignored.
    const [op] = await everyWay({ action: 'getBalance' }, 'operator', ['any', 'mts']);
    expect(op).toEqual({ status: 200, body: 'ACCESS_BALANCE:8.75' });
  });

  it('a body over the limit (3 MB) is 413 in the protocol’s envelope, never ERROR_SQL', async () => {
    const big = `api_key=${key}&action=getBalance&pad=${'x'.repeat(3 * 1024 * 1024)}`;
    for (const type of ['application/x-www-form-urlencoded', 'application/json', 'text/plain']) {
      const res = await fetch(`${s.url}${HANDLER}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: big,
      });
      expect(res.status, type).toBe(413);
      expect(await res.json(), type).toEqual({
        title: 'BODY_TOO_LARGE',
        details: expect.stringMatching(/64 KB/),
      });
    }
  });
});

describe('lenientJson', () => {
  it('reads flat objects and nothing else', () => {
    expect(lenientJson('{"a":"1"}')).toEqual({ a: '1' });
    expect(lenientJson('[]')).toBeUndefined();
    expect(lenientJson('"x"')).toBeUndefined();
    expect(lenientJson('{')).toBeUndefined();
    expect(lenientJson(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`)).toBeUndefined();
  });
});
