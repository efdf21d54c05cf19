import { once } from 'node:events';
import { createServer, type Server, Socket } from 'node:net';
import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/db.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { openTestDb, startTestServer, TEST_DB, type TestDb, type TestServer } from '../test/harness.ts';

describe('readiness and an unavailable database', () => {
  let s: TestServer;
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
    s = await startTestServer({ testDb });
  });
  afterAll(async () => {
    await s.stop().catch(() => {});
    await testDb.drop().catch(() => {});
  });

  it('is ready only when every migration is applied', async () => {
    expect(await pendingMigrations(s.db)).toEqual([]);
    expect((await s.call('GET', '/readyz')).status).toBe(200);
    const [last] = await s.db.query<{ name: string }>('SELECT max(name) AS name FROM schema_migrations');
    await s.db.query('DELETE FROM schema_migrations WHERE name = $1', [last!.name]);
    const res = await s.call('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 0, error: 'unavailable' });
    expect(res.body.msg).toContain(last!.name);
    await s.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last!.name]);
    expect((await s.call('GET', '/readyz')).status).toBe(200);
  });

  it('answers API calls with 503 (not 500) once the database is gone', async () => {
    const u = await s.createUser();
    await s.db.close();
    for (const [path, token] of [
      ['/api/Service/getall', undefined],
      ['/api/user/info', u.token],
      ['/api/Auth/login', undefined],
    ] as const) {
      const res = await s.post(path, path.endsWith('login') ? { username: 'x', password: 'y' } : {}, token);
      expect(res.status, path).toBe(503);
      expect(res.body, path).toMatchObject({ code: 0, error: 'unavailable' });
    }
    expect((await s.call('GET', '/readyz')).status).toBe(503);
    expect((await s.call('GET', '/healthz')).status).toBe(200);
  });
});

/** A TCP proxy to PostgreSQL that can be cut and restored, on one fixed port. */
async function pgProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = async () => {
    server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(target.port || 5432), target.hostname);
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
        sock.on('error', () => sock.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  };
  const down = async () => {
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => server?.close(() => r()));
  };
  await up();
  return { port: () => port, up, down };
}

describe.runIf(TEST_DB === 'pg')('PostgreSQL going away and coming back', () => {
  it('survives the server ending every connection (what a restart does): 503 at worst, never 500, then serves', async () => {
    const testDb = await openTestDb();
    const s = await startTestServer({ testDb });
    try {
      const u = await s.createUser({ balance: 5 });
      expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(200);
      const admin = await openPostgres(testDb.url!, 1);
      try {
        for (let round = 0; round < 3; round++) {
          // FATAL 57P01 "terminating connection due to administrator command" on every pooled connection.
          const [killed] = await admin.query<{ n: number }>(
            'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          );
          expect(killed!.n).toBeGreaterThan(0);
          const statuses = await Promise.all(
            Array.from({ length: 6 }, () =>
              s.api(endpoints.user.info, { token: u.token }).then((r) => r.status),
            ),
          );
          expect(
            statuses.every((st) => st === 200 || st === 503),
            statuses.join(),
          ).toBe(true);
          await expect
            .poll(async () => (await s.api(endpoints.user.info, { token: u.token })).status)
            .toBe(200);
        }
      } finally {
        await admin.close();
      }
      expect((await s.call('GET', '/readyz')).status).toBe(200);
      expect((await s.api(endpoints.user.info, { token: u.token })).body.balance).toBe(5);
    } finally {
      await s.close();
    }
  });

  it('answers 503 while it is unreachable and recovers by itself', async () => {
    const base = await openTestDb();
    const proxy = await pgProxy(new URL(base.url!));
    const url = new URL(base.url!);
    url.host = `127.0.0.1:${proxy.port()}`;
    const db = await openPostgres(url.toString(), 5);
    const s = await startTestServer({
      testDb: {
        db,
        url: url.toString(),
        drop: async () => {
          await db.close().catch(() => {});
          await base.drop();
        },
      },
    });
    try {
      expect((await s.api(endpoints.service.getAll)).status).toBe(200);
      await proxy.down();
      const res = await s.api(endpoints.service.getAll);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 0, error: 'unavailable' });
      expect((await s.call('GET', '/readyz')).status).toBe(503);
      await proxy.up();
      expect((await s.api(endpoints.service.getAll)).status).toBe(200);
      expect((await s.call('GET', '/readyz')).status).toBe(200);
    } finally {
      await s.close();
      await proxy.down();
    }
  });
});
