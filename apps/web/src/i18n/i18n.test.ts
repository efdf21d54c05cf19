import { ruleMessages } from '@simdock/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { en as enInitial } from './en.ts';
import { enScreens } from './en-screens.ts';
import { loadLanguage, pluralIn, richText, translateIn } from './index.tsx';
import { publicEn } from './screens/public.ts';
import { vi } from './vi.ts';

const en = { ...enInitial, ...enScreens, ...publicEn };

describe('i18n catalogue', () => {
  beforeAll(() => loadLanguage('vi'));

  it('Vietnamese has exactly the English keys, none empty', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(vi)) expect(text.trim(), key).not.toBe('');
  });

  it('no English key is missing from Vietnamese (one line per missing key)', () => {
    const missing = Object.keys(en).filter((key) => !(key in vi));
    expect(missing).toEqual([]);
  });

  it('the SMS Sending, History, API Key and Settings screens are in Vietnamese, not English copies', () => {
    // Names and codes read the same in both languages.
    const same = new Set(['apikey.colUrl']);
    const untranslated = Object.entries(en)
      .filter(([key]) => /^(sending|history|apikey|settings)\./.test(key) && !same.has(key))
      .filter(([key, text]) => vi[key as keyof typeof en] === text)
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it('every placeholder of an English text exists in its Vietnamese text', () => {
    for (const [key, text] of Object.entries(en)) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(vi[key as keyof typeof en]), key).toEqual(names(text));
    }
  });

  it('English rule texts are the contract texts the server answers with', () => {
    for (const [key, text] of Object.entries(ruleMessages)) {
      expect(en[`rule.${key}` as keyof typeof en]).toBe(text);
    }
  });

  it("the spec's Vietnamese messages are Vietnamese entries of English keys", () => {
    expect(vi['rule.newPasswordMismatch']).toBe('Mật khẩu mới không khớp.');
    expect(vi['userInfo.passwordChanged']).toBe('Đổi mật khẩu thành công!');
    expect(vi['userInfo.passwordChangeFailed']).toBe('Không thể đổi mật khẩu.');
    expect(vi['chat.updateFailed']).toBe('Cập nhật thất bại: ');
  });

  it('fills parameters and keeps unknown ones', () => {
    expect(translateIn('en', 'common.pageOf', { page: 2, total: 9 })).toBe('Page 2 / 9');
    expect(translateIn('vi', 'common.pageOf', { page: 2, total: 9 })).toBe('Trang 2 / 9');
    expect(translateIn('en', 'common.pageOf', { page: 2 })).toBe('Page 2 / {total}');
  });

  it('counts take the plural form of the language (Intl.PluralRules), never "1 rentals"', () => {
    expect(pluralIn('en', 'dashboard.historyCount', 1)).toBe('1 rental');
    expect(pluralIn('en', 'dashboard.historyCount', 0)).toBe('0 rentals');
    expect(pluralIn('en', 'dashboard.historyCount', 1234)).toBe('1,234 rentals');
    expect(pluralIn('en', 'gateways.scanDone', 1, { name: 'Rack A' })).toBe(
      'Rack A: scan complete, 1 SIM found.',
    );
    expect(pluralIn('vi', 'dashboard.historyCount', 1)).toBe('1 lượt thuê');
    expect(pluralIn('vi', 'dashboard.historyCount', 1234)).toBe('1.234 lượt thuê');
  });

  it('every plural text has its forms: a `.one` beside each `.other`, with a {count}', () => {
    const bases = Object.keys(en)
      .filter((k) => k.endsWith('.other'))
      .map((k) => k.slice(0, -'.other'.length));
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases) {
      const one = en[`${base}.one` as keyof typeof en];
      expect(one, base).toBeDefined();
      expect(one, base).toContain('{count}');
      expect(en[`${base}.other` as keyof typeof en], base).toContain('{count}');
    }
  });

  it('richText puts nodes at placeholders', () => {
    expect(richText('a {x} b {y}', { x: 'X' })).toHaveLength(5);
  });
});
