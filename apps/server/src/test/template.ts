// Test databases start from a copy of a template instead of being built from nothing: creating a
// PGlite database runs initdb (about 2 s of CPU), and every test file's server then ran all the
// migrations again. The templates are built once per migration set and shared by all test files and
// workers (on disk for PGlite, as a template database on the PostgreSQL server), each built under a
// lock or an atomic rename so that concurrent test files never see half of one. The migrations
// themselves keep a test that runs them from empty on both databases (src/db/migrate.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Db, openPglite, openPostgres } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../db/migrations');

/** What a template depends on: the migration files (names and contents) and the PGlite build. */
function fingerprint(kind: 'pglite' | 'pg'): string {
  const h = createHash('sha256').update(kind);
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) {
    h.update(f)
      .update('\0')
      .update(readFileSync(join(MIGRATIONS_DIR, f)))
      .update('\0');
  }
  if (kind === 'pglite') {
    // The data directory's format belongs to the PGlite release.
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    h.update(readFileSync(join(dirname(entry), '../package.json')));
  }
  return h.digest('hex').slice(0, 16);
}

// ---------------------------------------------------------------------------------------------
// PGlite: a data directory built once (initdb, then the migrations), copied for each database.
// The copies live in memory-backed /dev/shm where there is one.

const PGLITE_ROOT = join(
  existsSync('/dev/shm') && statSync('/dev/shm').isDirectory() ? '/dev/shm' : tmpdir(),
  'simdock-test-pglite',
);
/** An older template no test run has started from for this long is removed. */
const STALE_TEMPLATE_MS = 60 * 60 * 1000;

let pgliteFingerprint: string | undefined;

/** The template's directory, built if missing (by whichever test file gets there first). */
async function pgliteTemplate(migrated: boolean): Promise<string> {
  pgliteFingerprint ??= fingerprint('pglite');
  const dir = join(PGLITE_ROOT, `tpl-${migrated ? pgliteFingerprint : `${pgliteFingerprint}-empty`}`);
  if (existsSync(join(dir, 'PG_VERSION'))) {
    // Its age says when a test run last started from it (see cleanPglite).
    const now = new Date();
    try {
      utimesSync(dir, now, now);
    } catch {}
    return dir;
  }
  mkdirSync(PGLITE_ROOT, { recursive: true });
  const building = mkdtempSync(join(PGLITE_ROOT, `building-${process.pid}-`));
  try {
    const db = await openPglite(building);
    try {
      if (migrated) await migrate(db);
    } finally {
      await db.close();
    }
    try {
      renameSync(building, dir);
    } catch (err) {
      // Another test file finished the same template first: use theirs.
      if (!existsSync(join(dir, 'PG_VERSION'))) throw err;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** Whether the process `pid` still runs (a copy named after it is in use). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let cleaned = false;

/**
 * Removes what test runs that ended without cleaning up left behind (an interrupted run: the copies
 * are named after the process that made them) and templates of earlier migration sets.
 */
function cleanPglite() {
  if (cleaned) return;
  cleaned = true;
  for (const name of readdirSync(PGLITE_ROOT)) {
    const path = join(PGLITE_ROOT, name);
    try {
      const owner = /^(?:db|building)-(\d+)-/.exec(name);
      const oldTemplate =
        name.startsWith('tpl-') &&
        !name.startsWith(`tpl-${pgliteFingerprint}`) &&
        Date.now() - statSync(path).mtimeMs > STALE_TEMPLATE_MS;
      if ((owner && !alive(Number(owner[1]))) || oldTemplate) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another test file meanwhile.
    }
  }
}

/** A PGlite database of its own: a copy of the template in a new directory, removed by `drop`. */
export async function openPgliteFromTemplate(migrated: boolean): Promise<{ db: Db; drop(): Promise<void> }> {
  const template = await pgliteTemplate(migrated);
  cleanPglite();
  const dir = mkdtempSync(join(PGLITE_ROOT, `db-${process.pid}-`));
  cpSync(template, dir, { recursive: true });
  let db: Db;
  try {
    db = await openPglite(dir);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    db,
    async drop() {
      await db.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: one migrated template database per migration set; each test database is
// CREATE DATABASE … TEMPLATE it (a file copy on the server, no migrations run).

/** Serialises the template's building across test files (on the admin database). */
const TEMPLATE_LOCK = 734_221_902;
const templateNames = new Map<string, Promise<string>>();

/** The migrated template database's name on the server of `adminUrl`, built if missing. */
export function pgTemplate(adminUrl: string): Promise<string> {
  let name = templateNames.get(adminUrl);
  if (!name) {
    name = buildPgTemplate(adminUrl);
    templateNames.set(adminUrl, name);
    name.catch(() => templateNames.delete(adminUrl));
  }
  return name;
}

/** After the template was found missing: the next pgTemplate builds it again. */
export function forgetPgTemplate(adminUrl: string): void {
  templateNames.delete(adminUrl);
}

async function buildPgTemplate(adminUrl: string): Promise<string> {
  const name = `simdock_tpl_${fingerprint('pg')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const exists = async (db: string) =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
    if (!(await exists(name))) {
      // Built under another name and renamed when complete: a run killed halfway leaves no
      // half-migrated template behind.
      const building = `simdock_tplb_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const db = await openPostgres(url.toString(), 1);
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (err) {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`).catch(() => {});
        throw err;
      }
      // Templates of earlier migration sets, and builds that died, are no longer wanted.
      const old = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database
          WHERE (datname LIKE 'simdock\\_tpl\\_%' OR datname LIKE 'simdock\\_tplb\\_%') AND datname <> $1`,
        [name],
      );
      for (const { datname } of old.rows) {
        await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
      }
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
    await admin.end();
  }
}
