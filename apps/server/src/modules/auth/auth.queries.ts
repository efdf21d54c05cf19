import type { Queryable } from '../../db/db.ts';

/**
 * Counts one attempt on every key before the password is checked, in one statement: parallel
 * attempts each get their own count back, so no burst can slip past a limit. A stale window
 * restarts at 1. Keys are taken in sorted order (no deadlock between concurrent upserts).
 */
export async function countAttempt(
  q: Queryable,
  keys: string[],
  now: Date,
  windowStart: Date,
): Promise<Map<string, number>> {
  const rows = await q.query<{ key: string; failures: number }>(
    `INSERT INTO auth_throttle (key, window_start, failures)
     SELECT k, $2, 1 FROM unnest($1::text[]) AS k ORDER BY k
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.failures + 1 ELSE 1 END,
       window_start = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.window_start ELSE $2 END
     RETURNING key, failures`,
    [[...keys].sort(), now, windowStart],
  );
  return new Map(rows.map((r) => [r.key, r.failures]));
}

/** A successful sign-in: its attempt was no failure. Clears `clear`, takes one back from `undo`. */
export async function forgiveAttempt(q: Queryable, clear: string, undo: string[]): Promise<void> {
  await q.query('DELETE FROM auth_throttle WHERE key = $1', [clear]);
  await q.query('UPDATE auth_throttle SET failures = greatest(failures - 1, 0) WHERE key = ANY($1::text[])', [
    undo,
  ]);
}
