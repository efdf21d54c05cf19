import { describe, expect, it } from 'vitest';
import { hashPassword, unknownUserHash, verifyPassword, verifyUnknownUser } from './passwords.ts';

/** `$argon2id$v=19$m=…,t=…,p=…$`: the algorithm and its cost, without salt and hash. */
const costOf = (h: string) => h.split('$').slice(0, 4).join('$');

describe('passwords', () => {
  it('hashes with argon2id at OWASP’s minimum cost and verifies only the right password', async () => {
    const h = await hashPassword('correct horse');
    expect(costOf(h)).toBe('$argon2id$v=19$m=19456,t=2,p=1');
    expect(await verifyPassword(h, 'correct horse')).toBe(true);
    expect(await verifyPassword(h, 'correct horsE')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });

  it('checks an unknown username against a hash of the same cost as a real one, and never accepts', async () => {
    expect(costOf(await unknownUserHash())).toBe(costOf(await hashPassword('anything')));
    expect(await unknownUserHash()).toBe(await unknownUserHash());
    expect(await verifyUnknownUser('anything')).toBe(false);
  });
});
