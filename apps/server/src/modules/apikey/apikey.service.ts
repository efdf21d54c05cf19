import { randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX_LENGTH,
  API_KEY_SCOPES,
  API_KEYS_MAX,
  type ApiKeyInfo,
  type ApiKeyScope,
  allowedIpsProblem,
  type CreateApiKeyBody,
  checkAllowedIps,
  DEFAULT_API_KEY_NAME,
  ipAllowed,
  rolesFromClaim,
} from '@simdock/contract';
import type { ApiKeyAuth, AppContext, AuthUser } from '../../context.ts';
import { seal, sha256, unseal } from '../../crypto.ts';
import { batchLoaderPerServer } from '../../db/batch.ts';
import type { Queryable } from '../../db/db.ts';
import { badInput, conflict, DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { findUserById, mailOwner } from '../users/index.ts';
import {
  countCall,
  countKeys,
  type DeletedKey,
  deleteDefaultKey,
  deleteKeyById,
  deleteKeysOf,
  findKeyByHash,
  findKeyById,
  insertKey,
  type KeyRow,
  listKeys,
  lockUserKeys,
  sealedDefaultKeysOf,
  touchKey,
} from './apikey.queries.ts';

/** Concurrent requests' reads of a user's sealed default key share one statement (current data, no cache). */
const readSealedKey = batchLoaderPerServer((ctx: AppContext, userIds: string[]) =>
  sealedDefaultKeysOf(ctx.db, userIds),
);

/** A new key: `sd_` and 256 random bits in base64url (43 characters). */
export function newApiKey(): string {
  return `sd_${randomBytes(32).toString('base64url')}`;
}

/** A sealed key in clear, or null when it was sealed under another APP_SECRET (unreadable by design). */
function unsealed(ctx: AppContext, sealed: string): string | null {
  try {
    return unseal(ctx.config.APP_SECRET, sealed);
  } catch {
    return null;
  }
}

/** The user's default key in clear (it is shown to its owner), or null. */
export async function getApiKey(ctx: AppContext, userId: string): Promise<string | null> {
  const sealed = isUuid(userId) ? await readSealedKey(ctx, userId.toLowerCase()) : undefined;
  // Unreadable: the owner makes a new one.
  return sealed ? unsealed(ctx, sealed) : null;
}

/** A key row as its owner's list shows it, at `now`. */
export function keyInfo(ctx: AppContext, row: KeyRow, now: Date): ApiKeyInfo {
  // A migrated default key has no stored prefix: its sealed copy has the key.
  const prefix =
    row.prefix ?? (row.key_enc ? unsealed(ctx, row.key_enc)?.slice(0, API_KEY_PREFIX_LENGTH) : null) ?? null;
  return {
    id: row.id,
    name: row.name,
    prefix,
    scopes: API_KEY_SCOPES.filter((s) => row.scopes.includes(s)),
    allowedIps: row.allowed_ips,
    expiresAt: row.expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    isDefault: row.is_default,
    expired: row.expires_at !== null && row.expires_at.getTime() <= now.getTime(),
  };
}

export async function listApiKeys(ctx: AppContext, userId: string): Promise<ApiKeyInfo[]> {
  const now = ctx.clock.now();
  return (await listKeys(ctx.db, userId)).map((row) => keyInfo(ctx, row, now));
}

/** What the audit log keeps of a key: never the key, only what names it. */
function audited(k: Pick<ApiKeyInfo, 'name' | 'prefix' | 'scopes' | 'allowedIps' | 'expiresAt'>) {
  return {
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    allowedIps: k.allowedIps,
    expiresAt: k.expiresAt,
  };
}

const deletedAudit = (d: DeletedKey) => ({ name: d.name, prefix: d.prefix, isDefault: d.is_default });

/** The signed-in user as the audit log names them. */
async function actorOf(ctx: AppContext, userId: string): Promise<AuditActor> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new DomainError('user_not_found', 'User not found.');
  return { id: user.id, username: user.username };
}

/** The key's fields from a create body, checked: scopes once each, addresses normalised, a future expiry. */
export function checkedNewKey(
  body: Omit<CreateApiKeyBody, 'name'>,
  now: Date,
): { scopes: ApiKeyScope[]; allowedIps: string[]; expiresAt: Date | null } {
  const scopes = API_KEY_SCOPES.filter((s) => body.scopes.includes(s));
  if (scopes.length === 0) throw badInput('Choose at least one scope.', 'scopes');
  const ips = checkAllowedIps(body.allowedIps ?? []);
  if (!ips.ok) throw badInput(allowedIpsProblem(ips), 'allowedIps');
  let expiresAt: Date | null = null;
  if (body.expiresAt !== undefined) {
    expiresAt = new Date(body.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) throw badInput('Enter the expiry as an ISO time.', 'expiresAt');
    if (expiresAt.getTime() <= now.getTime())
      throw badInput('The expiry must be in the future.', 'expiresAt');
  }
  return { scopes, allowedIps: ips.ranges, expiresAt };
}

