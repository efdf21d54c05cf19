import { describe, expect, it } from 'vitest';
import { patternProblem } from './pattern.ts';

describe('patternProblem', () => {
  it.each([
    '\\d{4,8}',
    '(\\d{5})',
    'code[: ]+(\\d{6})',
    '\\b[A-Z0-9]{6}\\b',
    'G-(\\d{6})',
    '(?:\\d{3}-\\d{3})',
  ])('accepts %s', (p) => {
    expect(patternProblem(p)).toBeUndefined();
  });

  it.each([
    ['', /required/],
    ['(', /not a valid regular expression/],
    ['x'.repeat(201), /at most 200/],
    ['(a+)+', /nest/],
    ['(\\d*)*', /nest/],
    ['(?:a|b+){2,}', /nest/],
    ['((ab)+c)*', /nest/],
    ['(a)\\1', /back-references/],
  ])('refuses %s', (p, msg) => {
    expect(patternProblem(p)).toMatch(msg);
  });
});
