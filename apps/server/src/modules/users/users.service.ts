import { rolesFromClaim, type UserInfo, validateChangePassword } from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { batchLoaderPerServer } from '../../db/batch.ts';
import { assertNoFieldErrors, badInput, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findUserById, findUsersByIds, type UserRow, updatePasswordHash } from './users.queries.ts';

/**
 * Reads of a user by id that concurrent requests make (the sign-in check of every signed-in request,
 * the user/info call) share one statement per turn of the event loop: under load, one round trip
 * serves many requests. Never cached: each request reads data as of after it arrived.
 */
const readUser = batchLoaderPerServer((ctx: AppContext, ids: string[]) => findUsersByIds(ctx.db, ids, false));
const readActiveUser = batchLoaderPerServer((ctx: AppContext, ids: string[]) =>
  findUsersByIds(ctx.db, ids, true),
);

/** The user with this id if it is Active (undefined for a malformed id). */
export async function activeUserById(ctx: AppContext, id: string): Promise<UserRow | undefined> {
  return isUuid(id) ? readActiveUser(ctx, id.toLowerCase()) : undefined;
}

/**
 * The row the sign-in check of a request read, by the AuthUser made of it: the request's own
 * account (user/info) is answered from it instead of being read again. Held as long as the request
 * holds its AuthUser. Not a cache (nothing is looked up by value): the row travels with the request's
 * own AuthUser object, which only the server that made it ever holds.
 */
const signInRows = new WeakMap<AuthUser, UserRow>();

/** The signed-in user of a request, made of the row its sign-in check read. */
export function signedInUser(row: UserRow): AuthUser {
  const user: AuthUser = { id: row.id, username: row.username, roles: rolesFromClaim(row.roles) };
  signInRows.set(user, row);
  return user;
}

export async function userInfo(ctx: AppContext, user: AuthUser): Promise<UserInfo> {
  // The two reads are independent: one round trip's wait instead of two (none for the user when
  // the sign-in check of this request read it).
  const [u, apiKey] = await Promise.all([
    signInRows.get(user) ?? (isUuid(user.id) ? readUser(ctx, user.id.toLowerCase()) : undefined),
    ctx.registry.apiKeyOf(ctx, user.id),
  ]);
  if (!u) throw notFound('User not found.', 'user_not_found');
  return {
    username: u.username,
    email: u.email,
    createdTime: u.created_at.toISOString(),
    apiKey,
    balance: Number(u.balance),
    roles: rolesFromClaim(u.roles),
  };
}

export async function changePassword(
  ctx: AppContext,
  userId: string,
  input: { oldPass: string; newPass: string },
): Promise<{ tokenVersion: number }> {
  assertNoFieldErrors(validateChangePassword(input));
  const u = await findUserById(ctx.db, userId);
  if (!u) throw notFound('User not found.', 'user_not_found');
  if (!(await verifyPassword(u.password_hash, input.oldPass))) {
    throw badInput('The old password is not correct.', 'oldPass');
  }
  return { tokenVersion: await updatePasswordHash(ctx.db, userId, await hashPassword(input.newPass)) };
}
