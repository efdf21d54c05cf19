import { describe, expect, it } from 'vitest';
import { countryFlag, countryName } from './countries.ts';

describe('countries', () => {
  it('names a country from its code, in a language', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('vn')).toBe('Vietnam');
    expect(countryName('DE', 'vi')).toBe('Đức');
  });

  it('gives the code back when there is no name', () => {
    expect(countryName('ZZ')).toBe('ZZ');
    expect(countryName('not a code')).toBe('not a code');
  });

  it('draws a flag from the regional-indicator letters', () => {
    expect(countryFlag('de')).toBe('\u{1F1E9}\u{1F1EA}');
    expect(countryFlag('D')).toBe('');
  });
});