const limitReached = () =>
  conflict(
    `You have ${API_KEYS_MAX} API keys, the most allowed. Delete one to make another.`,
    undefined,
    'api_key_limit',
  );

/** Makes a named key; answers it in clear this once (only its hash is kept) with its list shape. */
export async function createApiKey(
  ctx: AppContext,
  userId: string,
  body: CreateApiKeyBody,
): Promise<{ apiKey: string; key: ApiKeyInfo }> {
  const now = ctx.clock.now();
  const fields = checkedNewKey(body, now);
  const name = body.name.trim();
  const actor = await actorOf(ctx, userId);
  const apiKey = newApiKey();
  const row = await ctx.db.tx(async (q) => {
    await lockUserKeys(q, userId);
    if ((await countKeys(q, userId)) >= API_KEYS_MAX) throw limitReached();
    const inserted = await insertKey(q, {
      userId,
      name,
      hash: sha256(apiKey),
      prefix: apiKey.slice(0, API_KEY_PREFIX_LENGTH),
      sealed: null,
      ...fields,
      isDefault: false,
      at: now,
    });
    const info = keyInfo(ctx, inserted, now);
    await recordAudit(q, {
      actor,
      kind: 'apikey.create',
      targetId: info.id,
      targetLabel: name,
      after: audited(info),
      at: now,
    });
    return inserted;
  });
  await mailOwner(ctx, userId, 'apiKeyCreated');
  return { apiKey, key: keyInfo(ctx, row, now) };
}

/**
 * Makes a new default key (every scope, any address, no expiry); the previous default key stops
 * working in the same transaction. Refused when the user has no default key and the most keys.
 */
export async function resetApiKey(ctx: AppContext, userId: string): Promise<string> {
  const now = ctx.clock.now();
  const actor = await actorOf(ctx, userId);
  const apiKey = newApiKey();
  await ctx.db.tx(async (q) => {
    await lockUserKeys(q, userId);
    const old = await deleteDefaultKey(q, userId);
    if (!old && (await countKeys(q, userId)) >= API_KEYS_MAX) throw limitReached();
    const inserted = await insertKey(q, {
      userId,
      name: DEFAULT_API_KEY_NAME,
      hash: sha256(apiKey),
      prefix: apiKey.slice(0, API_KEY_PREFIX_LENGTH),
      sealed: seal(ctx.config.APP_SECRET, apiKey),
      scopes: API_KEY_SCOPES,
      allowedIps: [],
      expiresAt: null,
      isDefault: true,
      at: now,
    });
    const info = keyInfo(ctx, inserted, now);
    await recordAudit(q, {
      actor,
      kind: 'apikey.reset',
      targetId: info.id,
      targetLabel: info.name,
      before: old ? { id: old.id, ...deletedAudit(old) } : null,
      after: audited(info),
      at: now,
    });
  });
  await mailOwner(ctx, userId, 'apiKeyCreated');
  return apiKey;
}

/** The audit row of a deleted key (never the key itself). */
async function auditDeletion(
  q: Queryable,
  actor: AuditActor,
  old: Parameters<typeof deletedAudit>[0] & { id: string; name: string },
  at: Date,
): Promise<void> {
  await recordAudit(q, {
    actor,
    kind: 'apikey.delete',
    targetId: old.id,
    targetLabel: old.name,
    before: deletedAudit(old),
    at,
  });
}

/**
 * Deletes every key of a user, each audited, inside the caller's transaction (a password reset, a
 * change that asks for it): keys made with a stolen session stop working. Answers how many went.
 */
export async function revokeAllApiKeys(
  q: Queryable,
  user: { id: string; username: string },
  at: Date,
): Promise<number> {
  const gone = await deleteKeysOf(q, user.id);
  for (const old of gone) await auditDeletion(q, { id: user.id, username: user.username }, old, at);
  return gone.length;
}

