import type { RuleMessageKey } from './messages.ts';
import { moneyText } from './money.ts';
import { amountText, PRICE_DECIMALS } from './pricing.ts';
import { ROLES } from './roles.ts';
import { EMAIL_MAX, type FieldErrors, isEmailLike, passwordError, USERNAME_PATTERN } from './rules.ts';

export type AdminUserField = 'username' | 'email' | 'roles' | 'balance' | 'password';

export interface AdminUserForm {
  username: string;
  email: string;
  roles: readonly string[];
  /** The new balance as typed (number or text); blank means 0 for a new user, unchanged on edit. */
  balance?: unknown;
  password?: string;
  /** A new user needs a password. */
  isNew: boolean;
}

/**
 * The balance as exact decimal text ("12.5" → "12.50", "9.9775" stays), or undefined when it is not
 * a number ≥ 0 with at most four decimals (balances have them since messages are priced per
 * segment; decided on the decimal text: see money.ts).
 */
export const parseBalance = (value: unknown): string | undefined => {
  const text = moneyText(value, PRICE_DECIMALS);
  return text === undefined ? undefined : amountText(text);
};

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Admin user edit (docs/product.md#forms): username required, email address-like, at least one role, roles from
 * the allowed list.
 */
export function validateAdminUser(form: AdminUserForm): FieldErrors<AdminUserField> {
  const errors: FieldErrors<AdminUserField> = {};
  const username = form.username.trim();
  if (!username) errors.username = 'usernameRequired';
  else if (!USERNAME_PATTERN.test(username)) errors.username = 'usernameFormat';
  const email = form.email.trim();
  if (email.length > EMAIL_MAX || !isEmailLike(email)) errors.email = 'invalidEmail';
  if (form.roles.length === 0) errors.roles = 'rolesRequired';
  else if (form.roles.some((r) => !(ROLES as readonly string[]).includes(r))) errors.roles = 'invalidRoles';
  if (!blank(form.balance) && parseBalance(form.balance) === undefined) errors.balance = 'balanceInvalid';
  if (form.isNew || !blank(form.password)) {
    const p: RuleMessageKey | undefined = passwordError(form.password ?? '');
    if (p) errors.password = p;
  }
  return errors;
}
