import {
  type AdminUser,
  type AdminUserInput,
  amountText,
  type UserStatus,
  validateAdminUser,
} from '@simdock/contract';
import { ruleResolver, serverFieldErrorOf } from '../../lib/forms.ts';

export interface UserFormValues {
  username: string;
  email: string;
  password: string;
  roles: string[];
  status: UserStatus;
  /** As typed; the server books the difference as an admin adjustment. */
  balance: string;
}

export const emptyUserForm = (): UserFormValues => ({
  username: '',
  email: '',
  password: '',
  roles: ['User'],
  status: 'Active',
  balance: '0',
});

export const formFromUser = (u: AdminUser): UserFormValues => ({
  username: u.username,
  email: u.email,
  password: '',
  roles: [...u.roles],
  status: u.status,
  // Exact, with the decimals it has (4 since messages are priced per segment): saving the form
  // unchanged never books a rounding adjustment.
  balance: amountText(String(u.balance)),
});

/** The contract's admin user rules, as a react-hook-form resolver. */
export const userFormResolver = (isNew: boolean) =>
  ruleResolver<UserFormValues>((v) => validateAdminUser({ ...v, isNew }));

export function toUserInput(v: UserFormValues, id?: string): AdminUserInput {
  return {
    ...(id ? { id } : {}),
    username: v.username.trim().toLowerCase(),
    email: v.email.trim().toLowerCase(),
    ...(v.password ? { password: v.password } : {}),
    roles: v.roles,
    status: v.status,
    balance: v.balance.trim(),
  };
}

const FIELDS = ['username', 'email', 'password', 'roles', 'balance', 'status'] as const;
export type UserFormField = (typeof FIELDS)[number];

/** A refusal the server pinned on a form field: a rule key when it is a rule text, else its message. */
export function serverUserFieldError(err: unknown) {
  return serverFieldErrorOf<UserFormField>(err, FIELDS);
}

/** A role's name for people (lib/labels.ts). */
export { roleLabel } from '../../lib/labels.ts';