/** Deletes the default key (the spec's delete-key); false when there is none. */
export async function deleteApiKey(ctx: AppContext, userId: string): Promise<boolean> {
  const actor = await actorOf(ctx, userId);
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const old = await deleteDefaultKey(q, userId);
    if (!old) return false;
    await auditDeletion(q, actor, old, now);
    return true;
  });
}

/** Deletes one of the user's keys (the default one too); another user's key is not found. */
export async function deleteApiKeyById(ctx: AppContext, userId: string, id: string): Promise<void> {
  const actor = await actorOf(ctx, userId);
  const now = ctx.clock.now();
  const deleted = await ctx.db.tx(async (q) => {
    const old = isUuid(id) ? await deleteKeyById(q, userId, id.toLowerCase()) : undefined;
    if (!old) return false;
    await auditDeletion(q, actor, old, now);
    return true;
  });
  if (!deleted) throw notFound('There is no such API key.');
}

/** Longer than any key we make: anything longer is refused before it is hashed. */
const KEY_MAX = 200;

/**
 * The registry's API-key authenticator: finds the key by its hash, refuses an expired key and an
 * inactive account, notes the key's use (at most once a minute) and counts the call in the user's
 * rate-limit window (kept in the database, so every process shares it). The route guard then checks
 * the key's scopes and allowed addresses against the call.
 */
export async function authenticateApiKey(ctx: AppContext, key: string | undefined): Promise<ApiKeyAuth> {
  if (!key) throw new DomainError('api_key_missing', 'An API key is required.');
  const row = key.length <= KEY_MAX ? await findKeyByHash(ctx.db, sha256(key)) : undefined;
  if (!row) throw new DomainError('api_key_invalid', 'This API key is not valid.');
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) throw new DomainError('api_key_invalid', 'This API key is not valid.');
  if (user.status !== 'Active') {
    throw new DomainError('account_inactive', 'This account is inactive. Please contact support.');
  }
  const now = ctx.clock.now();
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
    throw new DomainError('api_key_expired', `This API key expired at ${row.expires_at.toISOString()}.`);
  }
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= 60_000) {
    await touchKey(ctx.db, row.id, now);
  }
  const windowMs = ctx.config.API_RATE_WINDOW_SECONDS * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const hits = await countCall(ctx.db, user.id, new Date(windowStart));
  const limit = ctx.config.API_RATE_LIMIT;
  return {
    user: { id: user.id, username: user.username, roles: rolesFromClaim(user.roles) },
    key: { id: row.id, scopes: row.scopes, allowedIps: row.allowed_ips },
    rate: {
      limit,
      remaining: limit - hits,
      resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)),
    },
  };
}

/** One of the user's keys as their list shows it, or undefined (another user's key is not found). */
export async function ownApiKey(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<ApiKeyInfo | undefined> {
  if (!isUuid(id)) return undefined;
  const keys = await listApiKeys(ctx, userId);
  return keys.find((k) => k.id === id.toLowerCase());
}

/** The owner of a key (whose account an SMPP bind was for), for the audit log. */
export async function apiKeyOwner(
  ctx: AppContext,
  id: string,
): Promise<{ id: string; username: string } | undefined> {
  const row = isUuid(id) ? await findKeyById(ctx.db, id.toLowerCase()) : undefined;
  const user = row ? await findUserById(ctx.db, row.user_id) : undefined;
  return user ? { id: user.id, username: user.username } : undefined;
}

/**
 * Whether a key may be used now from `ip` with `scope`, for a caller that is not an HTTP request
 * (an SMPP bind): its user active, the key not expired, the scope granted, the address allowed.
 * Answers the key's user, or why not (for the log; the client learns only that it was refused).
 */
export async function apiKeyUse(
  ctx: AppContext,
  id: string,
  ip: string,
  scope: ApiKeyScope,
): Promise<{ user: AuthUser } | { refused: string }> {
  const row = isUuid(id) ? await findKeyById(ctx.db, id.toLowerCase()) : undefined;
  if (!row) return { refused: 'the API key was deleted' };
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) return { refused: 'the API key was deleted' };
  if (user.status !== 'Active') return { refused: 'the account is inactive' };
  const now = ctx.clock.now();
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return { refused: 'the API key expired' };
  if (!row.scopes.includes(scope)) return { refused: `the API key does not have the ${scope} scope` };
  if (!ipAllowed(ip, row.allowed_ips))
    return { refused: `the address ${ip} is not among the key's allowed addresses` };
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= 60_000) {
    await touchKey(ctx.db, row.id, now);
  }
  return { user: { id: user.id, username: user.username, roles: rolesFromClaim(user.roles) } };
}
