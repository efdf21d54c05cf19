import type { Queryable } from '../../db/db.ts';

/** Failures counted in the current window for a throttle key (0 if the window has passed). */
export async function currentFailures(q: Queryable, key: string, windowStart: Date): Promise<number> {
  const rows = await q.query<{ failures: number }>(
    'SELECT failures FROM auth_throttle WHERE key = $1 AND window_start > $2',
    [key, windowStart],
  );
  return rows[0]?.failures ?? 0;
}

/** Counts one failure; a stale window restarts at 1. One round trip, safe across processes. */
export async function recordFailure(q: Queryable, key: string, now: Date, windowStart: Date): Promise<void> {
  await q.query(
    `INSERT INTO auth_throttle (key, window_start, failures) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.failures + 1 ELSE 1 END,
       window_start = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.window_start ELSE $2 END`,
    [key, now, windowStart],
  );
}

export async function clearFailures(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
}
