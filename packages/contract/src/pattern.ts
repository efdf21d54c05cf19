import { PATTERN_MAX_LENGTH } from './api/services.ts';

/**
 * Service patterns are admin-written regular expressions run on every incoming SMS. JavaScript's
 * engine backtracks, so a pattern like (a+)+ can hang the server on a crafted message. We accept
 * only patterns without nested quantifiers and without back-references (a "star height" of one),
 * which backtrack at most polynomially on the short texts an SMS has.
 * Returns an error text, or undefined when the pattern is acceptable.
 */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern) return 'Pattern is required';
  if (pattern.length > PATTERN_MAX_LENGTH) return `Pattern must be at most ${PATTERN_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern);
  } catch (err) {
    return `Pattern is not a valid regular expression: ${(err as Error).message}`;
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'Pattern must not use back-references';
  // Walk the source: for each group, remember whether it contains a quantifier; a quantified
  // group that does is a nested quantifier.
  const stack: boolean[] = [];
  let lastGroupHadQuantifier = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      lastGroupHadQuantifier = false;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      lastGroupHadQuantifier = false;
    } else if (ch === '(') {
      stack.push(false);
    } else if (ch === ')') {
      lastGroupHadQuantifier = stack.pop() ?? false;
      continue;
    } else if (ch === '*' || ch === '+' || ch === '{' || (ch === '?' && pattern[i - 1] !== '(')) {
      const unbounded = ch === '*' || ch === '+' || (ch === '{' && isRepeatingBrace(pattern, i));
      if (unbounded && lastGroupHadQuantifier) return 'Pattern must not nest repetitions such as (a+)+';
      if (ch === '*' || ch === '+' || ch === '{') stack.fill(true);
    }
    lastGroupHadQuantifier = false;
  }
  return undefined;
}

/** {n} repeats exactly n times; {n,} and {n,m} with m > 1 can repeat many times. */
function isRepeatingBrace(pattern: string, at: number): boolean {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
  if (!m) return false;
  if (m[2] === undefined) return Number(m[1]) > 1;
  return m[3] === '' || Number(m[3]) > 1;
}
