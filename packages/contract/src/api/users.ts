import { z } from 'zod';
import { boundedText } from '../limits.ts';
import { PageCursorFields, PagedAnswerFields } from '../pagination.ts';
import { PASSWORD_MAX } from '../rules.ts';

/** User Manager page sizes (docs/product.md#limits-and-timings); the first is the default. */
export const USER_PAGE_SIZES = [50, 100, 200, 500] as const;
export const USER_SORT_FIELDS = ['username', 'email', 'roles', 'status', 'balance', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const USER_STATUSES = ['Active', 'Inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Longest accepted strings (every string in the admin user API is bounded). */
export const USER_LIMITS = {
  username: 64,
  email: 254,
  password: PASSWORD_MAX,
  search: 100,
  id: 64,
  roles: 8,
} as const;

const pageSize = z.union([z.literal(50), z.literal(100), z.literal(200), z.literal(500)]);

/** POST /api/Admin/getUser (spec payload: none; every field optional). */
export const AdminUserListBody = z
  .object({
    // boundedText refuses NUL (PostgreSQL cannot store or compare it) and lone surrogates.
    search: boundedText(USER_LIMITS.search, 'Search').optional(),
    sort: z.enum(USER_SORT_FIELDS).optional(),
    dir: z.enum(['asc', 'desc']).optional(),
    page: z.number().int().min(1).max(1_000_000).optional(),
    pageSize: pageSize.optional(),
    ...PageCursorFields,
  })
  .optional();
export type AdminUserListBody = z.infer<typeof AdminUserListBody>;

/** A user in the admin list (docs/product.md#entities). */
export const AdminUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  status: z.enum(USER_STATUSES),
  balance: z.number(),
  createdAt: z.string(),
  /** Two-factor authentication is on (User Manager offers "Reset two-factor" only then). */
  secondFactor: z.boolean(),
});
export type AdminUser = z.infer<typeof AdminUser>;

/** The User Manager's stat cards. */
export const UserStats = z.object({
  totalUsers: z.number().int(),
  activeUsers: z.number().int(),
  totalBalance: z.number(),
  newUsers7d: z.number().int(),
});
export type UserStats = z.infer<typeof UserStats>;

export const AdminUserListResponse = z.object({
  code: z.literal(1),
  users: z.array(AdminUser),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
  ...PagedAnswerFields,
  stats: UserStats,
});
export type AdminUserListResponse = z.infer<typeof AdminUserListResponse>;

/**
 * Add (no id) and edit. Balance is the new balance (number or decimal text, at most two decimals,
 * ≥ 0); the server books the difference as an admin adjustment. A blank password keeps the old one.
 */
export const AdminUserInput = z.object({
  id: z.string().max(USER_LIMITS.id).optional(),
  username: z.string().max(USER_LIMITS.username),
  email: z.string().max(USER_LIMITS.email),
  password: z.string().max(USER_LIMITS.password).optional(),
  roles: z.array(z.string().max(32)).max(USER_LIMITS.roles),
  status: z.enum(USER_STATUSES).default('Active'),
  balance: z.union([z.number(), z.string().max(32)]).optional(),
});
export type AdminUserInput = z.input<typeof AdminUserInput>;

export const UpdateUserBody = z.object({ user: AdminUserInput });
export const UpdateUserResponse = z.object({ code: z.literal(1), msg: z.string(), user: AdminUser });
export type UpdateUserResponse = z.infer<typeof UpdateUserResponse>;

export const DeleteUserBody = z.object({ id: z.string().max(USER_LIMITS.id) });
export const DeleteUserResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  outcome: z.enum(['deleted', 'deactivated']),
});
export type DeleteUserResponse = z.infer<typeof DeleteUserResponse>;

/** Kinds of audited admin actions. */
export const AUDIT_KINDS = [
  'user.create',
  'user.update',
  'user.balance',
  'user.delete',
  'user.deactivate',
  // A password change refused because of too many wrong old passwords (the actor is the user).
  'user.passwordChangeLimited',
  'service.create',
  'service.update',
  'service.delete',
  'service.numberSpent',
  'service.numberUnspent',
  'service.numberReturned',
  'service.numbersReturned',
  // A service's price for one country (or operator) set or removed.
  'service.countryPrice',
  'gateway.create',
  'gateway.update',
  'gateway.delete',
  'gateway.simNumber',
  'gateway.simLock',
  'gateway.simUnlock',
  'gateway.simRole',
  'gateway.simUssd',
  // An admin corrected (or cleared the correction of) a SIM's country and operator.
  'gateway.simOrigin',
  'settings.update',
  // A destination country's message prices or permission, or the rule for the others.
  'settings.messageCountry',
  // A user's own API keys (the key itself is never recorded).
  'apikey.create',
  'apikey.delete',
  'apikey.reset',
  // The TOTP second factor: a user's own enrol, disable and new recovery codes; an admin's reset.
  'user.secondFactorEnable',
  'user.secondFactorDisable',
  'user.secondFactorRecoveryCodes',
  'user.secondFactorReset',
  // A user set a new password with an emailed link (the actor is that user).
  'user.passwordReset',
  // Too many wrong second-factor codes for the account (once per window; the owner is mailed).
  'user.secondFactorLimited',
  // An SMPP password made or replaced by the key's owner (the target is the key).
  'apikey.smppPassword',
  // An admin set a user's SMPP rate and bind limit.
  'smpp.limits',
  // A refused SMPP bind (once a minute per credential and reason): the reason and the address.
  'smpp.bindRefused',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export const AUDIT_PAGE_SIZE = 50;

/** POST /api/Admin/audit: filters (who = actor username, kind, date range as ISO dates) and paging. */
export const AuditListBody = z
  .object({
    actor: boundedText(USER_LIMITS.username, 'Who').optional(),
    kind: z.enum(AUDIT_KINDS).optional(),
    from: boundedText(40, 'From').optional(),
    to: boundedText(40, 'To').optional(),
    page: z.number().int().min(1).max(1_000_000).optional(),
    pageSize: z.number().int().min(1).max(500).optional(),
    ...PageCursorFields,
  })
  .optional();
export type AuditListBody = z.infer<typeof AuditListBody>;

export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  kind: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditListResponse = z.object({
  code: z.literal(1),
  entries: z.array(AuditEntry),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
  ...PagedAnswerFields,
});
export type AuditListResponse = z.infer<typeof AuditListResponse>;
