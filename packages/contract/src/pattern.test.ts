import { describe, expect, it } from 'vitest';
import { extractCode, patternProblem } from './pattern.ts';

describe('patternProblem', () => {
  it.each([
    '\\d{4,8}',
    '(\\d{5})',
    'code[: ]+(\\d{6})',
    '\\b[A-Z0-9]{6}\\b',
    'G-(\\d{6})',
    '(?:\\d{3}-\\d{3})',
    // Nested repetition is harmless on a linear-time engine.
    '(a+)+',
  ])('accepts %s', (p) => {
    expect(patternProblem(p)).toBeUndefined();
  });

  it.each([
    ['', /required/],
    ['(', /not a valid regular expression/],
    ['x'.repeat(201), /at most 200/],
    ['(a)\\1', /not a valid regular expression/],
    ['(?<=a)b', /not a valid regular expression/],
  ])('refuses %s', (p, msg) => {
    expect(patternProblem(p)).toMatch(msg);
  });
});

// Known catastrophic-backtracking patterns (they hang a backtracking engine for seconds to
// minutes on these texts); on RE2 each match finishes at once.
const REDOS: [string, string][] = [
  ['(a|aa)+$', `${'a'.repeat(41)}!`],
  ['(a+)+$', `${'a'.repeat(5000)}!`],
  ['(a*)*b', 'a'.repeat(5000)],
  ['(x+x+)+y', 'x'.repeat(5000)],
  ['^(\\w+\\s?)*$', `${'word '.repeat(1000)}!`],
  ['(\\d+)*\\d{6}!', '1'.repeat(5000)],
  ['(.*a){20}', 'a'.repeat(2000)],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', `${'aaaaaaaaaa'.repeat(200)}!`],
];

describe('extractCode on RE2', () => {
  it('takes the first capture group, else the whole match', () => {
    expect(extractCode('Your code: 123456', 'code: (\\d{6})')).toBe('123456');
    expect(extractCode('G-654321 is your code', 'G-(\\d{6})')).toBe('654321');
    expect(extractCode('use 4821 now', '\\d{4,8}')).toBe('4821');
    expect(extractCode('no digits here', '\\d{4,8}')).toBeUndefined();
    expect(extractCode('abc 123', '(x)?(\\d+)')).toBe('123');
  });

  it('gives the same answers when patterns are reused, invalid ones and past the compiled-pattern bound', () => {
    for (let round = 0; round < 2; round++) {
      expect(extractCode('Your code: 123456', 'code: (\\d{6})')).toBe('123456');
      expect(extractCode('code: 654321', 'code: (\\d{6})')).toBe('654321');
      expect(extractCode('code: 1', '(\\d')).toBeUndefined();
      // More distinct patterns than the server keeps compiled.
      for (let n = 0; n < 600; n++) expect(extractCode(`id ${n}-42`, `${n}-(\\d+)`)).toBe('42');
    }
  });

  it.each(REDOS)('matches %s against a hostile text in milliseconds', (pattern, text) => {
    expect(patternProblem(pattern)).toBeUndefined();
    const started = performance.now();
    for (let i = 0; i < 5; i++) extractCode(text, pattern);
    // A backtracking engine takes seconds to minutes here; RE2 is linear in the text.
    expect((performance.now() - started) / 5).toBeLessThan(250);
  });
});
