import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, startTestServer, type TestDb, type TestServer } from '../test/harness.ts';
import { openSse } from '../test/sse.ts';

describe('readiness', () => {
  let s: TestServer;
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
    s = await startTestServer({ testDb });
  });
  afterAll(async () => {
    // The database was closed on purpose: stopping may complain about it.
    await s.stop().catch(() => {});
    await testDb.drop().catch(() => {});
  });

  it('is ready while the database answers and 503 once it does not; healthz stays up', async () => {
    expect((await s.call('GET', '/readyz')).status).toBe(200);
    await s.db.close();
    const res = await s.call('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 0, error: 'unavailable' });
    expect((await s.call('GET', '/healthz')).status).toBe(200);
  });
});

describe('the web app', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('serves Swagger UI at /swagger', async () => {
    const res = await fetch(`${s.url}/swagger`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/swagger/i);
  });

  it("Swagger UI carries SimDock's name and icon, and its top bar links back to the app", async () => {
    const res = await fetch(`${s.url}/swagger`, { redirect: 'follow' });
    const html = await res.text();
    expect(html).toContain('<title>SimDock API</title>');
    const asset = async (name: string) => {
      const src = new RegExp(`(?:src|href)="([^"]*/theme/${name})"`).exec(html)?.[1];
      expect(src, name).toBeDefined();
      const file = await fetch(new URL(src!, res.url));
      expect(file.status, name).toBe(200);
      return file.text();
    };
    const brand = await asset('simdock\\.js');
    expect(brand).toContain("link.setAttribute('href', '/')");
    expect(brand).toContain('Back to SimDock');
    expect(await asset('simdock\\.svg')).toContain('<title>SimDock</title>');
    await asset('simdock\\.css');
  });

  it('echoes the request id it was given, or makes one', async () => {
    const given = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${s.url}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('shutdown', () => {
  it('ends open live streams instead of waiting for them', async () => {
    const t = await startTestServer();
    const u = await t.createUser();
    const stream = await openSse(`${t.url}/api/Order/stream`, u.token);
    try {
      // Without closing the stream first: the server must still stop.
      await t.close();
    } finally {
      stream.close();
    }
  });
});
