import {
  ADMIN_ROLE,
  type AdminUser,
  type AdminUserInput,
  type AdminUserListBody,
  type AdminUserListResponse,
  type DeleteUserResponse,
  parseBalance,
  ROLES,
  totalPages,
  USER_PAGE_SIZES,
  type UserStatus,
  validateAdminUser,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { assertNoFieldErrors, conflict, DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { adjust, totalHeld } from '../billing/index.ts';
import { hashPassword } from './passwords.ts';
import {
  balanceDelta,
  clashWith,
  deactivateUser,
  deleteUserRow,
  insertAdminUser,
  listUsersPage,
  lockActiveAdmins,
  lockUser,
  updateAdminUser,
  userCounts,
} from './users.admin.queries.ts';
import type { UserRow } from './users.queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const userNotFound = () =>
  notFound('User not found. It may have been deleted; reload the list.', 'user_not_found');
const isActiveAdmin = (u: { roles: readonly string[]; status: string }) =>
  u.status === 'Active' && u.roles.includes(ADMIN_ROLE);

export function toAdminUser(u: UserRow, secondFactor: boolean): AdminUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    roles: u.roles,
    status: u.status,
    balance: Number(u.balance),
    createdAt: new Date(u.created_at).toISOString(),
    secondFactor,
  };
}

/** What the audit log keeps of a user (never the password hash). */
const snapshot = (u: UserRow) => ({
  username: u.username,
  email: u.email,
  roles: u.roles,
  status: u.status,
  balance: u.balance,
});

export async function listUsers(ctx: AppContext, body: AdminUserListBody): Promise<AdminUserListResponse> {
  const pageSize = body?.pageSize ?? USER_PAGE_SIZES[0];
  const { rows, total, ...paged } = await listUsersPage(
    ctx.db,
    { search: body?.search?.trim() ?? '', sort: body?.sort ?? 'username', dir: body?.dir ?? 'asc' },
    { page: body?.page ?? 1, pageSize, after: body?.after, before: body?.before },
  );
  const counts = await userCounts(ctx.db, new Date(ctx.clock.now().getTime() - 7 * DAY_MS));
  const held = await totalHeld(ctx.db);
  const withFactor = await ctx.registry.secondFactorUsers(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    code: 1,
    users: rows.map((r) => toAdminUser(r, withFactor.has(r.id))),
    total,
    page: body?.page ?? 1,
    totalPages: totalPages(total, pageSize),
    ...paged,
    stats: {
      totalUsers: counts.total,
      activeUsers: counts.active,
      totalBalance: Number(held),
      newUsers7d: counts.recent,
    },
  };
}

/** Refuses a change that would leave no active administrator (the admin rows are locked). */
function assertAdminRemains(admins: string[], targetId: string): void {
  if (admins.filter((id) => id !== targetId).length === 0) {
    throw new DomainError('last_admin', 'At least one active Admin9 must remain.');
  }
}

const selfProtected = (msg: string, field?: string) => new DomainError('self_protected', msg, field);

