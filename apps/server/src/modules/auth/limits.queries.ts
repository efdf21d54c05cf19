import type { Queryable } from '../../db/db.ts';

export interface Counted {
  failures: number;
  windowStart: Date;
}

/**
 * Takes one unit from every key's window before the work it guards, in one statement: parallel
 * attempts each get their own count back, so no burst slips past a limit. A window older than
 * `windowStart` restarts at 1. Keys are taken in sorted order (no deadlock between concurrent upserts).
 */
export async function reserve(
  q: Queryable,
  keys: string[],
  now: Date,
  windowStart: Date,
): Promise<Map<string, Counted>> {
  if (keys.length === 0) return new Map();
  const rows = await q.query<{ key: string; failures: number; window_start: Date }>(
    `INSERT INTO auth_throttle (key, window_start, failures)
     SELECT k, $2, 1 FROM unnest($1::text[]) AS k ORDER BY k
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.failures + 1 ELSE 1 END,
       window_start = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.window_start ELSE $2 END
     RETURNING key, failures, window_start`,
    [[...new Set(keys)].sort(), now, windowStart],
  );
  return new Map(rows.map((r) => [r.key, { failures: r.failures, windowStart: new Date(r.window_start) }]));
}

/**
 * Gives back one unit on every key (an attempt that was refused, or did not need counting). The
 * rows are locked in key order, as `reserve` takes them: any other order can deadlock with a
 * concurrent reserve or release of the same keys.
 */
export async function release(q: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await q.query(
    `UPDATE auth_throttle t SET failures = greatest(t.failures - 1, 0)
     FROM (SELECT key FROM auth_throttle WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE) AS s
     WHERE t.key = s.key`,
    [keys],
  );
}

/** A key's count in the window that started after `windowStart` (undefined: none). */
export async function peek(q: Queryable, key: string, windowStart: Date): Promise<Counted | undefined> {
  const rows = await q.query<{ failures: number; window_start: Date }>(
    'SELECT failures, window_start FROM auth_throttle WHERE key = $1 AND window_start > $2',
    [key, windowStart],
  );
  const r = rows[0];
  return r ? { failures: r.failures, windowStart: new Date(r.window_start) } : undefined;
}

/** Forgets these keys' windows (a success clears its own pair counter). */
export async function clearKeys(q: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await q.query('DELETE FROM auth_throttle WHERE key = ANY($1::text[])', [keys]);
}

/** Whether this device token hash belongs to this user. */
export async function deviceTokenBelongs(q: Queryable, tokenHash: string, userId: string): Promise<boolean> {
  const rows = await q.query<{ ok: number }>(
    'SELECT 1 AS ok FROM device_tokens WHERE token_hash = $1 AND user_id = $2',
    [tokenHash, userId],
  );
  return rows.length > 0;
}

/**
 * Records a device token for a user (or marks a known one used), and keeps only the user's `keep`
 * most recently used ones, so the table cannot grow without bound.
 */
export async function saveDeviceToken(
  q: Queryable,
  userId: string,
  tokenHash: string,
  now: Date,
  keep: number,
): Promise<void> {
  await q.query(
    `INSERT INTO device_tokens (token_hash, user_id, created_at, last_used_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (token_hash) DO UPDATE SET last_used_at = $3 WHERE device_tokens.user_id = $2`,
    [tokenHash, userId, now],
  );
  await q.query(
    `DELETE FROM device_tokens WHERE user_id = $1 AND token_hash NOT IN (
       SELECT token_hash FROM device_tokens WHERE user_id = $1 ORDER BY last_used_at DESC, token_hash LIMIT $2)`,
    [userId, keep],
  );
}
