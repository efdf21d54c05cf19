import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage, translateIn } from '../i18n/index.tsx';
import {
  badgeText,
  formatDate,
  formatDateTime,
  formatMoney,
  formatPercent,
  formatPhone,
  formatRelative,
  shortId,
  toDate,
} from './format.ts';

const t = (key: Parameters<typeof translateIn>[1], params?: Record<string, string | number>) =>
  translateIn('en', key, params);

// Vietnamese is loaded on demand in the app.
beforeAll(() => loadLanguage('vi'));

describe('formatMoney', () => {
  it('shows $ with at least two decimals and thousands separators', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(12)).toBe('$12.00');
    expect(formatMoney('99.9')).toBe('$99.90');
    expect(formatMoney('1234567.00')).toBe('$1,234,567.00');
  });
  it('shows an amount with fractions of a cent with all four decimals, never hiding money', () => {
    expect(formatMoney(0.0075)).toBe('$0.0075');
    expect(formatMoney('9.9775')).toBe('$9.9775');
    expect(formatMoney('0.0150')).toBe('$0.0150');
    expect(formatMoney('10.5000')).toBe('$10.50');
    expect(formatMoney('1234567.8912')).toBe('$1,234,567.8912');
    expect(formatMoney(1.005)).toBe('$1.0050');
    expect(formatMoney('-0.0225')).toBe('-$0.0225');
  });
  it('one rule for balances and message prices: always four decimals, so amounts side by side read alike', () => {
    expect(formatMoney(11.07, { decimals: 4 })).toBe('$11.0700');
    expect(formatMoney('11.2275', { decimals: 4 })).toBe('$11.2275');
    expect(formatMoney(0, { decimals: 4 })).toBe('$0.0000');
    expect(formatMoney('0.015', { decimals: 4 })).toBe('$0.0150');
    expect(formatMoney(10, { decimals: 4, signed: true })).toBe('+$10.0000');
    expect(formatMoney(1234.5, { decimals: 4, lang: 'vi' })).toBe('1.234,5000\u00a0US$');
  });
  it('never has a place a line can break at (no plain space)', () => {
    for (const lang of ['en', 'vi'] as const) {
      for (const v of [0, 12.5, '1234567.8912', -0.0225]) {
        // Only the no-break space (U+00A0) before "US$": no space or break opportunity a line can use.
        expect(formatMoney(v, { lang, decimals: 4 }).replace(/\u00a0US\$$/, '')).not.toMatch(/\s|\u200b/);
        expect(formatMoney(v, { lang }).replace(/\u00a0US\$$/, '')).not.toMatch(/\s|\u200b/);
      }
    }
  });
  it('is exact on the decimal text, never showing a float artefact', () => {
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(10 - 0.0225)).toBe('$9.9775');
    expect(formatMoney(3 * 0.0075)).toBe('$0.0225');
    // Digits past the fourth round half away from zero, on the digits.
    expect(formatMoney('0.00005')).toBe('$0.0001');
    expect(formatMoney('0.00004')).toBe('$0.00');
    expect(formatMoney('2.99995')).toBe('$3.00');
    expect(formatMoney(-2.5)).toBe('-$2.50');
    expect(formatMoney(-0.00001)).toBe('$0.00');
    expect(formatMoney(1e-7)).toBe('$0.00');
    expect(formatMoney(1e21)).toBe('$1,000,000,000,000,000,000,000.00');
    // Beyond float precision, a numeric string keeps every digit.
    expect(formatMoney('90071992547409930.0001')).toBe('$90,071,992,547,409,930.0001');
  });
  it('marks credits with + when signed', () => {
    expect(formatMoney(10, { signed: true })).toBe('+$10.00');
    expect(formatMoney('-0.0225', { signed: true })).toBe('-$0.0225');
    expect(formatMoney(0, { signed: true })).toBe('$0.00');
  });
  it('treats missing or non-numeric values as zero', () => {
    expect(formatMoney(undefined)).toBe('$0.00');
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatMoney('abc')).toBe('$0.00');
    expect(formatMoney('')).toBe('$0.00');
    expect(formatMoney('.')).toBe('$0.00');
    expect(formatMoney(Number.NaN)).toBe('$0.00');
    expect(formatMoney(Number.POSITIVE_INFINITY)).toBe('$0.00');
  });
});

describe('dates', () => {
  it('formats local date and time as YYYY-MM-DD HH:mm', () => {
    const d = new Date(2026, 10, 22, 14, 5, 9);
    expect(formatDateTime(d)).toBe('2026-11-22 14:05');
    expect(formatDateTime(d, { seconds: true })).toBe('2026-11-22 14:05:09');
    expect(formatDate(d)).toBe('2026-11-22');
  });
  it('reads numbers as unix seconds and strings as ISO', () => {
    const d = new Date(2026, 0, 2, 3, 4);
    expect(formatDateTime(d.getTime() / 1000)).toBe('2026-01-02 03:04');
    expect(formatDateTime(d.toISOString())).toBe('2026-01-02 03:04');
  });
  it("shows '-' for missing or invalid values", () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
    expect(toDate('')).toBeUndefined();
  });
});

describe('formatRelative', () => {
  const now = new Date(2026, 10, 22, 14, 0, 0).getTime();
  it('says how long until or since', () => {
    expect(formatRelative(new Date(now + 12 * 60_000), now, t)).toBe('in 12 min');
    expect(formatRelative(new Date(now - 3 * 60_000), now, t)).toBe('3 min ago');
    expect(formatRelative(new Date(now + 30_000), now, t)).toBe('in 30 s');
    expect(formatRelative(new Date(now - 5 * 3_600_000), now, t)).toBe('5 h ago');
    expect(formatRelative(new Date(now + 3 * 86_400_000), now, t)).toBe('in 3 d');
    expect(formatRelative(new Date(now + 1000), now, t)).toBe('just now');
  });
  it('reads numbers as unix seconds', () => {
    expect(formatRelative(now / 1000 + 120, now, t)).toBe('in 2 min');
  });
  it('speaks the given language', () => {
    expect(formatRelative(new Date(now + 12 * 60_000), now, (k, p) => translateIn('vi', k, p))).toBe(
      'còn 12 phút',
    );
  });
});

describe('other formats', () => {
  it('percent with one decimal', () => {
    expect(formatPercent(87.46)).toBe('87.5%');
    expect(formatPercent(100)).toBe('100.0%');
  });
  it("shows the spec's phone digits as +1 895-126-9067; other values as they are", () => {
    expect(formatPhone('18951269067')).toBe('+1 895-126-9067');
    expect(formatPhone('+18951269067')).toBe('+1 895-126-9067');
    expect(formatPhone('447700900123')).toBe('447700900123');
    expect(formatPhone('1310')).toBe('1310');
    expect(formatPhone(null)).toBe('');
  });
  it('shortens long ids to first 6, dots, last 4', () => {
    expect(shortId('abcdef1234567890')).toBe('abcdef...7890');
    expect(shortId('short-id')).toBe('short-id');
  });
  it('shows at most 99 on a badge', () => {
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});
