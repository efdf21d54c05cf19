import { createHmac, randomBytes, randomInt } from 'node:crypto';
import {
  type SetSmppLimitsBody,
  SMPP_DEFAULT_BIND_LIMIT,
  SMPP_DEFAULT_RATE,
  SMPP_PASSWORD_LENGTH,
  type SmppLimitsResponse,
  type SmppPasswordResponse,
} from '@simdock/contract';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../context.ts';
import { safeEqual } from '../../crypto.ts';
import { DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { apiKeyOwner, apiKeyUse, ownApiKey } from '../apikey/index.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { findUserById } from '../users/index.ts';
import { smppPorts, smppState } from './ports.ts';
import {
  accountBySystemId,
  type SmppAccountRow,
  upsertPassword,
  upsertUserLimits,
  userLimits,
} from './smpp.queries.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 8 characters from an alphabet without look-alikes (about 46 bits). */
export function newSmppPassword(): string {
  let out = '';
  for (let i = 0; i < SMPP_PASSWORD_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** The stored form of a password: an HMAC under APP_SECRET (a leaked table alone reveals nothing). */
export const passwordHash = (ctx: AppContext, password: string) =>
  createHmac('sha256', ctx.config.APP_SECRET).update(`smpp:${password}`).digest('hex');

/** A new system_id: `sd` and 10 hex characters (12 of the 15 allowed). */
const newSystemId = () => `sd${randomBytes(5).toString('hex')}`;

/** Makes or replaces the SMPP password of one of the user's keys (it needs `messaging:send`). */
export async function setSmppPassword(
  ctx: AppContext,
  userId: string,
  keyId: string,
): Promise<Omit<SmppPasswordResponse, 'code' | 'msg'>> {
  const key = await ownApiKey(ctx, userId, keyId);
  if (!key) throw notFound('There is no such API key.');
  if (!key.scopes.includes('messaging:send')) {
    throw new DomainError(
      'api_key_scope_missing',
      'SMPP sends messages: choose a key with the messaging:send scope.',
      'id',
    );
  }
  const password = newSmppPassword();
  const user = await findUserById(ctx.db, userId);
  const now = ctx.clock.now();
  const systemId = await ctx.db.tx(async (q) => {
    const id = await upsertPassword(q, key.id, newSystemId(), passwordHash(ctx, password), now);
    // Never the password itself: which credential, and that it was (re)made.
    await recordAudit(q, {
      actor: { id: userId, username: user?.username ?? '' },
      kind: 'apikey.smppPassword',
      targetId: key.id,
      targetLabel: key.name,
      after: { systemId: id },
      at: now,
    });
    return id;
  });
  const ports = smppPorts(ctx);
  return {
    systemId,
    password,
    host: new URL(ctx.config.PUBLIC_URL).hostname,
    port: ports.plain ?? ctx.config.SMPP_PORT,
    tlsPort:
      ctx.config.SMPP_TLS_CERT && ctx.config.SMPP_TLS_KEY ? (ports.tls ?? ctx.config.SMPP_TLS_PORT) : null,
  };
}

/** A bind's outcome: the account and its key's user, or the SMPP status and the reason for the log. */
export type BindCheck =
  | { ok: true; account: SmppAccountRow; user: AuthUser }
  | { ok: false; status: 'password' | 'refused'; reason: string; account?: SmppAccountRow };

// Compared against when the system_id is unknown, so that both refusals take the same time.
const NO_HASH = '0'.repeat(64);

/**
 * Checks a bind's credentials and its key: an unknown system_id and a wrong password are the same
 * refusal (no way to learn which system_ids exist).
 */
export async function checkBind(
  ctx: AppContext,
  systemId: string,
  password: string,
  ip: string,
): Promise<BindCheck> {
  const account = systemId ? await accountBySystemId(ctx.db, systemId) : undefined;
  const matches = safeEqual(passwordHash(ctx, password), account?.password_hash ?? NO_HASH);
  if (!account) return { ok: false, status: 'password', reason: 'unknown system_id' };
  if (!matches) return { ok: false, status: 'password', reason: 'wrong password', account };
  const use = await apiKeyUse(ctx, account.api_key_id, ip, 'messaging:send');
  if ('refused' in use) return { ok: false, status: 'refused', reason: use.refused, account };
  return { ok: true, account: await withUserLimits(ctx, account, use.user.id), user: use.user };
}

/** The account with its user's limits (set by an admin) in place of its own defaults. */
export async function withUserLimits(
  ctx: AppContext,
  account: SmppAccountRow,
  userId: string,
): Promise<SmppAccountRow> {
  const limits = await userLimits(ctx.db, userId);
  return limits ? { ...account, ...limits } : account;
}

/** A bind refusal is audited at most this often per credential and reason. */
const REFUSAL_AUDIT_MS = 60_000;

/**
 * Audits a refused bind of a known credential, at most once a minute per credential and reason:
 * the times are kept in this process's memory (each process audits on its own; a restart forgets),
 * so a client hammering binds cannot flood the log. An unknown system_id names no credential: only
 * logged.
 */
export async function auditBindRefused(
  ctx: AppContext,
  account: SmppAccountRow,
  reason: 'wrong password' | 'address not allowed' | 'bind limit reached' | 'key refused',
  detail: string,
  ip: string,
): Promise<void> {
  const seen = smppState(ctx).refusalsAudited;
  const now = ctx.clock.now().getTime();
  const key = `${account.system_id}|${reason}`;
  const last = seen.get(key);
  if (last !== undefined && now - last < REFUSAL_AUDIT_MS) return;
  seen.set(key, now);
  // Old entries go once the map grows (they would be audited again anyway).
  if (seen.size > 10_000) {
    for (const [k, at] of seen) if (now - at >= REFUSAL_AUDIT_MS) seen.delete(k);
  }
  const owner = await apiKeyOwner(ctx, account.api_key_id);
  if (!owner) return;
  await recordAudit(ctx.db, {
    actor: owner,
    kind: 'smpp.bindRefused',
    targetId: account.api_key_id,
    targetLabel: account.system_id,
    after: { reason, detail, ip },
    at: ctx.clock.now(),
  });
}

async function targetUser(ctx: AppContext, userId: string) {
  const user = isUuid(userId) ? await findUserById(ctx.db, userId.toLowerCase()) : undefined;
  if (!user) throw notFound('User not found.', 'user_not_found');
  return user;
}

const limitsOf = (userId: string, row: { rate_per_second: number; bind_limit: number } | undefined) => ({
  code: 1 as const,
  userId,
  ratePerSecond: row?.rate_per_second ?? SMPP_DEFAULT_RATE,
  bindLimit: row?.bind_limit ?? SMPP_DEFAULT_BIND_LIMIT,
  custom: row !== undefined,
});

/** A user's SMPP limits (the defaults when an admin set none). */
export async function smppLimits(ctx: AppContext, userId: string): Promise<SmppLimitsResponse> {
  const user = await targetUser(ctx, userId);
  return limitsOf(user.id, await userLimits(ctx.db, user.id));
}

/** An admin sets a user's SMPP limits (audited with the values before and after). */
export async function setSmppLimits(
  ctx: AppContext,
  body: z.output<typeof SetSmppLimitsBody>,
  actor: AuditActor,
): Promise<SmppLimitsResponse> {
  const user = await targetUser(ctx, body.userId);
  const next = { rate_per_second: body.ratePerSecond, bind_limit: body.bindLimit };
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const before = limitsOf(user.id, await userLimits(q, user.id));
    await upsertUserLimits(q, user.id, next, now);
    await recordAudit(q, {
      actor: { id: actor.id, username: actor.username },
      kind: 'smpp.limits',
      targetId: user.id,
      targetLabel: user.username,
      before: { ratePerSecond: before.ratePerSecond, bindLimit: before.bindLimit },
      after: { ratePerSecond: body.ratePerSecond, bindLimit: body.bindLimit },
      at: now,
    });
  });
  return limitsOf(user.id, next);
}
