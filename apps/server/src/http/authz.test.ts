import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

// Walks every route the server registered: whatever the body, a signed-in route refuses a caller
// without a token (401), and an admin route refuses a User (403), before looking at the input.

let s: TestServer;
let userToken: string;
let apiKey: string;

beforeAll(async () => {
  s = await startTestServer();
  const user = await s.createUser();
  userToken = user.token;
  apiKey = (await s.api(endpoints.apikey.reset, { token: userToken, headers: await s.reauth(user) })).body
    .apiKey;
});
afterAll(async () => {
  await s.close();
});

/** Fills path parameters so the route matches. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_m, name) => `x-${name}`);

const BODIES: [string, string][] = [
  ['no body', ''],
  ['malformed JSON', '{"oops":'],
  ['a wrong shape', JSON.stringify({ gateway: 5, service: [], serviceCode: { $ne: 1 } })],
];

async function send(method: string, url: string, body: string, token?: string) {
  return (await sendRaw(method, url, body, token)).status;
}

async function sendRaw(method: string, url: string, body: string, token?: string) {
  const res = await fetch(s.url + concrete(url), {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'GET' || !body ? undefined : body,
  });
  return { status: res.status, text: await res.text() };
}

describe('every registered route declares its access and enforces it first', () => {
  it('has routes of each kind', () => {
    const kinds = new Set(s.routes.map((r) => r.access));
    expect(kinds).toEqual(new Set(['public', 'user', 'admin', 'apikey']));
    expect(s.routes.length).toBeGreaterThan(20);
  });

  it('answers 401 without a token on every signed-in route, whatever the body', async () => {
    const failures: string[] = [];
    for (const r of s.routes.filter((x) => x.access !== 'public' && x.keyIn !== 'param')) {
      for (const [what, body] of BODIES) {
        const status = await send(r.method, r.url, body);
        if (status !== 401) failures.push(`${r.method} ${r.url} (${what}): ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 to a User on every admin route, whatever the body', async () => {
    const failures: string[] = [];
    for (const r of s.routes.filter((x) => x.access === 'admin')) {
      for (const [what, body] of BODIES) {
        const status = await send(r.method, r.url, body, userToken);
        if (status !== 403) failures.push(`${r.method} ${r.url} (${what}): ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps sessions and API keys apart: a session token is no API key, an API key is no session', async () => {
    const failures: string[] = [];
    for (const r of s.routes.filter((x) => x.access === 'apikey' && x.keyIn === 'bearer')) {
      const status = await send(r.method, r.url, '', userToken);
      if (status !== 401) failures.push(`${r.method} ${r.url} with a session token: ${status}`);
    }
    for (const r of s.routes.filter((x) => x.access === 'user' || x.access === 'admin')) {
      const status = await send(r.method, r.url, '', apiKey);
      if (status !== 401) failures.push(`${r.method} ${r.url} with an API key: ${status}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers the SMS-Activate handler’s NO_KEY / BAD_KEY (HTTP 200, its protocol) before any action', async () => {
    const handler = s.routes.filter((x) => x.keyIn === 'param');
    expect(handler.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /stubs/handler_api.php',
      'POST /stubs/handler_api.php',
    ]);
    const failures: string[] = [];
    for (const r of handler) {
      for (const [what, body] of BODIES) {
        const none = await sendRaw(r.method, `${r.url}?action=getNumber&service=fuzz`, body);
        // The key is checked first, whatever the body (an unreadable one carries no parameters).
        if (none.status !== 200 || none.text !== 'NO_KEY') {
          failures.push(`${r.method} ${r.url} (${what}) without a key: ${none.status} ${none.text}`);
        }
        const bad = await sendRaw(r.method, `${r.url}?api_key=${userToken}&action=getBalance`, body);
        if (bad.status !== 200 || bad.text !== 'BAD_KEY') {
          failures.push(
            `${r.method} ${r.url} (${what}) with a session token as key: ${bad.status} ${bad.text}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a User past the check on signed-in routes (the body is judged after)', async () => {
    const info = await send('POST', '/api/user/info', '', userToken);
    expect(info).toBe(200);
    const malformed = await send('POST', '/api/Order/create', '{"oops":', userToken);
    expect(malformed).toBe(400);
  });
});
