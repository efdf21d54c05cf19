import type { Queryable } from '../../db/db.ts';

export interface SecondFactorRow {
  secret_enc: string;
  enabled_at: Date | null;
  last_step: number;
}

export async function findSecondFactor(q: Queryable, userId: string): Promise<SecondFactorRow | undefined> {
  const rows = await q.query<SecondFactorRow>(
    'SELECT secret_enc, enabled_at, last_step::float8 AS last_step FROM user_second_factors WHERE user_id = $1',
    [userId],
  );
  return rows[0];
}

export async function secondFactorEnabled(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ n: number }>(
    'SELECT 1 AS n FROM user_second_factors WHERE user_id = $1 AND enabled_at IS NOT NULL',
    [userId],
  );
  return rows.length > 0;
}

/** Which of `userIds` have the factor on (an enrolment not yet confirmed does not count). */
export async function secondFactorUsers(q: Queryable, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await q.query<{ user_id: string }>(
    'SELECT user_id FROM user_second_factors WHERE user_id = ANY($1::uuid[]) AND enabled_at IS NOT NULL',
    [userIds],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** Starts (or restarts) an enrolment; a factor that is on already is left alone (false). */
export async function saveUnconfirmedSecret(
  q: Queryable,
  userId: string,
  secretEnc: string,
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO user_second_factors (user_id, secret_enc) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_step = 0
       WHERE user_second_factors.enabled_at IS NULL
     RETURNING user_id`,
    [userId, secretEnc],
  );
  return rows.length > 0;
}

/**
 * Takes time step `step` for the user: only when it is later than every step used before, in one
 * statement, so a code (or an older one) is accepted once even by parallel requests.
 */
export async function useStep(q: Queryable, userId: string, step: number): Promise<boolean> {
  const rows = await q.query(
    'UPDATE user_second_factors SET last_step = $2 WHERE user_id = $1 AND last_step < $2 RETURNING user_id',
    [userId, step],
  );
  return rows.length > 0;
}

export async function markEnabled(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query('UPDATE user_second_factors SET enabled_at = $2 WHERE user_id = $1', [userId, at]);
}

/** Removes the factor, its recovery codes and open sign-in challenges; true when there was one. */
export async function deleteSecondFactor(q: Queryable, userId: string): Promise<boolean> {
  await q.query('DELETE FROM second_factor_recovery_codes WHERE user_id = $1', [userId]);
  await q.query('DELETE FROM second_factor_challenges WHERE user_id = $1', [userId]);
  const rows = await q.query('DELETE FROM user_second_factors WHERE user_id = $1 RETURNING user_id', [
    userId,
  ]);
  return rows.length > 0;
}

export async function replaceRecoveryCodes(q: Queryable, userId: string, hashes: string[]): Promise<void> {
  await q.query('DELETE FROM second_factor_recovery_codes WHERE user_id = $1', [userId]);
  await q.query(
    `INSERT INTO second_factor_recovery_codes (user_id, code_hash)
     SELECT $1, h FROM unnest($2::text[]) AS h`,
    [userId, hashes],
  );
}

/** Uses a recovery code once (true), in one statement. */
export async function useRecoveryCode(
  q: Queryable,
  userId: string,
  hash: string,
  at: Date,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE second_factor_recovery_codes SET used_at = $3
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
    [userId, hash, at],
  );
  return rows.length > 0;
}

export async function recoveryCodesLeft(q: Queryable, userId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM second_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export async function insertChallenge(
  q: Queryable,
  c: { tokenHash: string; userId: string; tokenVersion: number; expiresAt: Date; now: Date },
): Promise<void> {
  // Stale challenges go as new ones come: the table stays small without a job.
  await q.query('DELETE FROM second_factor_challenges WHERE expires_at <= $1', [c.now]);
  await q.query(
    `INSERT INTO second_factor_challenges (token_hash, user_id, token_version, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [c.tokenHash, c.userId, c.tokenVersion, c.expiresAt],
  );
}

/**
 * Counts one attempt on a live challenge before its code is checked (atomically, so parallel
 * guesses each count); undefined when it is unknown, expired or out of attempts.
 */
export async function countChallengeAttempt(
  q: Queryable,
  tokenHash: string,
  now: Date,
  maxAttempts: number,
): Promise<{ user_id: string; attempts: number; token_version: number } | undefined> {
  const rows = await q.query<{ user_id: string; attempts: number; token_version: number }>(
    `UPDATE second_factor_challenges SET attempts = attempts + 1
     WHERE token_hash = $1 AND expires_at > $2 AND attempts < $3
     RETURNING user_id, attempts, token_version`,
    [tokenHash, now, maxAttempts],
  );
  return rows[0];
}

/** Ends every open sign-in challenge of a user (a password reset). */
export async function deleteChallengesOf(q: Queryable, userId: string): Promise<void> {
  await q.query('DELETE FROM second_factor_challenges WHERE user_id = $1', [userId]);
}

export async function deleteChallenge(q: Queryable, tokenHash: string): Promise<void> {
  await q.query('DELETE FROM second_factor_challenges WHERE token_hash = $1', [tokenHash]);
}
