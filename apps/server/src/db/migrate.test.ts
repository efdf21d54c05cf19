import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestDb, TEST_DB } from '../test/harness.ts';
import { type Db, openPostgres } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Advisory locks held in this test's database. Only its own: other test files run beside it on the
 * same server, each in its own database, and may hold theirs at this moment.
 */
async function advisoryLocksHere(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory'
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]!.n;
}

describe('migrations', () => {
  it('apply once, and a second run applies nothing', async () => {
    const t = await openTestDb();
    try {
      const first = await migrate(t.db);
      expect(first.length).toBeGreaterThan(3);
      expect(await migrate(t.db)).toEqual([]);
    } finally {
      await t.drop();
    }
  });

  it.runIf(TEST_DB === 'pg')(
    'serialise concurrent starters on one lock held by one connection, and release it',
    async () => {
      const t = await openTestDb();
      const other = await openPostgres(t.url!, 4);
      try {
        const [a, b] = await Promise.all([migrate(t.db), migrate(other)]);
        // Every migration applied exactly once, by one of the two.
        expect([...a, ...b].sort()).toEqual([...new Set([...a, ...b])].sort());
        expect(a.length + b.length).toBeGreaterThan(3);
        expect(await advisoryLocksHere(t.db)).toBe(0);
      } finally {
        await other.close();
        await t.drop();
      }
    },
  );

  it('roll a failing migration back and report its own error; the ones before it stay applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simdock-migrations-'));
    writeFileSync(join(dir, '001_ok.sql'), 'CREATE TABLE mig_ok (id int);');
    writeFileSync(join(dir, '002_bad.sql'), 'CREATE TABLE mig_bad (id int);\nSELECT 1 / 0;');
    const t = await openTestDb();
    try {
      await expect(migrate(t.db, dir)).rejects.toThrow(/division by zero/);
      const names = await t.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(names.map((r) => r.name)).toEqual(['001_ok.sql']);
      const tables = await t.db.query<{ ok: string | null; bad: string | null }>(
        `SELECT to_regclass('mig_ok')::text AS ok, to_regclass('mig_bad')::text AS bad`,
      );
      expect(tables[0]).toEqual({ ok: 'mig_ok', bad: null });
      // The lock is released and the database usable: once fixed, the next start applies the file.
      writeFileSync(join(dir, '002_bad.sql'), 'CREATE TABLE mig_bad (id int);');
      expect(await migrate(t.db, dir)).toEqual(['002_bad.sql']);
      if (TEST_DB === 'pg') {
        expect(await advisoryLocksHere(t.db)).toBe(0);
      }
    } finally {
      await t.drop();
    }
  });
});
