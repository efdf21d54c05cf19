import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

// Walks every route the server registered: whatever the body, a signed-in route refuses a caller
// without a token (401), and an admin route refuses a User (403), before looking at the input.

let s: TestServer;
let userToken: string;

beforeAll(async () => {
  s = await startTestServer();
  userToken = (await s.createUser()).token;
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
  const res = await fetch(s.url + concrete(url), {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'GET' || !body ? undefined : body,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('every registered route declares its access and enforces it first', () => {
  it('has routes of each kind', () => {
    const kinds = new Set(s.routes.map((r) => r.access));
    expect(kinds).toEqual(new Set(['public', 'user', 'admin']));
    expect(s.routes.length).toBeGreaterThan(20);
  });

  it('answers 401 without a token on every signed-in route, whatever the body', async () => {
    const failures: string[] = [];
    for (const r of s.routes.filter((x) => x.access !== 'public')) {
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

  it('lets a User past the check on signed-in routes (the body is judged after)', async () => {
    const info = await send('POST', '/api/user/info', '', userToken);
    expect(info).toBe(200);
    const malformed = await send('POST', '/api/Order/create', '{"oops":', userToken);
    expect(malformed).toBe(400);
  });
});
