// Retention jobs delete in bounded batches, each its own short statement, so no lock is held long
// and a backlog (an upgrade onto months of data) drains over several ticks instead of one long
// transaction (docs/operations.md, "Data retention").

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
