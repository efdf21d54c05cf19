import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works; it only serialises concurrent starters on one PostgreSQL server.
const MIGRATION_LOCK = 734_221_901;

const migrationFiles = (dir = MIGRATIONS_DIR) =>
  readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort();

/** Migration files not yet applied to this database (all of them before the first migration). */
export async function pendingMigrations(db: Pick<Db, 'query'>): Promise<string[]> {
  const [table] = await db.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!table?.t) return migrationFiles();
  const done = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  return migrationFiles().filter((f) => !done.has(f));
}

/**
 * Applies every migrations/NNN_*.sql not yet applied, in order, each in its own transaction. A
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
      const done = new Set(
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
