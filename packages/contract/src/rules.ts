import type { RuleMessageKey } from './messages.ts';
import { isMoney } from './money.ts';

/** Field name → message key of the first rule it breaks. Empty object = valid. */
export type FieldErrors<F extends string> = Partial<Record<F, RuleMessageKey>>;

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,16}$/;
export const USERNAME_MAX = 16;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
/** RFC 5321's limit on a forward path; longer is never a real address. */
export const EMAIL_MAX = 254;
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}$/;

export function usernameError(username: string): RuleMessageKey | undefined {
  if (!username) return 'usernameRequired';
  if (username.length > USERNAME_MAX) return 'usernameFormat';
  if (!USERNAME_PATTERN.test(username)) return 'usernameFormat';
  return undefined;
}

export function emailError(email: string): RuleMessageKey | undefined {
  if (!email) return 'emailRequired';
  if (email.length > EMAIL_MAX || !isEmailLike(email)) return 'emailInvalid';
  return undefined;
}

/**
 * Address-like: something@something.tld — exactly one "@", no whitespace or control characters,
 * and a dot inside the domain with something on both sides. Deliberately permissive, as mail
 * servers are. Written without a regular expression over the whole address: a single pass, so a
 * crafted address (thousands of dots) costs linear time, never quadratic.
 */
export function isEmailLike(email: string): boolean {
  const at = email.indexOf('@');
  if (at < 1 || at !== email.lastIndexOf('@')) return false;
  for (let i = 0; i < email.length; i++) {
    const c = email.charCodeAt(i);
    // Control characters, space, DEL, and the Unicode spaces \s covers.
    if (c <= 0x20 || c === 0x7f || (c > 0x7f && /\s/.test(email[i]!))) return false;
  }
  const domain = email.slice(at + 1);
  // A dot with at least one character before and after it, within the domain.
  return domain.length >= 3 && domain.slice(1, -1).includes('.');
}

export function passwordError(password: string): RuleMessageKey | undefined {
  if (!password) return 'passwordRequired';
  if (password.length < PASSWORD_MIN) return 'passwordTooShort';
  if (password.length > PASSWORD_MAX) return 'passwordTooLong';
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

export interface LoginForm {
  username: string;
  password: string;
}

/**
 * Sign in: both fields required (an empty username is all whitespace). Their format is the account's
 * business; a wrong one is the server's "Invalid username or password".
 */
export function validateLogin(form: LoginForm): FieldErrors<keyof LoginForm> {
  const errors: FieldErrors<keyof LoginForm> = {};
  if (!form.username.trim()) errors.username = 'usernameRequired';
  if (!form.password) errors.password = 'passwordRequired';
  return errors;
}

/** Username and email are lower-cased on input (docs/product.md#forms), on both sides. */
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
  /** Absent: a box (Ejoin). */
  kind?: 'ejoin' | 'smsgate' | 'goip';
  /** A phone's mode (required for a phone: local, cloud, private); a GoIP box's (udp, web; absent: udp). */
  mode?: 'local' | 'cloud' | 'private' | 'udp' | 'web' | undefined;
  /** A GoIP box's web login (required in web mode). */
  webUser?: string | undefined;
}

export type GatewayFormField = 'name' | 'url' | 'mac' | 'userName' | 'mode' | 'webUser';

const PHONE_MODE_SET: ReadonlySet<string> = new Set(['local', 'cloud', 'private']);
const GOIP_MODE_SET: ReadonlySet<string> = new Set(['udp', 'web']);

/**
 * The fields of a gateway form that are not valid, in the form's order. Every kind needs a name, a
 * user name and an http(s) URL (a Cloud phone may leave the URL blank: the public server is used;
 * a phone whose mode is not chosen yet is blamed for the mode, not for a blank URL; a GoIP box may
 * leave it blank in udp mode: its lines connect to the platform); an Ejoin box needs its MAC (six
 * hex pairs), a phone its mode. A GoIP box's user name is its ID, which names its lines; in web mode
 * it needs the URL of its web pages and their login. A mode of another kind (a phone's on a GoIP box,
 * any on an Ejoin box) is the mode's problem.
 */
