import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openTestDb, TEST_DB } from '../test/harness.ts';
import { type Db, openPostgres } from './db.ts';
import {
  migrate,
  migrationFiles,
  migrationNumber,
  pendingMigrations,
  RENAMED_MIGRATIONS,
} from './migrate.ts';

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

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

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

  it('every migration file has a number no other file has', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
    // Every .sql file is a migration (a misnamed one would silently never run).
    expect(files.filter((f) => migrationNumber(f) === undefined)).toEqual([]);
    const numbers = files.map(migrationNumber);
    expect(files.filter((f, i) => numbers.indexOf(migrationNumber(f)) !== i)).toEqual([]);
    // The renamed files exist under their new names only.
    for (const [old, now] of Object.entries(RENAMED_MIGRATIONS)) {
      expect(files).toContain(now);
      expect(files).not.toContain(old);
    }
  });

  it('a database migrated under the old names of renamed files upgrades with nothing re-run or missing', async () => {
    // The migrations as releases before the rename had them: two files under their old names.
    const oldNames: Record<string, string> = {
      '005a_users_audit.sql': '005_users_audit.sql',
      '021a_second_factor.sql': '021_second_factor.sql',
    };
    const old = mkdtempSync(join(tmpdir(), 'simdock-old-migrations-'));
    const current = migrationFiles();
    for (const f of current) copyFileSync(join(MIGRATIONS_DIR, f), join(old, oldNames[f] ?? f));
    // An install that upgraded between the two renamed files: the files before 021_device_tokens.
    const cut = current.indexOf('021_device_tokens.sql');
    const older = mkdtempSync(join(tmpdir(), 'simdock-older-migrations-'));
    for (const f of current.slice(0, cut))
      copyFileSync(join(MIGRATIONS_DIR, f), join(older, oldNames[f] ?? f));

    const t = await openTestDb();
    const u = await openTestDb();
    try {
      // The last release before the rename: every file, under the old names.
      expect(await migrate(t.db, old)).toContain('021_second_factor.sql');
      // This release: nothing pending, nothing re-run (a re-run would fail: its tables exist).
      expect(await pendingMigrations(t.db)).toEqual([]);
      expect(await migrate(t.db)).toEqual([]);

      // The half-way install: exactly the rest applies, in order, once (005a is not among them).
      expect(await migrate(u.db, older)).toContain('005_users_audit.sql');
      const rest = current.slice(cut);
      expect(rest).toContain('021a_second_factor.sql');
      expect(await pendingMigrations(u.db)).toEqual(rest);
      expect(await migrate(u.db)).toEqual(rest);
      expect(await pendingMigrations(u.db)).toEqual([]);
    } finally {
      await t.drop();
      await u.drop();
    }
  });

  it("maps the box's SIM state codes of existing rows onto the platform's states, with the box's words", async () => {
    const before = mkdtempSync(join(tmpdir(), 'simdock-sim-states-'));
    const current = migrationFiles();
    const cut = current.indexOf('035_platform_sim_states.sql');
    expect(cut).toBeGreaterThan(0);
    for (const f of current.slice(0, cut)) copyFileSync(join(MIGRATIONS_DIR, f), join(before, f));
    const t = await openTestDb();
    try {
      await migrate(t.db, before);
      const [box] = await t.db.query<{ id: string }>(
        `INSERT INTO gateways (name, url, mac, user_name, password_enc, push_secret, driver, external_id)
         VALUES ('box', 'http://127.0.0.1:9', 'aa:bb:cc:dd:ee:01', 'root', 'x', 's1', 'ejoin', 'aa:bb:cc:dd:ee:01')
         RETURNING id`,
      );
      const [phone] = await t.db.query<{ id: string }>(
        `INSERT INTO gateways (name, url, user_name, password_enc, push_secret, driver, external_id)
         VALUES ('phone', 'http://127.0.0.1:9', 'u', 'x', 's2', 'smsgate', 'p1') RETURNING id`,
      );
      const codes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
      for (const st of codes)
        await t.db.query('INSERT INTO sims (gateway_id, port, state) VALUES ($1, $2, $3)', [
          box!.id,
          `${st + 1}.01`,
          st,
        ]);
      await t.db.query(`INSERT INTO sims (gateway_id, port, state) VALUES ($1, '1', 3)`, [phone!.id]);

      await migrate(t.db);
      const rows = await t.db.query<{ port: string; state: string; device_state: string | null }>(
        'SELECT port, state, device_state FROM sims WHERE gateway_id = $1 ORDER BY length(port), port',
        [box!.id],
      );
      expect(rows.map((r) => [Number.parseInt(r.port, 10) - 1, r.state, r.device_state])).toEqual([
        [0, 'empty', 'No SIM'],
        [1, 'starting', 'Idle SIM'],
        [2, 'starting', 'Registering'],
        [3, 'ready', 'Registered'],
        [4, 'busy', 'Call connected'],
        [5, 'blocked', 'No balance / alarm'],
        [6, 'blocked', 'Registration failed'],
        [7, 'blocked', 'Locked by device'],
        [8, 'blocked', 'Locked by operator'],
        [9, 'blocked', 'SIM error'],
        [10, 'unknown', 'State 10'],
        [11, 'starting', 'Card detected'],
        [12, 'blocked', 'User locked'],
        [13, 'unknown', 'Inter-calling'],
        [14, 'unknown', 'Inter-calling hold'],
        [15, 'busy', 'Accessing mobile network'],
        [16, 'unknown', 'Module timeout'],
      ]);
      // A phone gave no words of its own: its state's name stands.
      expect(
        await t.db.query('SELECT state, device_state FROM sims WHERE gateway_id = $1', [phone!.id]),
      ).toEqual([{ state: 'ready', device_state: null }]);
      // A new row starts empty; a word the platform does not have is refused.
      await t.db.query(`INSERT INTO sims (gateway_id, port) VALUES ($1, '2')`, [phone!.id]);
      expect(
        await t.db.query(`SELECT state FROM sims WHERE gateway_id = $1 AND port = '2'`, [phone!.id]),
      ).toEqual([{ state: 'empty' }]);
      await expect(
        t.db.query(`UPDATE sims SET state = '3' WHERE gateway_id = $1 AND port = '2'`, [phone!.id]),
      ).rejects.toThrow(/sims_state_known/);
    } finally {
      await t.drop();
    }
  });
});
