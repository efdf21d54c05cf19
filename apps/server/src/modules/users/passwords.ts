import { hash, verify } from '@node-rs/argon2';

// argon2id with the library defaults (m=19456 KiB, t=2, p=1): OWASP's recommended minimum.
export const hashPassword = (plain: string) => hash(plain);

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * The work of a real check for a user that does not exist: the same argon2 verify, against a fixed
 * hash made once (lazily), so an unknown username costs as long as a wrong password. Always false.
 */
export async function verifyUnknownUser(plain: string): Promise<false> {
  dummy ??= hash(`no such user ${Math.random()}`);
  await verifyPassword(await dummy, plain);
  return false;
}
