import {
  ADMIN_ROLE,
  RECOVERY_CODE_COUNT,
  rolesFromClaim,
  SECOND_FACTOR_CHALLENGE_SECONDS,
  SECOND_FACTOR_MAX_ATTEMPTS,
  type SecondFactorChallenge,
  type SecondFactorStartResponse,
  type SecondFactorStatus,
} from '@simdock/contract';
import QRCode from 'qrcode';
import type { AppContext, AuthUser } from '../../context.ts';
import { randomToken, seal, sha256, unseal } from '../../crypto.ts';
import type { Queryable } from '../../db/db.ts';
import { DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit/index.ts';
import { findUserById, mailOwner, type UserRow } from '../users/index.ts';
import { assertSecondFactorOpen, forgiveSignIn, secondFactorGate } from './limits.ts';
import {
  countChallengeAttempt,
  deleteChallenge,
  deleteSecondFactor,
  findSecondFactor,
  insertChallenge,
  markEnabled,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  saveUnconfirmedSecret,
  secondFactorEnabled,
  useRecoveryCode,
  useStep,
} from './second-factor.queries.ts';
import {
  isRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  normalizeCode,
  totpFor,
  totpStep,
} from './second-factor.ts';
import { signToken } from './tokens.ts';

const WRONG_CODE = 'The code is not correct.';
const hashRecovery = (normalized: string) => sha256(`recovery:${normalized}`);

/** An admin who must enrol (REQUIRE_ADMIN_2FA) and has not: their sessions reach enrolment only. */
export async function secondFactorStatus(ctx: AppContext, user: AuthUser): Promise<SecondFactorStatus> {
  const row = await findSecondFactor(ctx.db, user.id);
  const enabled = Boolean(row?.enabled_at);
  return {
    code: 1,
    enabled,
    enabledAt: row?.enabled_at ? row.enabled_at.toISOString() : null,
    recoveryCodesLeft: enabled ? await recoveryCodesLeft(ctx.db, user.id) : 0,
    required: ctx.config.REQUIRE_ADMIN_2FA && user.roles.includes(ADMIN_ROLE) && !enabled,
  };
}

export async function startEnrolment(ctx: AppContext, user: AuthUser): Promise<SecondFactorStartResponse> {
  const secret = newTotpSecret();
  if (!(await saveUnconfirmedSecret(ctx.db, user.id, seal(ctx.config.APP_SECRET, secret)))) {
    throw new DomainError('second_factor_state', 'Two-factor authentication is on already.');
  }
  const uri = totpFor(secret, user.username).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { code: 1, secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Checks a TOTP code against the user's secret and takes its time step (a code works once). */
async function takeTotp(ctx: AppContext, q: Queryable, userId: string, secretEnc: string, code: string) {
  const step = totpStep(unseal(ctx.config.APP_SECRET, secretEnc), code, ctx.clock.now());
  return step !== null && (await useStep(q, userId, step));
}

/** A TOTP code, or (when `recovery`) a recovery code, for a user whose factor is on. */
async function checkCode(
  ctx: AppContext,
  q: Queryable,
  userId: string,
  input: string,
  recovery: boolean,
): Promise<boolean> {
  const row = await findSecondFactor(q, userId);
  if (!row?.enabled_at) return false;
  const code = normalizeCode(input);
  if (await takeTotp(ctx, q, userId, row.secret_enc, code)) return true;
  return recovery && isRecoveryCode(code) && useRecoveryCode(q, userId, hashRecovery(code), ctx.clock.now());
}

async function freshRecoveryCodes(q: Queryable, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  await replaceRecoveryCodes(
    q,
    userId,
    codes.map((c) => hashRecovery(normalizeCode(c))),
  );
  return codes;
}

const audit = (
  q: Queryable,
  ctx: AppContext,
  actor: AuthUser,
  kind: Parameters<typeof recordAudit>[1]['kind'],
  target: { id: string; username: string },
) =>
  recordAudit(q, {
    actor: { id: actor.id, username: actor.username },
    kind,
    targetId: target.id,
    targetLabel: target.username,
    at: ctx.clock.now(),
  });

export async function confirmEnrolment(ctx: AppContext, user: AuthUser, input: string): Promise<string[]> {
  const recoveryCodes = await ctx.db.tx(async (q) => {
    const row = await findSecondFactor(q, user.id);
    if (!row) throw new DomainError('second_factor_state', 'Start the set-up first.');
    if (row.enabled_at)
      throw new DomainError('second_factor_state', 'Two-factor authentication is on already.');
    if (!(await takeTotp(ctx, q, user.id, row.secret_enc, normalizeCode(input)))) {
      throw new DomainError('second_factor_invalid', WRONG_CODE, 'code');
    }
    await markEnabled(q, user.id, ctx.clock.now());
    const codes = await freshRecoveryCodes(q, user.id);
    await audit(q, ctx, user, 'user.secondFactorEnable', user);
    return codes;
  });
  await mailOwner(ctx, user.id, 'secondFactorEnabled');
  return recoveryCodes;
}

/**
 * Checks a code of a user whose factor is on, counted by the per-account and per-address limits
 * (secondFactorGate): a wrong one throws `second_factor_invalid` on `code`, past the limit 429.
 * Every call that takes a code goes through here or answerChallenge.
 */
export async function verifyUserCode(
  ctx: AppContext,
  user: { id: string; username: string },
  input: string,
  opts: { ip: string; recovery: boolean },
): Promise<void> {
  const gate = await secondFactorGate(ctx, user, opts.ip);
  if (await ctx.db.tx((q) => checkCode(ctx, q, user.id, input, opts.recovery))) {
    await gate.passed();
    return;
  }
  await gate.failed();
  throw new DomainError('second_factor_invalid', WRONG_CODE, 'code');
}

/**
 * The code of a call that turns the factor off or makes new recovery codes: checked (and counted)
 * when given; left empty, it is the code the request's re-authentication checked moments ago (a
 * TOTP code works once, so the person is not asked for two in one step).
 */
async function callCode(
  ctx: AppContext,
  user: AuthUser,
  input: string,
  opts: { ip: string; recovery: boolean },
): Promise<void> {
  if (input.trim()) return verifyUserCode(ctx, user, input, opts);
  if (!user.reauth?.withCode) {
    throw new DomainError('second_factor_invalid', 'Enter the code from your authenticator app.', 'code');
  }
}

async function assertEnabled(ctx: AppContext, userId: string): Promise<void> {
  if (!(await secondFactorEnabled(ctx.db, userId))) {
    throw new DomainError('second_factor_state', 'Two-factor authentication is off.');
  }
}

export async function regenerateRecoveryCodes(
  ctx: AppContext,
  user: AuthUser,
  input: string,
  ip: string,
): Promise<string[]> {
  await assertEnabled(ctx, user.id);
  await callCode(ctx, user, input, { ip, recovery: false });
  const codes = await ctx.db.tx(async (q) => {
    const made = await freshRecoveryCodes(q, user.id);
    await audit(q, ctx, user, 'user.secondFactorRecoveryCodes', user);
    return made;
  });
  await mailOwner(ctx, user.id, 'recoveryCodesReplaced');
  return codes;
}

export async function disableSecondFactor(
  ctx: AppContext,
  user: AuthUser,
  input: string,
  ip: string,
): Promise<void> {
  await assertEnabled(ctx, user.id);
  await callCode(ctx, user, input, { ip, recovery: true });
  await ctx.db.tx(async (q) => {
    if (!(await deleteSecondFactor(q, user.id))) {
      throw new DomainError('second_factor_state', 'Two-factor authentication is off.');
    }
    await audit(q, ctx, user, 'user.secondFactorDisable', user);
  });
  await mailOwner(ctx, user.id, 'secondFactorDisabled');
}

/** An admin turns another user's factor off (audited); the user can sign in with the password alone. */
export async function resetSecondFactor(ctx: AppContext, admin: AuthUser, userId: string): Promise<void> {
  const target = isUuid(userId) ? await findUserById(ctx.db, userId.toLowerCase()) : undefined;
  if (!target) throw notFound('User not found.', 'user_not_found');
  await ctx.db.tx(async (q) => {
    // Only a factor that is on: an enrolment the user has not confirmed is theirs to finish or restart.
    if (!(await secondFactorEnabled(q, target.id)))
      throw new DomainError(
        'second_factor_state',
        `${target.username} has no two-factor authentication to reset.`,
      );
    await deleteSecondFactor(q, target.id);
    await audit(q, ctx, admin, 'user.secondFactorReset', target);
  });
  await mailOwner(ctx, target.id, 'secondFactorReset');
}

/**
 * After a correct password: a challenge for an account with the factor on (no token yet), or null.
 * The challenge is a random value kept as a hash, with its attempts counted in the database: a
 * stateless signed token could not be made void after five wrong codes or after its one use.
 */
export async function challengeFor(ctx: AppContext, user: UserRow): Promise<SecondFactorChallenge | null> {
  if (!(await secondFactorEnabled(ctx.db, user.id))) return null;
  // Past the wrong-code limit a right password gets no new challenge (429).
  await assertSecondFactorOpen(ctx, user);
  const challenge = randomToken(32);
  const now = ctx.clock.now();
  await insertChallenge(ctx.db, {
    tokenHash: sha256(challenge),
    userId: user.id,
    tokenVersion: user.token_version,
    expiresAt: new Date(now.getTime() + SECOND_FACTOR_CHALLENGE_SECONDS * 1000),
    now,
  });
  return {
    secondFactor: true,
    challenge,
    expiresIn: SECOND_FACTOR_CHALLENGE_SECONDS,
    attemptsLeft: SECOND_FACTOR_MAX_ATTEMPTS,
  };
}

/**
 * The second sign-in step: a code (or a recovery code) for the challenge → a session token. Codes
 * count toward the account's wrong-code limit across challenges (verifyUserCode); a challenge
 * issued before a password change or reset is void; only a right code takes the password's
 * attempt back from the sign-in limits.
 */
export async function answerChallenge(
  ctx: AppContext,
  input: { challenge: string; code: string; ip: string },
): Promise<string> {
  const tokenHash = sha256(input.challenge);
  const counted = await countChallengeAttempt(ctx.db, tokenHash, ctx.clock.now(), SECOND_FACTOR_MAX_ATTEMPTS);
  const user = counted ? await findUserById(ctx.db, counted.user_id) : undefined;
  if (!counted || !user || user.token_version !== counted.token_version) {
    throw new DomainError(
      'second_factor_challenge_invalid',
      'This sign-in has expired or had too many wrong codes. Please sign in again.',
    );
  }
  try {
    await verifyUserCode(ctx, user, input.code, { ip: input.ip, recovery: true });
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'second_factor_invalid') throw err;
    const left = SECOND_FACTOR_MAX_ATTEMPTS - counted.attempts;
    if (left <= 0) await deleteChallenge(ctx.db, tokenHash);
    throw new DomainError(
      'second_factor_invalid',
      left > 0
        ? `${WRONG_CODE} ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
        : `${WRONG_CODE} Please sign in again.`,
      'code',
    );
  }
  await deleteChallenge(ctx.db, tokenHash);
  if (user.status !== 'Active') {
    throw new DomainError('account_inactive', 'This account is inactive. Please contact support.');
  }
  await forgiveSignIn(ctx, user.username, input.ip);
  return signToken(ctx, {
    id: user.id,
    username: user.username,
    roles: rolesFromClaim(user.roles),
    tokenVersion: user.token_version,
  });
}
