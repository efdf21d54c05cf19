import type { ApiKeyScope } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

/** What authenticating a call needs of its key, found by the key's hash. */
export interface KeyAuthRow {
  id: string;
  user_id: string;
  scopes: ApiKeyScope[];
  allowed_ips: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
}

export async function findKeyByHash(q: Queryable, keyHash: string): Promise<KeyAuthRow | undefined> {
  const rows = await q.query<KeyAuthRow>(
    `SELECT id::text AS id, user_id, scopes, allowed_ips, expires_at, last_used_at
       FROM api_keys WHERE key_hash = $1`,
    [keyHash],
  );
  return rows[0];
}

/** A key by its id (an SMPP bind names its key through its credential). */
export async function findKeyById(q: Queryable, id: string): Promise<KeyAuthRow | undefined> {
  const rows = await q.query<KeyAuthRow>(
    `SELECT id::text AS id, user_id, scopes, allowed_ips, expires_at, last_used_at
       FROM api_keys WHERE id = $1::uuid`,
    [id],
  );
  return rows[0];
}

/**
 * Notes a call made with the key, at most once a minute (the condition makes a second writer within
 * the minute a no-op, so parallel calls cost one write).
 */
export async function touchKey(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE api_keys SET last_used_at = $2
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
    [id, at],
  );
}

/** The sealed default keys of these users (those that have one), by user id, in one statement. */
export async function sealedDefaultKeysOf(q: Queryable, userIds: string[]): Promise<Map<string, string>> {
  const rows = await q.query<{ user_id: string; key_enc: string }>(
    'SELECT user_id, key_enc FROM api_keys WHERE user_id = ANY($1::uuid[]) AND is_default',
    [userIds],
  );
  return new Map(rows.map((r) => [r.user_id, r.key_enc]));
}

/** A key as its owner's list shows it (with the sealed copy of a default key, to read its prefix). */
export interface KeyRow {
  id: string;
  name: string;
  prefix: string | null;
  key_enc: string | null;
  scopes: ApiKeyScope[];
  allowed_ips: string[];
  expires_at: Date | null;
  is_default: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

const KEY_COLUMNS = `id::text AS id, name, prefix, key_enc, scopes, allowed_ips, expires_at, is_default,
  created_at, last_used_at`;

/** The user's keys: the default one first, then newest first. */
export async function listKeys(q: Queryable, userId: string): Promise<KeyRow[]> {
  return q.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1
      ORDER BY is_default DESC, created_at DESC, id`,
    [userId],
  );
}

/**
 * Serialises one user's key changes for the rest of the transaction (the count against the limit,
 * the default key's replacement), without touching a table of another module.
 */
export async function lockUserKeys(q: Queryable, userId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('apikeys:' || $1::text))`, [userId]);
}

export async function countKeys(q: Queryable, userId: string): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [
    userId,
  ]);
  return rows[0]!.n;
}

export interface NewKey {
  userId: string;
  name: string;
  hash: string;
  prefix: string;
  /** Sealed copy: the default key's only. */
  sealed: string | null;
  scopes: readonly ApiKeyScope[];
  allowedIps: readonly string[];
  expiresAt: Date | null;
  isDefault: boolean;
  at: Date;
}

export async function insertKey(q: Queryable, k: NewKey): Promise<KeyRow> {
  const rows = await q.query<KeyRow>(
    `INSERT INTO api_keys (user_id, name, key_hash, prefix, key_enc, scopes, allowed_ips, expires_at,
                           is_default, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7::text[], $8, $9, $10)
     RETURNING ${KEY_COLUMNS}`,
    [
      k.userId,
      k.name,
      k.hash,
      k.prefix,
      k.sealed,
      [...k.scopes],
      [...k.allowedIps],
      k.expiresAt,
      k.isDefault,
      k.at,
    ],
  );
  return rows[0]!;
}

/** A deleted key: what the audit record names. */
export interface DeletedKey {
  id: string;
  name: string;
  prefix: string | null;
  is_default: boolean;
}

export async function deleteKeyById(
  q: Queryable,
  userId: string,
  id: string,
): Promise<DeletedKey | undefined> {
  const rows = await q.query<DeletedKey>(
    `DELETE FROM api_keys WHERE user_id = $1 AND id = $2
     RETURNING id::text AS id, name, prefix, is_default`,
    [userId, id],
  );
  return rows[0];
}

/** Deletes every key of a user (a password reset, or a change that asks for it). */
export async function deleteKeysOf(q: Queryable, userId: string): Promise<DeletedKey[]> {
  return q.query<DeletedKey>(
    `DELETE FROM api_keys WHERE user_id = $1
     RETURNING id::text AS id, name, prefix, is_default`,
    [userId],
  );
}

export async function deleteDefaultKey(q: Queryable, userId: string): Promise<DeletedKey | undefined> {
  const rows = await q.query<DeletedKey>(
    `DELETE FROM api_keys WHERE user_id = $1 AND is_default
     RETURNING id::text AS id, name, prefix, is_default`,
    [userId],
  );
  return rows[0];
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
