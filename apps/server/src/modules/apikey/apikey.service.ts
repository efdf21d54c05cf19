import { randomBytes } from 'node:crypto';
import { rolesFromClaim } from '@simdock/contract';
import type { ApiKeyAuth, AppContext } from '../../context.ts';
import { seal, sha256, unseal } from '../../crypto.ts';
import { batchLoaderPerServer } from '../../db/batch.ts';
import { DomainError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { findUserById } from '../users/index.ts';
import { countCall, deleteKey, findKeyOwner, putKey, sealedKeysOf } from './apikey.queries.ts';

/** Concurrent requests' reads of a user's sealed key share one statement (current data, no cache). */
const readSealedKey = batchLoaderPerServer((ctx: AppContext, userIds: string[]) =>
  sealedKeysOf(ctx.db, userIds),
);

/** A new key: `sd_` and 256 random bits in base64url (43 characters). */
export function newApiKey(): string {
  return `sd_${randomBytes(32).toString('base64url')}`;
}

/** The user's key in clear (it is shown to its owner), or null. */
export async function getApiKey(ctx: AppContext, userId: string): Promise<string | null> {
  const sealed = isUuid(userId) ? await readSealedKey(ctx, userId.toLowerCase()) : undefined;
  if (!sealed) return null;
  try {
    return unseal(ctx.config.APP_SECRET, sealed);
  } catch {
    // Sealed under another APP_SECRET: unreadable by design. The owner makes a new one.
    return null;
  }
}

/** Makes a new key; the previous one stops working in the same statement. */
export async function resetApiKey(ctx: AppContext, userId: string): Promise<string> {
  const key = newApiKey();
  await putKey(ctx.db, {
    userId,
    hash: sha256(key),
    sealed: seal(ctx.config.APP_SECRET, key),
    at: ctx.clock.now(),
  });
  return key;
}

export async function deleteApiKey(ctx: AppContext, userId: string): Promise<boolean> {
  return deleteKey(ctx.db, userId);
}

/** Longer than any key we make: anything longer is refused before it is hashed. */
const KEY_MAX = 200;

/**
 * The registry's API-key authenticator: finds the key by its hash, refuses an inactive account,
 * and counts the call in the user's rate-limit window (kept in the database, so every process
 * shares it).
 */
export async function authenticateApiKey(ctx: AppContext, key: string | undefined): Promise<ApiKeyAuth> {
  if (!key) throw new DomainError('api_key_missing', 'An API key is required.');
  const userId = key.length <= KEY_MAX ? await findKeyOwner(ctx.db, sha256(key)) : undefined;
  if (!userId) throw new DomainError('api_key_invalid', 'This API key is not valid.');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new DomainError('api_key_invalid', 'This API key is not valid.');
  if (user.status !== 'Active') {
    throw new DomainError('account_inactive', 'This account is inactive. Please contact support.');
  }
  const windowMs = ctx.config.API_RATE_WINDOW_SECONDS * 1000;
  const now = ctx.clock.now().getTime();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const hits = await countCall(ctx.db, userId, new Date(windowStart));
  const limit = ctx.config.API_RATE_LIMIT;
  return {
    user: { id: user.id, username: user.username, roles: rolesFromClaim(user.roles) },
    rate: {
      limit,
      remaining: limit - hits,
      resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    },
  };
}
