import type { Queryable } from '../../db/db.ts';

/** Stores a new reset link of a user; the user's older links stop working (deleted). */
export async function replaceResetToken(
  q: Queryable,
  r: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await q.query('DELETE FROM password_resets WHERE user_id = $1', [r.userId]);
  await q.query(
    'INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [r.userId, r.tokenHash, r.createdAt, r.expiresAt],
  );
}

/** Whether a link is live (unused, unexpired): checked before any work on the new password. */
export async function resetTokenLive(q: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [tokenHash, now],
  );
  return rows.length > 0;
}

/**
 * Takes a link for use: marks it used and returns its user, only when it exists, is unused and has
 * not expired at `now`. One statement, so two requests with one link cannot both use it.
 */
export async function useResetToken(
  q: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string } | undefined> {
  const rows = await q.query<{ user_id: string }>(
    `UPDATE password_resets SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING user_id`,
    [tokenHash, now],
  );
  return rows[0] ? { userId: rows[0].user_id } : undefined;
}

/**
 * Counts one forgot-password request on `key` in the sign-in limits' counter table and returns the
 * count in the current window (one statement: parallel requests each get their own count). A window
 * older than `windowStart` restarts at 1.
 */
export async function countRequest(q: Queryable, key: string, now: Date, windowStart: Date): Promise<number> {
  const rows = await q.query<{ failures: number }>(
    `INSERT INTO auth_throttle (key, window_start, failures) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.failures + 1 ELSE 1 END,
       window_start = CASE WHEN auth_throttle.window_start > $3 THEN auth_throttle.window_start ELSE $2 END
     RETURNING failures`,
    [key, now, windowStart],
  );
  return rows[0]!.failures;
}
