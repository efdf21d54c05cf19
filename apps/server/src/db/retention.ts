// Retention jobs delete in bounded batches, each its own short statement, so no lock is held long
// and a backlog (an upgrade onto months of data) drains over several ticks instead of one long
// transaction (docs/operations.md, "Data retention").
import type { Queryable } from './db.ts';

/** Rows one retention statement deletes at most. */
export const RETENTION_BATCH = 5000;
/** Time one tick of a retention job may spend before it leaves the rest to the next tick. */
export const RETENTION_TICK_BUDGET_MS = 10_000;

/** Cutoff `days` before `now`; null when `days` is 0 (keep forever). */
export function cutoffDays(now: Date, days: number): Date | null {
  return days > 0 ? new Date(now.getTime() - days * 86_400_000) : null;
}

/**
 * Runs `deleteBatch` (which deletes at most `batch` rows and answers how many) until a batch
 * comes back short or the tick's time budget is spent; answers the rows deleted.
 */
export async function drainInBatches(
  deleteBatch: (batch: number) => Promise<number>,
  opts: { batch?: number; budgetMs?: number; now?: () => number } = {},
): Promise<number> {
  const batch = opts.batch ?? RETENTION_BATCH;
  const budget = opts.budgetMs ?? RETENTION_TICK_BUDGET_MS;
  const clock = opts.now ?? Date.now;
  const started = clock();
  let total = 0;
  for (;;) {
    const n = await deleteBatch(batch);
    total += n;
    if (n < batch || clock() - started >= budget) return total;
  }
}

/**
 * One batch of a retention: deletes at most `limit` rows of `table` whose `column` is before
 * `before` (and that match `also`, SQL over the table's own columns), answers how many. The table
 * and columns are the caller's constants, never input.
 */
export async function deleteOlderThan(
  q: Queryable,
  spec: { table: string; column: string; also?: string },
  before: Date,
  limit: number,
): Promise<number> {
  const also = spec.also ? ` AND (${spec.also})` : '';
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM ${spec.table} WHERE id IN (
         SELECT id FROM ${spec.table} WHERE ${spec.column} < $1${also} LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
