export const ROLES = ['Admin9', 'Staff', 'User', 'SMS'] as const;
export type Role = (typeof ROLES)[number];
export const ADMIN_ROLE: Role = 'Admin9';
/** The role every new account gets. */
export const DEFAULT_ROLE: Role = 'User';

/** The JWT role claim is a string for one role and a list for several (docs/product.md#entities). */
export function rolesFromClaim(claim: unknown): Role[] {
  const list = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  return list.filter((r): r is Role => (ROLES as readonly string[]).includes(r));
}

export function roleClaim(roles: readonly Role[]): Role | Role[] {
  return roles.length === 1 ? roles[0]! : [...roles];
}

export function isAdmin(roles: readonly string[]): boolean {
  return roles.includes(ADMIN_ROLE);
}
