import type { Db, Queryable } from '../../db/db.ts';

export interface SmppAccountRow {
  api_key_id: string;
  system_id: string;
  password_hash: string;
  bind_limit: number;
  rate_per_second: number;
}

const COLUMNS = 'api_key_id::text AS api_key_id, system_id, password_hash, bind_limit, rate_per_second';

export async function accountBySystemId(q: Queryable, systemId: string): Promise<SmppAccountRow | undefined> {
  const rows = await q.query<SmppAccountRow>(`SELECT ${COLUMNS} FROM smpp_accounts WHERE system_id = $1`, [
    systemId,
  ]);
  return rows[0];
}

/**
 * Sets the key's password, making its account on first use under `systemId` (an existing account
 * keeps its system_id). Answers the account's system_id.
 */
export async function upsertPassword(
  q: Queryable,
  apiKeyId: string,
  systemId: string,
  passwordHash: string,
  at: Date,
): Promise<string> {
  const rows = await q.query<{ system_id: string }>(
    `INSERT INTO smpp_accounts (api_key_id, system_id, password_hash, created_at, password_changed_at)
     VALUES ($1::uuid, $2, $3, $4, $4)
     ON CONFLICT (api_key_id) DO UPDATE SET password_hash = EXCLUDED.password_hash,
       password_changed_at = EXCLUDED.password_changed_at
     RETURNING system_id`,
    [apiKeyId, systemId, passwordHash, at],
  );
  return rows[0]!.system_id;
}

/**
 * Records a bind when the credential has fewer than `limit` binds seen since `freshAfter` (all
 * processes), under a transaction lock on the credential: two binds at once cannot both pass.
 * Stale rows of the credential (a crashed process) are pruned on the way. Answers whether it passed.
 */
export async function claimBind(
  db: Db,
  bind: { id: string; apiKeyId: string; processId: string; host: string },
  limit: number,
  at: Date,
  freshAfter: Date,
): Promise<boolean> {
  return db.tx(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext('smpp-bind:' || $1::text))`, [bind.apiKeyId]);
    await q.query('DELETE FROM smpp_binds WHERE api_key_id = $1::uuid AND seen_at < $2', [
      bind.apiKeyId,
      freshAfter,
    ]);
    const [row] = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM smpp_binds WHERE api_key_id = $1::uuid',
      [bind.apiKeyId],
    );
    if ((row?.n ?? 0) >= limit) return false;
    await q.query(
      `INSERT INTO smpp_binds (id, api_key_id, process_id, host, bound_at, seen_at)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5, $5)`,
      [bind.id, bind.apiKeyId, bind.processId, bind.host, at],
    );
    return true;
  });
}

export async function releaseBind(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM smpp_binds WHERE id = $1::uuid', [id]);
}

/** The heartbeat: this process's binds are alive; stale rows of any process are pruned. */
export async function touchBinds(q: Queryable, ids: string[], at: Date, freshAfter: Date): Promise<void> {
  if (ids.length > 0)
    await q.query('UPDATE smpp_binds SET seen_at = $2 WHERE id = ANY($1::uuid[])', [ids, at]);
  await q.query('DELETE FROM smpp_binds WHERE seen_at < $1', [freshAfter]);
}

export interface SmppUserLimitsRow {
  rate_per_second: number;
  bind_limit: number;
}

/** The admin's limits for a user, if any were set. */
export async function userLimits(q: Queryable, userId: string): Promise<SmppUserLimitsRow | undefined> {
  const rows = await q.query<SmppUserLimitsRow>(
    'SELECT rate_per_second, bind_limit FROM smpp_user_limits WHERE user_id = $1',
    [userId],
  );
  return rows[0];
}

export async function upsertUserLimits(
  q: Queryable,
  userId: string,
  limits: SmppUserLimitsRow,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO smpp_user_limits (user_id, rate_per_second, bind_limit, updated_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET rate_per_second = EXCLUDED.rate_per_second,
       bind_limit = EXCLUDED.bind_limit, updated_at = EXCLUDED.updated_at`,
    [userId, limits.rate_per_second, limits.bind_limit, at],
  );
}
