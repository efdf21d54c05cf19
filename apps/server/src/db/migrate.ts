import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only serialises concurrent starters on one PostgreSQL server.
const MIGRATION_LOCK = 734_221_901;

/**
 * A migration file: `NNN_name.sql`, applied in file-name order. Its number (`NNN`, or `NNNa` for the
 * renamed files below) is unique (src/db/migrate.test.ts); a new migration takes the next free `NNN`.
 */
const MIGRATION_FILE = /^(\d+[a-z]?)_.+\.sql$/;

/** The number of a migration file (what must be unique), or undefined for a file that is not one. */
export const migrationNumber = (file: string): string | undefined => MIGRATION_FILE.exec(file)?.[1];

/** The migration files of `dir`, in the order they apply. */
export const migrationFiles = (dir = MIGRATIONS_DIR): string[] =>
  readdirSync(dir)
    .filter((f) => MIGRATION_FILE.test(f))
    .sort();

/**
 * Migrations renamed after releases had applied them under their old names (each shared its number
 * with another file). A database that recorded the old name has applied the file: it is neither run
 * again nor missing. The old row stays as it is, so an older release started on the same database
 * finds its name too. The new names keep each file's place in the order (`005a` after
 * `005_idempotency`, before `006`): every number up to the newest was taken.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '005_users_audit.sql': '005a_users_audit.sql',
  '021_second_factor.sql': '021a_second_factor.sql',
};

/** The files a database has applied, from the names in its schema_migrations (old names mapped). */
function appliedFiles(names: string[]): Set<string> {
  const done = new Set(names);
  for (const [old, now] of Object.entries(RENAMED_MIGRATIONS)) if (done.has(old)) done.add(now);
  return done;
}

/** Migration files not yet applied to this database (all of them before the first migration). */
export async function pendingMigrations(db: Pick<Db, 'query'>, dir = MIGRATIONS_DIR): Promise<string[]> {
  const [table] = await db.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!table?.t) return migrationFiles(dir);
  const done = appliedFiles(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  return migrationFiles(dir).filter((f) => !done.has(f));
}

/**
 * Applies every migrations/NNN_*.sql not yet applied (see RENAMED_MIGRATIONS), in order, each in its own transaction. A
 * failing file is rolled back and its error thrown; the files before it stay applied.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = migrationFiles(dir);
  // The lock, the migrations and the unlock run on one connection: a session advisory lock taken
  // on one pooled connection and released on another would never be released.
  return db.session(async (c) => {
    const applied: string[] = [];
    await c.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await c.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = appliedFiles(
        (await c.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
      );
      for (const file of files) {
        if (done.has(file)) continue;
        const sql = readFileSync(join(dir, file), 'utf8');
        try {
          await c.exec(
            `BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`,
          );
        } catch (err) {
          // The failed statement leaves the session in an aborted transaction: end it, or the unlock
          // below fails too and its "transaction is aborted" hides the migration's own error.
          await c.query('ROLLBACK').catch(() => {});
          throw err;
        }
        applied.push(file);
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
    return applied;
  });
}
