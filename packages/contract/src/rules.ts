import type { RuleMessageKey } from './messages.ts';

/** Field name → message key of the first rule it breaks. Empty object = valid. */
export type FieldErrors<F extends string> = Partial<Record<F, RuleMessageKey>>;

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,16}$/;
export const PASSWORD_MIN = 8;
// Address-like: something@something.tld, no spaces. Deliberately permissive, as mail servers are.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}$/;

export function usernameError(username: string): RuleMessageKey | undefined {
  if (!username) return 'usernameRequired';
  if (!USERNAME_PATTERN.test(username)) return 'usernameFormat';
  return undefined;
}

export function emailError(email: string): RuleMessageKey | undefined {
  if (!email) return 'emailRequired';
  if (!EMAIL_PATTERN.test(email)) return 'emailInvalid';
  return undefined;
}

export function passwordError(password: string): RuleMessageKey | undefined {
  if (!password) return 'passwordRequired';
  if (password.length < PASSWORD_MIN) return 'passwordTooShort';
  return undefined;
}

export interface RegisterForm {
  username: string;
  email: string;
  password: string;
  /** Only the form has it; the server call carries no confirmation. */
  confirmPassword?: string;
}

export type RegisterField = 'username' | 'email' | 'password' | 'confirmPassword';

export function validateRegister(form: RegisterForm): FieldErrors<RegisterField> {
  const errors: FieldErrors<RegisterField> = {};
  const u = usernameError(form.username);
  if (u) errors.username = u;
  const e = emailError(form.email);
  if (e) errors.email = e;
  const p = passwordError(form.password);
  if (p) errors.password = p;
  if (form.confirmPassword !== undefined) {
    if (!form.confirmPassword) errors.confirmPassword = 'confirmRequired';
    else if (form.confirmPassword !== form.password) errors.confirmPassword = 'passwordsMismatch';
  }
  return errors;
}

/** Username and email are lower-cased on input (spec §5), on both sides. */
export function normalizeLogin(value: string): string {
  return value.trim().toLowerCase();
}

export interface ChangePasswordForm {
  oldPass: string;
  newPass: string;
  confirmPass?: string;
}

export function validateChangePassword(
  form: ChangePasswordForm,
): FieldErrors<'oldPass' | 'newPass' | 'confirmPass'> {
  const errors: FieldErrors<'oldPass' | 'newPass' | 'confirmPass'> = {};
  if (!form.oldPass) errors.oldPass = 'oldPasswordRequired';
  const p = passwordError(form.newPass);
  if (p) errors.newPass = p;
  if (form.confirmPass !== undefined && form.confirmPass !== form.newPass) {
    errors.confirmPass = 'newPasswordMismatch';
  }
  return errors;
}

/** MACs arrive as aa:bb:.., AA-BB-.. or aabb..; stored as lower-case colon pairs. */
export function normalizeMac(mac: string): string | undefined {
  const trimmed = mac.trim();
  if (!MAC_PATTERN.test(trimmed)) return undefined;
  const hex = trimmed.replace(/[:-]/g, '').toLowerCase();
  return hex.match(/../g)!.join(':');
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface GatewayForm {
  name: string;
  url: string;
  mac: string;
  userName: string;
}

/** Spec §5: valid only if every field is non-empty, the url parses and the mac is six hex pairs. */
export function isGatewayValid(g: GatewayForm): boolean {
  return (
    g.name.trim() !== '' &&
    g.userName.trim() !== '' &&
    isHttpUrl(g.url.trim()) &&
    normalizeMac(g.mac) !== undefined
  );
}

/** Numbers are coerced; anything non-numeric becomes 0 (spec §5). */
export function coerceNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  return Number.isFinite(n) ? n : 0;
}

export interface ServiceForm {
  name: string;
  code: string;
  price: number;
  stock: number;
  rentTimeMinutes: number;
}

export function validateService(
  s: ServiceForm,
): FieldErrors<'name' | 'code' | 'price' | 'stock' | 'rentTimeMinutes'> {
  const errors: FieldErrors<'name' | 'code' | 'price' | 'stock' | 'rentTimeMinutes'> = {};
  if (!s.name.trim()) errors.name = 'nameRequired';
  if (!s.code.trim()) errors.code = 'codeRequired';
  if (!(s.price > 0)) errors.price = 'priceInvalid';
  if (!(s.stock >= 0)) errors.stock = 'stockInvalid';
  if (!(s.rentTimeMinutes >= 0)) errors.rentTimeMinutes = 'rentTimeInvalid';
  return errors;
}

export const GATEWAY_ONLINE_MS = 3 * 60 * 1000;

/** Online when server time minus lastUpdate is at most 3 minutes (spec §4). */
export function isOnline(lastUpdate: string | number | Date | null | undefined, now: number): boolean {
  if (lastUpdate === null || lastUpdate === undefined) return false;
  const t = new Date(lastUpdate).getTime();
  return Number.isFinite(t) && now - t <= GATEWAY_ONLINE_MS;
}
