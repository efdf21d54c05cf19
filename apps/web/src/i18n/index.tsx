import { createContext, Fragment, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { en, type MessageKey } from './en.ts';
import { vi } from './vi.ts';

export type { MessageKey } from './en.ts';

/**
 * i18n: one catalogue (en.ts is the source of keys, vi.ts mirrors it). In components:
 *   const { t, rich, lang, setLang } = useI18n();
 *   t('login.submit'); t('common.pageOf', { page: 2, total: 9 }); rich('register.agree', { terms: <Link…/> })
 * Outside React (the API client, formatters): `translate(key, params)` uses the current language.
 */
export const LANGUAGES = ['en', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];
export type Params = Record<string, string | number>;
export type TFunction = (key: MessageKey, params?: Params) => string;

export const LANG_STORAGE_KEY = 'simdock.lang';
const catalogues: Record<Language, Record<MessageKey, string>> = { en, vi };

function interpolate(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Looks a key up in a language; falls back to English, then to the key itself. */
export function translateIn(lang: Language, key: MessageKey, params?: Params): string {
  return interpolate(catalogues[lang][key] ?? en[key] ?? key, params);
}

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANG_STORAGE_KEY);
    if (v === 'en' || v === 'vi') return v;
  } catch {
    // Storage unavailable (privacy mode): default language.
  }
  return 'en';
}

let currentLang: Language = typeof window === 'undefined' ? 'en' : storedLanguage();

/** The current language's text, for code outside components. */
export const translate: TFunction = (key, params) => translateIn(currentLang, key, params);

/** Splits a text at its `{name}` placeholders and puts the given nodes (links, bold words) there. */
export function richText(text: string, nodes: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, i) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
    return name !== undefined && name in nodes ? <Fragment key={i}>{nodes[name]}</Fragment> : part;
  });
}

interface I18nValue {
  lang: Language;
  setLang(lang: Language): void;
  t: TFunction;
  /** t() with React nodes as parameters: rich('register.agree', { terms: <Link …/> }). */
  rich(key: MessageKey, nodes: Record<string, ReactNode>): ReactNode[];
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [lang, setLangState] = useState<Language>(() => initial ?? currentLang);
  currentLang = lang;
  const setLang = useCallback((next: Language) => {
    currentLang = next;
    try {
      localStorage.setItem(LANG_STORAGE_KEY, next);
    } catch {
      // Not persisted; the switch still applies to this tab.
    }
    document.documentElement.lang = next;
    setLangState(next);
  }, []);
  const value = useMemo<I18nValue>(
    () => ({
      lang,
      setLang,
      t: (key, params) => translateIn(lang, key, params),
      rich: (key, nodes) => richText(translateIn(lang, key), nodes),
    }),
    [lang, setLang],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n must be used inside <I18nProvider>');
  return ctx;
}
