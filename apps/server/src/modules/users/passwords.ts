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

/** The fixed hash unknown usernames are checked against: made once (lazily), like any stored hash. */
export function unknownUserHash(): Promise<string> {
  dummy ??= hash(`no such user ${Math.random()}`);
  return dummy;
}

/**
 * The work of a real check for a user that does not exist: the same argon2 verify, against
 * `unknownUserHash()`, so an unknown username costs as long as a wrong password. Always false.
 */
export async function verifyUnknownUser(plain: string): Promise<false> {
  await verifyPassword(await unknownUserHash(), plain);
  return false;
}
