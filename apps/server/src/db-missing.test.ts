import { endpoints } from '@simdock/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServer } from './app.ts';
import { openPostgres } from './db/db.ts';
import { isDbSchemaMissing, isDbUnavailable } from './db/errors.ts';
import { openTestDb, startTestServer, TEST_DB, testConfig } from './test/harness.ts';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close().catch(() => {});
});

/** Calls the web app's API makes, signed in or not: each must answer 503 with Retry-After. */
async function expectAll503(call: (path: string, body: unknown) => Promise<Response>) {
  for (const [path, body] of [
    ['/api/Auth/login', { username: 'someone', password: 'some-password' }],
    ['/api/Auth/register', { username: 'someone', email: 's@e.co', passwordHash: 'some-pass-123' }],
    ['/api/Service/getall', {}],
  ] as const) {
    const res = await call(path, body);
    expect(res.status, path).toBe(503);
    expect(await res.json(), path).toMatchObject({ code: 0, error: 'unavailable' });
    expect(Number(res.headers.get('retry-after')), path).toBeGreaterThan(0);
  }
}

describe('SQLSTATE mapping', () => {
  it('reads missing databases, refused roles and undefined tables/columns', () => {
    for (const code of ['08006', '08001', '57P01', '57P02', '57P03', '3D000', '28000', '28P01', '53300'])
      expect(isDbUnavailable({ code }), code).toBe(true);
    for (const code of ['42P01', '42703']) {
      expect(isDbSchemaMissing({ code }), code).toBe(true);
      expect(isDbUnavailable({ code }), code).toBe(false);
    }
    expect(isDbUnavailable({ code: '23505' })).toBe(false);
    expect(isDbSchemaMissing({ code: '23505' })).toBe(false);
  });
});

describe('a database whose schema is missing or behind', () => {
  it('answers 503 with Retry-After when every table is gone (schema missing)', async () => {
    const s = await startTestServer();
    running.push(s);
    // The server's own loops (the GoIP port's held sends, every second) read tables meanwhile: a
    // drop that meets one of them in a deadlock is tried again, as an operator would.
    for (let tries = 1; ; tries++) {
      try {
        await s.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || tries >= 5) throw err;
      }
    }
    const ready = await s.call('GET', '/readyz');
    expect(ready.status).toBe(503);
    await expectAll503((path, body) =>
      fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  });

  it('answers 503 for a dropped table while its migration is pending, 500 while the schema claims it', async () => {
    const s = await startTestServer();
    running.push(s);
    await s.db.exec('DROP TABLE services CASCADE');
    // The schema says it is up to date: a missing table is then a bug, not an outage.
    expect((await s.api(endpoints.service.getAll)).status).toBe(500);
    await s.db.query('DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations)');
    const res = await fetch(`${s.url}/api/Service/getall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe.runIf(TEST_DB === 'pg')('PostgreSQL refusing the connection', () => {
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const dbs: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.close().catch(() => {});
  });

  /**
   * The real app built on a working test database, whose requests then use a pool on `url` (a
   * server started against a wrong URL would fail at start, before any request).
   */
  async function appOn(url: URL) {
    const t = await openTestDb({ migrated: true });
    running.push({ close: () => t.drop() });
    const db = await openPostgres(url.toString(), 2);
    dbs.push(db);
    const { app, ctx } = await createServer({ config: testConfig(), db: t.db });
    running.unshift({ close: () => app.close() });
    await app.ready();
    ctx.db = db;
    return (path: string, body: unknown) =>
      app
        .inject({ method: 'POST', url: path, payload: body as Record<string, unknown> })
        .then(
          (r) => new Response(r.body, { status: r.statusCode, headers: r.headers as Record<string, string> }),
        );
  }

  it('a database that does not exist (3D000)', async () => {
    const url = new URL(base);
    url.pathname = '/simdock_no_such_database';
    await expectAll503(await appOn(url));
  });

  it('a role the server does not know (28000)', async () => {
    const url = new URL(base);
    url.username = 'simdock_no_such_role';
    url.password = '';
    await expectAll503(await appOn(url));
  });
});
