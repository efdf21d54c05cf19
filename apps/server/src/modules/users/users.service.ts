import { rolesFromClaim, type UserInfo, validateChangePassword } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { assertNoFieldErrors, badInput, notFound } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { findUserById, updatePasswordHash } from './users.queries.ts';

export async function userInfo(ctx: AppContext, userId: string): Promise<UserInfo> {
  const u = await findUserById(ctx.db, userId);
  if (!u) throw notFound('User not found.');
  return {
    username: u.username,
    email: u.email,
    createdTime: u.created_at.toISOString(),
    apiKey: null,
    balance: u.balance,
    roles: rolesFromClaim(u.roles),
  };
}

export async function changePassword(
  ctx: AppContext,
  userId: string,
  input: { oldPass: string; newPass: string },
): Promise<void> {
  assertNoFieldErrors(validateChangePassword(input));
  const u = await findUserById(ctx.db, userId);
  if (!u) throw notFound('User not found.');
  if (!(await verifyPassword(u.password_hash, input.oldPass))) {
    throw badInput('The old password is not correct.', 'oldPass');
  }
  await updatePasswordHash(ctx.db, userId, await hashPassword(input.newPass));
}
