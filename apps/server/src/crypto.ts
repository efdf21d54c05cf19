import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hash,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { BoundedMap } from './bounded-map.ts';

// Secrets at rest (gateway passwords, API keys) are sealed with AES-256-GCM under a key derived
// from APP_SECRET. Changing APP_SECRET makes them unreadable, by design.

// The derived key is kept per secret (a process has one; tests a few): deriving it on every call
// was a tenth of a user/info request's CPU.
const keys = new BoundedMap<string, KeyObject>(16);

function key(secret: string): KeyObject {
  let k = keys.get(secret);
  if (!k) {
    k = createSecretKey(createHash('sha256').update(`seal:${secret}`).digest());
    keys.set(secret, k);
  }
  return k;
}

export function seal(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(secret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
}

/**
 * Opened values, by secret and sealed text. Opening is a pure function of the two, so a value read
 * again (a user's API key on each user/info) skips setting up AES-GCM, the costliest step of a
 * user/info request in a CPU profile. A changed value has a new sealed text (a fresh IV), so an old
 * one is never served for it. At most 10,000 per secret. Both memos are module-level (not in a
 * server's ctx.runtime) because they are pure functions of their full key (secret, sealed text).
 */
const opened = new BoundedMap<string, BoundedMap<string, string>>(16);

export function unseal(secret: string, sealed: string): string {
  let bySealed = opened.get(secret);
  if (!bySealed) {
    bySealed = new BoundedMap(10_000);
    opened.set(secret, bySealed);
  }
  let plain = bySealed.get(sealed);
  if (plain === undefined) {
    plain = open(secret, sealed);
    bySealed.set(sealed, plain);
  }
  return plain;
}

function open(secret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Hex SHA-256 of the text's UTF-8. One call, no Hash object: a third of createHash's cost (it is on every SMS). */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');
