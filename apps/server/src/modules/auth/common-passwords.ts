import { readFileSync } from 'node:fs';
import { badInput } from '../../errors.ts';

/** The message for a password on the list (register, change and reset all use it). */
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Choose another.';

let list: ReadonlySet<string> | undefined;

/** The shipped list (common-passwords.txt beside this file), read once on first use. */
function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
  return list;
}

/**
 * Whether a password is too common to accept: on the list (case-insensitively, ignoring spaces
 * around it), or made of one character repeated (eight spaces, "aaaaaaaa").
 */
export function isCommonPassword(password: string): boolean {
  if (/^(.)\1*$/su.test(password)) return true;
  return commonPasswords().has(password.trim().toLowerCase());
}

/** Throws bad_input on `field` for a too-common password. */
export function assertPasswordNotCommon(password: string, field: string): void {
  if (isCommonPassword(password)) throw badInput(COMMON_PASSWORD_MESSAGE, field);
}
