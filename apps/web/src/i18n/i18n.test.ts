import { ruleMessages } from '@simdock/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { en as enInitial } from './en.ts';
import { enScreens } from './en-screens.ts';
import { loadLanguage, richText, translateIn } from './index.tsx';
import { publicEn } from './screens/public.ts';
import { vi } from './vi.ts';

const en = { ...enInitial, ...enScreens, ...publicEn };

describe('i18n catalogue', () => {
  beforeAll(() => loadLanguage('vi'));

  it('Vietnamese has exactly the English keys, none empty', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(vi)) expect(text.trim(), key).not.toBe('');
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

  it('richText puts nodes at placeholders', () => {
    expect(richText('a {x} b {y}', { x: 'X' })).toHaveLength(5);
  });
});
