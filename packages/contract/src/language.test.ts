import { describe, expect, it } from 'vitest';
import { preferredLanguage } from './language.ts';

describe('preferredLanguage', () => {
  it('is English without a header, or when the header names neither language', () => {
    expect(preferredLanguage(undefined)).toBe('en');
    expect(preferredLanguage('')).toBe('en');
    expect(preferredLanguage('fr-FR,de;q=0.8')).toBe('en');
  });

  it('takes the highest q, then the earlier entry, region tags included', () => {
    expect(preferredLanguage('vi-VN,vi;q=0.9,en;q=0.8')).toBe('vi');
    expect(preferredLanguage('en;q=0.5,vi;q=0.7')).toBe('vi');
    expect(preferredLanguage('fr,en-US,vi')).toBe('en');
    expect(preferredLanguage('VI;q=1,EN;q=1')).toBe('vi');
  });

  it('skips a language refused with q=0 or given a q that is not a number', () => {
    expect(preferredLanguage('vi;q=0,en;q=0.1')).toBe('en');
    expect(preferredLanguage('vi;q=abc,en;q=0.1')).toBe('en');
    expect(preferredLanguage('en;q=0,vi;q=0.2')).toBe('vi');
  });
});
