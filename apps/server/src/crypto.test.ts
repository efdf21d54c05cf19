import { describe, expect, it } from 'vitest';
import { seal, sha256, unseal } from './crypto.ts';

const SECRET = 'a-secret-long-enough-for-the-test-0001';
const OTHER = 'another-secret-long-enough-for-test-02';

describe('seal and unseal', () => {
  it('opens what it sealed, again and again, and seals the same value differently each time', () => {
    const a = seal(SECRET, 'sd_key-1 ✓');
    const b = seal(SECRET, 'sd_key-1 ✓');
    expect(a).not.toBe(b);
    expect(unseal(SECRET, a)).toBe('sd_key-1 ✓');
    expect(unseal(SECRET, a)).toBe('sd_key-1 ✓');
    expect(unseal(SECRET, b)).toBe('sd_key-1 ✓');
  });

  it('refuses another secret even for a value it opened before (what it keeps is per secret)', () => {
    const sealed = seal(SECRET, 'gateway-password');
    expect(unseal(SECRET, sealed)).toBe('gateway-password');
    expect(() => unseal(OTHER, sealed)).toThrow();
  });

  it('refuses a sealed text changed by one character', () => {
    const sealed = seal(SECRET, 'webhook-secret');
    expect(unseal(SECRET, sealed)).toBe('webhook-secret');
    // A character inside the IV (the last one may carry only padding bits).
    const changed = sealed[10] === 'A' ? 'B' : 'A';
    expect(() => unseal(SECRET, `${sealed.slice(0, 10)}${changed}${sealed.slice(11)}`)).toThrow();
  });
});

describe('sha256', () => {
  it('is the hex SHA-256 of the text as UTF-8 (stored dedupe keys and token hashes were made so)', () => {
    // FIPS 180-2's example, and a text beyond ASCII.
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256('Telegram code: 48213 ✓')).toBe(
      '4b96999427bf0d55f9cc56b94ce83c787cd9fd8720fce68d1acf57e8ab9a81ce',
    );
  });
});
