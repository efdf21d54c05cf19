import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer.ts';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['BeArEr   abc  ', 'abc'],
    ['Bearer\tabc', 'abc'],
  ])('reads %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
  it.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Basic abc'], ['Bearerabc'], ['Token abc']])(
    'finds no token in %j',
    (header) => {
      expect(bearerToken(header)).toBeUndefined();
    },
  );
});
