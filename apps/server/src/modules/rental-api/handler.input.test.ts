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
  key = (await s.post('/api/user/reset-key', {}, u.token, await s.reauth(u))).body.apiKey;
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

describe('lenientJson', () => {
  it('reads flat objects and nothing else', () => {
    expect(lenientJson('{"a":"1"}')).toEqual({ a: '1' });
    expect(lenientJson('[]')).toBeUndefined();
    expect(lenientJson('"x"')).toBeUndefined();
    expect(lenientJson('{')).toBeUndefined();
    expect(lenientJson(`${'{"a":'.repeat(20)}1${'}'.repeat(20)}`)).toBeUndefined();
  });
});
