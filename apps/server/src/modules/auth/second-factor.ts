import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

// Pure pieces of the TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s steps, the defaults every
// authenticator app reads), kept apart from the database for unit tests.

export const TOTP_PERIOD = 30;
const ISSUER = 'SimDock';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** What a user typed, without spaces and dashes, lower case. */
export function normalizeCode(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase();
}

export const isTotpCode = (normalized: string) => /^\d{6}$/.test(normalized);

/**
 * The time step a code belongs to, within ±1 step of `now` (clock drift), or null. The caller
 * accepts it only when the step is later than the last one used (a code works once).
 */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!isTotpCode(code)) return null;
  const timestamp = now.getTime();
  const delta = totpFor(secretBase32, '').validate({ token: code, timestamp, window: 1 });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TOTP_PERIOD) + delta;
}

// Crockford-style alphabet without look-alikes (no i, l, o, u): easy to read off paper.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** One recovery code: ten characters of a 32-letter alphabet (50 bits), shown as `xxxxx-xxxxx`. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let s = '';
  for (const b of bytes) s += ALPHABET[b & 31];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

export function newRecoveryCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newRecoveryCode());
  return [...codes];
}

/** A normalised input that has the shape of a recovery code. */
export const isRecoveryCode = (normalized: string) => /^[0-9a-hjkmnp-tv-z]{10}$/.test(normalized);
