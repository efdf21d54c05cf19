import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext, Listener } from '../context.ts';
import { type Db, openPostgres } from '../db/db.ts';
import { waitFor } from '../test/fixtures.ts';
import { openTestDb, TEST_DB, type TestDb } from '../test/harness.ts';
import { exclusiveListener } from './exclusive.ts';

// One listener for the whole deployment (a device port): two "processes" (two database handles,
// as two server processes have) race for it; exactly one runs it, and the other takes over when
// the holder stops or its database connection dies.

const RETRY_MS = 100;
let testDb: TestDb;
const handles: Db[] = [];

beforeAll(async () => {
  testDb = await openTestDb();
});
afterAll(async () => {
  for (const h of handles) await h.close().catch(() => {});
  await testDb.drop();
});

function process_(db: Db, name: string, running: Set<string>, strict = true) {
  const logs: string[] = [];
  const ctx = {
    db,
    log: { info: () => {}, warn: (_o: unknown, msg: string) => logs.push(msg) },
  } as unknown as AppContext;
  const inner: Listener = {
    name: 'device port',
    async start() {
      if (strict && running.size > 0) throw new Error(`${name} started while ${[...running]} runs it`);
      running.add(name);
      return async () => {
        running.delete(name);
      };
    },
  };
  let holding = false;
  const listener = exclusiveListener(inner, {
    lock: 'test:device-port',
    retryMs: RETRY_MS,
    onHolding: (h) => {
      holding = h;
    },
  });
  return { ctx, listener, logs, isHolding: () => holding };
}

describe('exclusiveListener', () => {
  it('runs the listener in one process at a time; the other takes over when it stops', async () => {
    const running = new Set<string>();
    const db2 = TEST_DB === 'pg' ? await openPostgres(testDb.url!, 4) : testDb.db;
    if (db2 !== testDb.db) handles.push(db2);
    const a = process_(testDb.db, 'a', running);
    const stopA = await a.listener.start(a.ctx);
    await waitFor(async () => a.isHolding());
    const b = process_(db2, 'b', running);
    const stopB = await b.listener.start(b.ctx);
    if (TEST_DB === 'pg') {
      // b keeps trying and never runs it while a holds it.
      await new Promise((r) => setTimeout(r, RETRY_MS * 4));
      expect([...running]).toEqual(['a']);
      expect(b.isHolding()).toBe(false);
    }
    await stopA();
    await waitFor(async () => b.isHolding(), 3000);
    expect([...running]).toEqual(['b']);
    await stopB();
    expect(running.size).toBe(0);
  });

  it.runIf(TEST_DB === 'pg')(
    'when the holding connection dies, the holder stops it and another process takes over within seconds',
    async () => {
      const running = new Set<string>();
      const dbA = await openPostgres(testDb.url!, 4);
      const dbB = await openPostgres(testDb.url!, 4);
      handles.push(dbA, dbB);
      // Not strict: the old holder notices its lost connection within one check (RETRY_MS), so for
      // that moment both may run it (on one host the second bind of the port fails and is retried).
      const a = process_(dbA, 'a', running, false);
      const b = process_(dbB, 'b', running, false);
      const stopA = await a.listener.start(a.ctx);
      await waitFor(async () => a.isHolding());
      const stopB = await b.listener.start(b.ctx);
      // The holder's connection is cut, as when its process dies: the database frees the lock. Only
      // this test's database: other test files' servers hold advisory locks of their own.
      await testDb.db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      const at = Date.now();
      await waitFor(async () => b.isHolding(), 5000);
      expect(Date.now() - at).toBeLessThan(3000);
      await waitFor(async () => !a.isHolding(), 3000);
      expect([...running]).toEqual(['b']);
      expect(a.logs).toContain('lost or could not take the listener; trying again');
      await stopA();
      await stopB();
    },
  );
});
