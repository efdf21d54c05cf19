import { describe, expect, it } from 'vitest';
import { openTestDb, TEST_DB } from '../test/harness.ts';
import { openPostgres } from './db.ts';
import { migrate } from './migrate.ts';

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
        const locks = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`,
        );
        expect(locks[0]!.n).toBe(0);
      } finally {
        await other.close();
        await t.drop();
      }
    },
  );
});