export function gatewayFormProblems(g: GatewayForm): GatewayFormField[] {
  const phone = g.kind === 'smsgate';
  const goip = g.kind === 'goip';
  const web = goip && g.mode === 'web';
  const bad: GatewayFormField[] = [];
  if (g.name.trim() === '') bad.push('name');
  const modeOk = phone
    ? g.mode !== undefined && PHONE_MODE_SET.has(g.mode)
    : goip
      ? g.mode === undefined || GOIP_MODE_SET.has(g.mode)
      : g.mode === undefined;
  if (!modeOk) bad.push('mode');
  const blankUrlAllowed =
    ((goip && !web) || (phone && g.mode !== 'local' && g.mode !== 'private')) && g.url.trim() === '';
  if (!blankUrlAllowed && !isHttpUrl(g.url.trim())) bad.push('url');
  if (!phone && !goip && normalizeMac(g.mac) === undefined) bad.push('mac');
  if (g.userName.trim() === '' || (goip && !isGoipBoxId(g.userName.trim()))) bad.push('userName');
  if (web && (g.webUser ?? '').trim() === '') bad.push('webUser');
  return bad;
}

/**
 * A GoIP box's ID as the platform can tell its lines apart by it: letters, digits, `_`, `-` and
 * `.` (its lines send it inside `;`- and `:`-separated packets, followed by their line number).
 */
export function isGoipBoxId(id: string): boolean {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(id);
}

/** The first field of a gateway form that is not valid (gatewayFormProblems), or null. */
export function gatewayFormProblem(g: GatewayForm): GatewayFormField | null {
  return gatewayFormProblems(g)[0] ?? null;
}

/** Valid only if every field the device kind needs is filled correctly (gatewayFormProblem). */
export function isGatewayValid(g: GatewayForm): boolean {
  return gatewayFormProblem(g) === null;
}

/** Plain decimal: optional sign, digits with an optional fraction (no exponent, no 0x/0b/0o). */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const FORM_NUMBER_TEXT_MAX = 32;

/**
 * A form number as the server reads it: numbers as they are; plain decimal strings ("12.5") as
 * numbers; empty strings, null and text that is no number at all ("abc") as 0, as docs/product.md#forms says.
 * Undefined means refused: hex/binary/octal or exponent notation ("0x10", "1e400"), Infinity,
 * arrays, objects, booleans, and anything longer than 32 characters. Those are not typing
 * slips but another reading of a number than the one the user sees, so they are not guessed at.
 */
export function parseFormNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value === null) return 0;
  if (typeof value !== 'string') return undefined;
  if (value.length > FORM_NUMBER_TEXT_MAX) return undefined;
  const t = value.trim();
  if (t === '') return 0;
  if (PLAIN_DECIMAL.test(t)) return Number(t);
  // Number() would read it as a number in some other notation: refuse rather than reinterpret.
  if (!Number.isNaN(Number(t))) return undefined;
  return 0;
}

export const formNumberMessage = (label: string) => `${label} must be a plain number, such as 12.5.`;

/** Numbers are coerced; anything non-numeric becomes 0 (docs/product.md#forms). */
export function coerceNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
  return Number.isFinite(n) ? n : 0;
}

/** price is numeric(14,2); stock and rent time are SQL integers: caps well inside both. */
export const PRICE_MAX = 1_000_000;
export const STOCK_MAX = 1_000_000;
/** One year, in minutes. */
export const RENT_TIME_MAX = 525_600;

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
  else if (!(s.price <= PRICE_MAX)) errors.price = 'priceTooHigh';
  else if (!isMoney(s.price)) errors.price = 'priceDecimals';
  if (!(s.stock >= 0)) errors.stock = 'stockInvalid';
  else if (!(s.stock <= STOCK_MAX)) errors.stock = 'stockTooHigh';
  if (!(s.rentTimeMinutes >= 0)) errors.rentTimeMinutes = 'rentTimeInvalid';
  else if (!(s.rentTimeMinutes <= RENT_TIME_MAX)) errors.rentTimeMinutes = 'rentTimeTooHigh';
  return errors;
}

export const GATEWAY_ONLINE_MS = 3 * 60 * 1000;

/** Online when server time minus lastUpdate is at most 3 minutes (docs/product.md#states-and-colours). */
export function isOnline(lastUpdate: string | number | Date | null | undefined, now: number): boolean {
  if (lastUpdate === null || lastUpdate === undefined) return false;
  const t = new Date(lastUpdate).getTime();
  return Number.isFinite(t) && now - t <= GATEWAY_ONLINE_MS;
}
