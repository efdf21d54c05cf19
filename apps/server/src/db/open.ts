import { join } from 'node:path';
import type { Config } from '../config.ts';
import { type Db, openPglite, openPostgres } from './db.ts';

/** DATABASE_URL selects a PostgreSQL server; otherwise embedded PGlite keeps data in DATA_DIR. */
export function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Db> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL)
    : openPglite(join(config.DATA_DIR, 'pgdata'));
}
