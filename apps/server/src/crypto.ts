import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

// Secrets at rest (gateway passwords, API keys) are sealed with AES-256-GCM under a key derived
// from APP_SECRET. Changing APP_SECRET makes them unreadable, by design.

// The derived key is kept per secret (a process has one; tests a few): deriving it on every call
// was a tenth of a user/info request's CPU.
const keys = new Map<string, KeyObject>();

function key(secret: string): KeyObject {
  let k = keys.get(secret);
  if (!k) {
    if (keys.size >= 16) keys.clear();
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

export function unseal(secret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');
