import type { Queryable } from '../../db/db.ts';

export async function findKeyOwner(q: Queryable, keyHash: string): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>('SELECT user_id FROM api_keys WHERE key_hash = $1', [
    keyHash,
  ]);
  return rows[0]?.user_id;
}

/** The sealed keys of these users (those that have one), by user id, in one statement. */
export async function sealedKeysOf(q: Queryable, userIds: string[]): Promise<Map<string, string>> {
  const rows = await q.query<{ user_id: string; key_enc: string }>(
    'SELECT user_id, key_enc FROM api_keys WHERE user_id = ANY($1::uuid[])',
    [userIds],
  );
  return new Map(rows.map((r) => [r.user_id, r.key_enc]));
}

/** Sets the user's one key, replacing (and so invalidating) the previous one in the same statement. */
export async function putKey(
  q: Queryable,
  k: { userId: string; hash: string; sealed: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO api_keys (user_id, key_hash, key_enc, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, key_enc = EXCLUDED.key_enc,
                                         created_at = EXCLUDED.created_at`,
    [k.userId, k.hash, k.sealed, k.at],
  );
}

export async function deleteKey(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ user_id: string }>(
    'DELETE FROM api_keys WHERE user_id = $1 RETURNING user_id',
    [userId],
  );
  return rows.length > 0;
}

/**
 * Counts one call in the user's current fixed window, in one statement (parallel calls from any
 * process each get their own count); a stale window restarts at 1.
 */
export async function countCall(q: Queryable, userId: string, windowStart: Date): Promise<number> {
  const rows = await q.query<{ hits: number }>(
    `INSERT INTO api_rate_limits AS r (user_id, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (user_id) DO UPDATE SET
       hits = CASE WHEN r.window_start = $2 THEN r.hits + 1 ELSE 1 END,
       window_start = $2
     RETURNING hits`,
    [userId, windowStart],
  );
  return rows[0]!.hits;
}
