import { rolesFromClaim, type UserInfo, validateChangePassword } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { assertNoFieldErrors, badInput, notFound } from '../../errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findUserById, updatePasswordHash } from './users.queries.ts';

export async function userInfo(ctx: AppContext, userId: string): Promise<UserInfo> {
  // The two reads are independent: one round trip's wait instead of two.
  const [u, apiKey] = await Promise.all([findUserById(ctx.db, userId), ctx.registry.apiKeyOf(ctx, userId)]);
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
