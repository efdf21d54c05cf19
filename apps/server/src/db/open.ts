import { join } from 'node:path';
import type { KernelConfig } from '../config.ts';
import { type Db, openPglite, openPostgres } from './db.ts';

/** DATABASE_URL selects a PostgreSQL server; otherwise embedded PGlite keeps data in DATA_DIR. */
export async function openDatabase(
  config: Pick<KernelConfig, 'DATABASE_URL' | 'DATA_DIR'> &
    Partial<Pick<KernelConfig, 'DATABASE_HEAVY_POOL_SIZE'>>,
): Promise<Db> {
  const url = config.DATABASE_URL;
  if (!url) return openPglite(join(config.DATA_DIR, 'pgdata'));
  const db = await openPostgres(url, 10, config.DATABASE_HEAVY_POOL_SIZE);
  // Fail at start, with the reason, rather than on the first request.
  try {
    await db.query('SELECT 1');
  } catch (err) {
    await db.close().catch(() => {});
    throw new Error(`${(err as Error).message} (PostgreSQL at ${new URL(url).host})`);
  }
  return db;
}
