import type { Db } from '../db/db.ts';
import { pendingMigrations } from '../db/migrate.ts';

/** Why the server is not ready, or undefined when it is: the database answers and is fully migrated. */
export async function readinessProblem(db: Pick<Db, 'query'>): Promise<string | undefined> {
  let pending: string[];
  try {
    pending = await pendingMigrations(db);
  } catch {
    return 'Database is not reachable.';
  }
  if (pending.length === 0) return undefined;
  return `Database schema is not up to date: ${pending.length} migration(s) pending (${pending.join(', ')}).`;
}
