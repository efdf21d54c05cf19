import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { MAX_URL_LENGTH } from './framework-errors.ts';

// Input that used to reach the wrong place: URLs the router or the parser refuses answer in the
// app's error shape with its security headers (never the URL echoed back), and a deeply nested
// device push is a 400, not a stack overflow.

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request written byte for byte (fetch would normalise or refuse these URLs itself). */
function rawRequest(requestLine: string, extra = ''): Promise<RawAnswer> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (c) => {
      data += c.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [status = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(status.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${requestLine}\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`);
  });
}

function expectAppError(r: RawAnswer, status: number, secretText?: string) {
  expect(r.status).toBe(status);
  expect(JSON.parse(r.body)).toMatchObject({ code: 0, error: 'bad_input' });
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['content-security-policy']).toBeTruthy();
  expect(r.headers['x-frame-options']).toBe('DENY');
  if (secretText) expect(r.body).not.toContain(secretText);
}

describe('URLs the framework refuses', () => {
  it.each([
    ['GET /api/user/%E0%A4%A HTTP/1.1', '%E0%A4%A'],
    ['POST /api/gw/%ZZsecret/x/status HTTP/1.1', '%ZZsecret'],
    ['GET /api/Payments/history%?page=1 HTTP/1.1', 'history%'],
  ])('%s: 400 in the app shape with security headers, URL not echoed', async (line, echo) => {
    expectAppError(await rawRequest(line), 400, echo);
  });

  it('an over-long path parameter is a 4xx in the app shape, not echoed', async () => {
    const r = await rawRequest(
      `POST /api/gw/${'a'.repeat(500)}/secret/status HTTP/1.1`,
      'Content-Length: 0\r\n',
    );
    expect([404, 414]).toContain(r.status);
    expect(JSON.parse(r.body)).toMatchObject({ code: 0 });
    expect(r.body).not.toContain('a'.repeat(200));
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an over-long URL is 414 before any authorization, in the app shape', async () => {
    const r = await rawRequest(`GET /api/user/info?q=${'x'.repeat(MAX_URL_LENGTH)} HTTP/1.1`);
    expectAppError(r, 414, 'x'.repeat(200));
  });

  it('a request line past the parser’s limit is 414; headers past it are 431, both in the app shape', async () => {
    expectAppError(await rawRequest(`GET /api/user/info?q=${'x'.repeat(40_000)} HTTP/1.1`), 414, 'xxxxxxxx');
    expectAppError(await rawRequest('GET /api/user/info HTTP/1.1', `X-Big: ${'y'.repeat(40_000)}\r\n`), 431);
  });
});

describe('device pushes nested too deeply', () => {
  it('100,000 nested arrays posted as a status push answer 400, and the server keeps serving', async () => {
    const gw = await seedGateway(s.db, { lastUpdate: s.clock.now(), sims: 1 });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const type of ['application/json', 'text/plain']) {
      const res = await fetch(`${s.url}/api/gw/${gw.id}/secret/status`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: deep,
      });
      expect(res.status, type).toBe(400);
      expect(await res.json()).toMatchObject({ code: 0 });
    }
    const obj = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const res = await fetch(`${s.url}/api/gw/${gw.id}/secret/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: obj,
    });
    expect(res.status).toBe(400);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});

describe('NUL never reaches PostgreSQL through the admin filters', () => {
  it('Admin/audit actor and Admin/getUser search with a NUL answer 400 bad_input', async () => {
    const admin = await s.adminToken();
    const logged = s.logs.length;
    for (const [path, body] of [
      ['/api/Admin/audit', { actor: 'ad\u0000min' }],
      ['/api/Admin/getUser', { search: 'b\u0000ob' }],
    ] as const) {
      const res = await s.post(path, body, admin);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 0, error: 'bad_input' });
    }
    expect(s.logs.slice(logged).some((l) => l.includes('database refused a value'))).toBe(false);
  });
});