function takenError(which: 'username' | 'email'): DomainError {
  return which === 'username'
    ? conflict('This username is already taken.', 'username', 'username_taken')
    : conflict('This email is already used by another account.', 'email', 'email_taken');
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

/** Books new − old as one admin adjustment (with who made it), audited; nothing when equal. */
async function setBalance(
  ctx: AppContext,
  q: Queryable,
  actor: AuditActor,
  user: { id: string; username: string },
  newBalance: string,
  oldBalance: string,
): Promise<void> {
  const delta = await balanceDelta(q, user.id, newBalance);
  if (/^-?0(\.0+)?$/.test(delta)) return;
  const at = ctx.clock.now();
  const auditId = await recordAudit(q, {
    actor,
    kind: 'user.balance',
    targetId: user.id,
    targetLabel: user.username,
    before: { balance: oldBalance },
    after: { balance: newBalance, delta },
    at,
  });
  await adjust(q, { userId: user.id, delta, actorId: actor.id, ref: `audit:${auditId}`, at });
}

/** Add (no id) or edit a user (User Manager). Every refusal changes nothing (one transaction). */
export async function saveUser(
  ctx: AppContext,
  actor: AuditActor,
  input: AdminUserInput,
): Promise<{ user: AdminUser; created: boolean }> {
  const id = input.id?.trim() || null;
  const username = input.username.trim().toLowerCase();
  const email = input.email.trim().toLowerCase();
  const roles = ROLES.filter((r) => input.roles.includes(r));
  const status: UserStatus = input.status ?? 'Active';
  assertNoFieldErrors(
    validateAdminUser({
      username,
      email,
      roles: input.roles,
      balance: input.balance,
      password: input.password,
      isNew: id === null,
    }),
  );
  const balance =
    input.balance === undefined || (typeof input.balance === 'string' && input.balance.trim() === '')
      ? undefined
      : parseBalance(input.balance);
  if (id !== null && !isUuid(id)) throw userNotFound();
  const password = input.password?.trim() ? input.password : null;
  const passwordHash = password === null ? null : await hashPassword(password);

  try {
    return await ctx.db.tx(async (q) => {
      const admins = await lockActiveAdmins(q);
      const before = id === null ? undefined : await lockUser(q, id);
      if (id !== null && !before) throw userNotFound();
      const clash = await clashWith(q, { username, email, exceptId: id });
      if (clash) throw takenError(clash);
      const at = ctx.clock.now();

      if (id === null) {
        const row = await insertAdminUser(q, {
          username,
          email,
          passwordHash: passwordHash!,
          roles,
          status,
          at,
        });
        await recordAudit(q, {
          actor,
          kind: 'user.create',
          targetId: row.id,
          targetLabel: row.username,
          after: snapshot(row),
          at,
        });
        if (balance !== undefined) await setBalance(ctx, q, actor, row, balance, row.balance);
        // A new account has no second factor yet.
        return { user: toAdminUser((await lockUser(q, row.id))!, false), created: true };
      }

      if (!before) throw userNotFound();
      if (id === actor.id) {
        if (status !== 'Active') throw selfProtected('You cannot deactivate your own account.', 'status');
        if (!roles.includes(ADMIN_ROLE)) {
          throw selfProtected('You cannot remove your own Admin9 role.', 'roles');
        }
      }
      if (isActiveAdmin(before) && !isActiveAdmin({ roles, status })) assertAdminRemains(admins, id);
      const rolesChanged = before.roles.join(',') !== roles.join(',');
      await updateAdminUser(q, id, {
        username,
        email,
        roles,
        status,
        passwordHash,
        // Deactivation, a new password or other roles end the user's sessions at once.
        endSessions: status === 'Inactive' || passwordHash !== null || (rolesChanged && id !== actor.id),
      });
      if (balance !== undefined) await setBalance(ctx, q, actor, before, balance, before.balance);
      const after = (await lockUser(q, id))!;
      await recordAudit(q, {
        actor,
        kind: 'user.update',
        targetId: id,
        targetLabel: after.username,
        before: snapshot(before),
        after: { ...snapshot(after), ...(passwordHash ? { passwordChanged: true } : {}) },
        at,
      });
      // Through the transaction's own connection (PGlite has one).
      const factor = await ctx.registry.secondFactorUsers(q, [id]);
      return { user: toAdminUser(after, factor.has(id)), created: false };
    });
  } catch (err) {
    // A concurrent insert of the same name slipped past the check: the unique index decides.
    if (isUniqueViolation(err)) {
      const detail = String((err as { constraint?: unknown }).constraint ?? (err as Error).message);
      throw takenError(detail.includes('email') ? 'email' : 'username');
    }
    throw err;
  }
}

/**
 * Deletes a user without history; a user with a balance or history another module keeps (orders,
 * money movements, later payments and messages) is deactivated instead, and their sessions end.
 */
export async function removeUser(
  ctx: AppContext,
  actor: AuditActor,
  id: string,
): Promise<DeleteUserResponse> {
  const targetId = id.trim();
  if (!isUuid(targetId)) throw userNotFound();
  if (targetId === actor.id) throw selfProtected('You cannot delete your own account.');
  return ctx.db.tx(async (q) => {
    const admins = await lockActiveAdmins(q);
    const user = await lockUser(q, targetId);
    if (!user) throw userNotFound();
    if (isActiveAdmin(user)) assertAdminRemains(admins, targetId);
    const reasons: string[] = [];
    if (Number(user.balance) > 0) reasons.push('a balance');
    for (const check of ctx.registry.userHistoryChecks) {
      const why = await check(q, targetId);
      if (why) reasons.push(why);
    }
    const at = ctx.clock.now();
    if (reasons.length === 0) {
      await recordAudit(q, {
        actor,
        kind: 'user.delete',
        targetId,
        targetLabel: user.username,
        before: snapshot(user),
        at,
      });
      await deleteUserRow(q, targetId);
      return { code: 1 as const, msg: `User ${user.username} deleted.`, outcome: 'deleted' as const };
    }
    await deactivateUser(q, targetId);
    await recordAudit(q, {
      actor,
      kind: 'user.deactivate',
      targetId,
      targetLabel: user.username,
      before: snapshot(user),
      after: { ...snapshot(user), status: 'Inactive', reasons },
      at,
    });
    return {
      code: 1 as const,
      msg: `User ${user.username} has ${reasons.join(', ')}, so the account was deactivated instead of deleted.`,
      outcome: 'deactivated' as const,
    };
  });
}
