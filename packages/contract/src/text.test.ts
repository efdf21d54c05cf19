import { describe, expect, it, vi } from 'vitest';
import { LoginBody, RegisterBody, SimulateSmsBody } from './index.ts';
import { boundedText, nulMessage, surrogateMessage, tooLongMessage } from './limits.ts';
import { ruleMessages } from './messages.ts';
import { EMAIL_MAX, emailError, isEmailLike, parseFormNumber, usernameError } from './rules.ts';
import { cleanText, hasLoneSurrogate, hasNul } from './text.ts';

describe('cleanText', () => {
  it('leaves valid text alone, emoji and all', () => {
    const s = 'Telegram code: 12345 ✅ 😀 Mã: 9876\nline 2\ttab';
    expect(cleanText(s)).toBe(s);
  });
  it('removes NUL characters', () => {
    expect(cleanText('a\u0000b\u0000')).toBe('ab');
    expect(hasNul('a\u0000b')).toBe(true);
    expect(hasNul(cleanText('a\u0000b'))).toBe(false);
  });
  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    expect(cleanText('x\uD800y')).toBe('x\uFFFDy');
    expect(cleanText('x\uDC00y')).toBe('x\uFFFDy');
    expect(cleanText('end\uD83D')).toBe('end\uFFFD');
    expect(cleanText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
    expect(cleanText('\uD83D\uDE00')).toBe('😀');
  });
  it('gives text every UTF-8 encoder round-trips', () => {
    const out = cleanText('\u0000\uD800a\uDFFF');
    expect(Buffer.from(out, 'utf8').toString('utf8')).toBe(out);
  });
  it('gives the same results in an engine without isWellFormed (an older browser)', async () => {
    const samples = ['ok 😀', 'x\uD800y', 'x\uDC00y', 'end\uD83D', '\uDE00\uD83D', 'a\u0000b\uD800'];
    const expected = samples.map((s) => [cleanText(s), hasLoneSurrogate(s)]);
    const proto = String.prototype as { isWellFormed?: unknown; toWellFormed?: unknown };
    const saved = Object.getOwnPropertyDescriptors(proto);
    delete proto.isWellFormed;
    delete proto.toWellFormed;
    let got: unknown[];
    try {
      vi.resetModules();
      const old = await import('./text.ts');
      got = samples.map((s) => [old.cleanText(s), old.hasLoneSurrogate(s)]);
    } finally {
      Object.defineProperty(proto, 'isWellFormed', saved.isWellFormed!);
      Object.defineProperty(proto, 'toWellFormed', saved.toWellFormed!);
    }
    expect(got).toEqual(expected);
    expect(expected[1]).toEqual(['x\uFFFDy', true]);
  });
});

describe('bounded request text', () => {
  it('refuses too long and NUL with a sentence naming the field', () => {
    const t = boundedText(5, 'Name');
    expect(t.safeParse('abcde').success).toBe(true);
    expect(t.safeParse('abcdef').error?.issues[0]?.message).toBe(tooLongMessage('Name', 5));
    expect(t.safeParse('a\u0000').error?.issues[0]?.message).toBe(nulMessage('Name'));
    expect(t.safeParse('a\uD800').error?.issues[0]?.message).toBe(surrogateMessage('Name'));
    expect(t.safeParse('😀').success).toBe(true);
  });
  it('gives the spec texts where the spec has one', () => {
    const long = RegisterBody.safeParse({ username: 'u'.repeat(100), email: 'a@b.co', passwordHash: 'x' });
    expect(long.error?.issues[0]?.message).toBe(ruleMessages.usernameFormat);
    const email = RegisterBody.safeParse({
      username: 'bob',
      email: `a@${'.'.repeat(300)}`,
      passwordHash: 'x',
    });
    expect(email.error?.issues[0]?.message).toBe(ruleMessages.emailInvalid);
  });
  it('bounds login and SMS fields', () => {
    expect(LoginBody.safeParse({ username: 'u'.repeat(9000), password: 'p' }).success).toBe(false);
    expect(LoginBody.safeParse({ username: 'bob\u0000', password: 'p' }).success).toBe(false);
    expect(SimulateSmsBody.safeParse({ gatewayId: 'g', port: '1', from: 'x', text: 'a\u0000' }).success).toBe(
      false,
    );
  });
});

describe('email rule', () => {
  it('accepts address-like text and refuses the rest, as the pattern did', () => {
    for (const ok of ['a@b.co', 'x.y+z@sub.example.com', 'a@b.c', 'ü@ü.de'])
      expect(isEmailLike(ok)).toBe(true);
    for (const bad of [
      '',
      'a',
      'a@',
      '@b.co',
      'a@b',
      'a@.co',
      'a@b.',
      'a b@c.co',
      'a@b@c.co',
      'a@b\u0000.co',
      'a\t@b.co',
    ])
      expect(isEmailLike(bad)).toBe(false);
  });
  it('answers a crafted address at once (no quadratic backtracking)', () => {
    const crafted = `a@${'.'.repeat(80_000)}@`;
    const t0 = performance.now();
    expect(emailError(crafted)).toBe('emailInvalid');
    expect(isEmailLike(crafted)).toBe(false);
    expect(isEmailLike(`a@${'.'.repeat(80_000)}`)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(200);
  });
  it('refuses an address over 254 characters', () => {
    expect(emailError(`${'a'.repeat(EMAIL_MAX - 5)}@b.co`)).toBeUndefined();
    expect(emailError(`${'a'.repeat(EMAIL_MAX)}@b.co`)).toBe('emailInvalid');
  });
  it('gives the spec format message for a long username before any pattern runs', () => {
    expect(usernameError('a'.repeat(100_000))).toBe('usernameFormat');
  });
});

describe('parseFormNumber', () => {
  it('coerces plain decimals, empty and non-numeric text as docs/product.md#forms says', () => {
    expect(parseFormNumber(12.5)).toBe(12.5);
    expect(parseFormNumber('12.5')).toBe(12.5);
    expect(parseFormNumber(' 7 ')).toBe(7);
    expect(parseFormNumber('-3')).toBe(-3);
    expect(parseFormNumber('.5')).toBe(0.5);
    expect(parseFormNumber('')).toBe(0);
    expect(parseFormNumber(null)).toBe(0);
    expect(parseFormNumber('abc')).toBe(0);
  });
  it('refuses other readings of a number and other types', () => {
    for (const v of [
      '0x10',
      '0b101',
      '0o7',
      '1e3',
      '1e400',
      'Infinity',
      '-Infinity',
      [5],
      { n: 5 },
      true,
      '1'.repeat(33),
    ])
      expect(parseFormNumber(v)).toBeUndefined();
  });
});
