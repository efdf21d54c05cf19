import { describe, expect, it } from 'vitest';
import { extractCode, smsMatchesService } from './code-extraction.ts';
import { smsTime } from './orders.service.ts';

describe('extractCode', () => {
  it.each([
    ['Telegram code: 53211. Do not give this code to anyone', '\\d{4,8}', '53211'],
    ['G-482913 is your Google verification code.', 'G-(\\d{6})', '482913'],
    ["Your WhatsApp code: 123-456. Don't share this code.", '(\\d{3}-\\d{3})', '123-456'],
    ['<#> 8890 is your code. Ref 2024', '\\b(\\d{4})\\b', '8890'],
    ['Code AB12CD expires in 10 min', '\\b([A-Z0-9]{6})\\b', 'AB12CD'],
    ['Use 1111 or 2222', '\\d{4}', '1111'],
    ['no digits here', '\\d{4,8}', undefined],
    ['short 12', '\\d{4,8}', undefined],
    ['alternation picks the group that matched: pin=9876', 'code=(\\d+)|pin=(\\d+)', '9876'],
  ])('%s with %s → %s', (text, pattern, code) => {
    expect(extractCode(text, pattern)).toBe(code);
  });

  it('returns undefined for a broken pattern instead of throwing', () => {
    expect(extractCode('1234', '(')).toBeUndefined();
  });
});

describe('smsMatchesService', () => {
  it.each([
    ['Telegram code 12345', 'telegram', true],
    ['TELEGRAM code 12345', 'Telegram', true],
    ['Your WhatsApp code 111-222', 'telegram', false],
    ['anything at all', '', true],
    ['anything at all', '   ', true],
  ])('%s contains %s → %s', (text, needle, expected) => {
    expect(smsMatchesService(text, needle)).toBe(expected);
  });
});

describe('smsTime', () => {
  const receivedAt = new Date('2026-11-22T10:00:00Z');
  it('uses the receive time for a live push', () => {
    expect(smsTime({ receivedAt, deviceTs: receivedAt.getTime() / 1000 - 5 })).toEqual(receivedAt);
    expect(smsTime({ receivedAt, deviceTs: null })).toEqual(receivedAt);
  });
  it('uses the device time for an SMS recovered long after it arrived', () => {
    const old = Date.parse('2026-11-22T08:00:00Z') / 1000;
    expect(smsTime({ receivedAt, deviceTs: old }).toISOString()).toBe('2026-11-22T08:02:00.000Z');
  });
});
