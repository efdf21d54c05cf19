import { LANGUAGES, type Language } from '@simdock/contract';
import {
  createContext,
  Fragment,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { en, type MessageKey } from './en.ts';

export type { MessageKey } from './en.ts';

/**
 * i18n: one catalogue (`MessageKey` in en.ts is the set of keys, vi.ts has them all). Kept out of the
 * login route's JavaScript (budget, README): Vietnamese is its own chunk, loaded when chosen
 * (`loadLanguage`; main.tsx waits for the stored language before the first render, and `setLang`
 * switches once it is there); English is in the initial bundle (en.ts) except two groups that load with
 * the routes using them (`loadTexts`): the signed-in screens' (en-screens.ts) and the landing, legal and
 * register pages' (screens/public.ts). In components:
 *   const { t, tn, rich, lang, setLang } = useI18n();
 *   t('login.submit'); t('common.pageOf', { page: 2, total: 9 }); rich('register.agree', { terms: <Link…/> })
 *   tn('dashboard.historyCount', 3) → '3 rentals' (plural forms: keys `<base>.one` / `<base>.other`)
 * Outside React (the API client, formatters): `translate(key, params)` uses the current language.
 */
// The languages are the contract's: the server's pages outside the app choose among the same ones.
export { LANGUAGES, type Language };
export type Params = Record<string, string | number>;
export type TFunction = (key: MessageKey, params?: Params) => string;

export const LANG_STORAGE_KEY = 'simdock.lang';
type Catalogue = Record<MessageKey, string>;

/**
 * English: the initial bundle's texts (en.ts), plus the groups `loadTexts` has fetched: the signed-in
 * screens' (the shell's chunk waits for them) and the landing, legal and register pages' (their
 * routes wait).
 */
const english: Partial<Catalogue> = { ...en };
const textGroups = {
  screens: () => import('./en-screens.ts').then((m) => m.enScreens),
  public: () => import('./screens/public.ts').then((m) => m.publicEn),
};
export type TextGroup = keyof typeof textGroups;
const groupLoads = new Map<TextGroup, Promise<void>>();

/** Fetches a group of English texts once. Rejects when its chunk can't load (a later call retries). */
export function loadTexts(group: TextGroup): Promise<void> {
  let pending = groupLoads.get(group);
  if (!pending) {
    pending = textGroups[group]().then(
      (texts) => {
        Object.assign(english, texts);
      },
      (error: unknown) => {
        groupLoads.delete(group);
        throw error;
      },
    );
    groupLoads.set(group, pending);
  }
  return pending;
}

/** The loaded catalogues: English always; the others once `loadLanguage` has fetched them. */
const catalogues: Partial<Record<Language, Partial<Catalogue>>> = { en: english };
const loaders: Record<Exclude<Language, 'en'>, () => Promise<Catalogue>> = {
  vi: () => import('./vi.ts').then((m) => m.vi),
};
const loading = new Map<Language, Promise<void>>();

export function isLanguageLoaded(lang: Language): boolean {
  return catalogues[lang] !== undefined;
}

/** Fetches a language's catalogue once (English is always there). Rejects when the chunk can't load. */
export function loadLanguage(lang: Language): Promise<void> {
  if (lang === 'en' || catalogues[lang]) return Promise.resolve();
  let pending = loading.get(lang);
  if (!pending) {
    pending = loaders[lang]().then(
      (catalogue) => {
        catalogues[lang] = catalogue;
      },
      (error: unknown) => {
        loading.delete(lang); // a later switch tries again
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

function interpolate(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Looks a key up in a language; falls back to English (also while it loads), then to the key itself. */
export function translateIn(lang: Language, key: MessageKey, params?: Params): string {
  return interpolate(catalogues[lang]?.[key] ?? english[key] ?? key, params);
}

/**
 * The keys with plural forms, by their base: `'dashboard.historyCount'` when the catalogue has
 * `dashboard.historyCount.one` and `dashboard.historyCount.other` (English needs both; Vietnamese has
 * one form, so its `.other` is the one used).
 */
export type PluralKey = MessageKey extends infer K ? (K extends `${infer Base}.other` ? Base : never) : never;

const LOCALES: Record<Language, string> = { en: 'en-US', vi: 'vi-VN' };
const pluralRules = new Map<Language, Intl.PluralRules>();
const counters = new Map<Language, Intl.NumberFormat>();

/**
 * A count with its noun in a language: `{count}` is the count written as that language writes numbers
 * (1,234 / 1.234) and the form is the one Intl.PluralRules picks ('1 rental', '2 rentals'). A language
 * still loading speaks English, with English's forms.
 */
export function pluralIn(lang: Language, base: PluralKey, count: number, params?: Params): string {
  const shown: Language = catalogues[lang] ? lang : 'en';
  const rules = pluralRules.get(shown) ?? new Intl.PluralRules(LOCALES[shown]);
  const counter = counters.get(shown) ?? new Intl.NumberFormat(LOCALES[shown]);
  pluralRules.set(shown, rules);
  counters.set(shown, counter);
  const form = `${base}.${rules.select(count)}` as MessageKey;
  const key =
    catalogues[shown]?.[form] !== undefined || english[form] !== undefined
      ? form
      : (`${base}.other` as MessageKey);
  return translateIn(shown, key, { ...params, count: counter.format(count) });
}

/** The language chosen earlier on this device (localStorage), else English. */
export function storedLanguage(): Language {
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

/** The language the app shows now, for code outside components (the API client's messages). */
export function currentLanguage(): Language {
  return currentLang;
}

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
  /** A count with its noun: tn('dashboard.historyCount', 1) → '1 rental' (see `pluralIn`). */
  tn(base: PluralKey, count: number, params?: Params): string;
  /** t() with React nodes as parameters: rich('register.agree', { terms: <Link …/> }). */
  rich(key: MessageKey, nodes: Record<string, ReactNode>): ReactNode[];
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [lang, setLangState] = useState<Language>(() => initial ?? currentLang);
  // Bumped when the shown language's catalogue arrives, so the texts re-render in it.
  const [loadedCount, setLoadedCount] = useState(0);
  const latest = useRef(0);
  currentLang = lang;

  useEffect(() => {
    if (isLanguageLoaded(lang)) return;
    let live = true;
    loadLanguage(lang).then(
      () => live && setLoadedCount((n) => n + 1),
      () => {
        // Offline: the texts stay in English until a later switch loads the catalogue.
      },
    );
    return () => {
      live = false;
    };
  }, [lang]);

  const setLang = useCallback((next: Language) => {
    const request = ++latest.current;
    const apply = () => {
      if (request !== latest.current) return; // a later choice won
      currentLang = next;
      try {
        localStorage.setItem(LANG_STORAGE_KEY, next);
      } catch {
        // Not persisted; the switch still applies to this tab.
      }
      document.documentElement.lang = next;
      setLangState(next);
    };
    // Switch once the texts are there (no flash of English); if they can't load, stay as we are.
    if (isLanguageLoaded(next)) apply();
    else
      loadLanguage(next).then(apply, () => {
        // Offline: the language stays; choosing it again retries.
      });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loadedCount re-creates t() once the catalogue is in
  const value = useMemo<I18nValue>(
    () => ({
      lang,
      setLang,
      t: (key, params) => translateIn(lang, key, params),
      tn: (base, count, params) => pluralIn(lang, base, count, params),
      rich: (key, nodes) => richText(translateIn(lang, key), nodes),
    }),
    [lang, setLang, loadedCount],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n must be used inside <I18nProvider>');
  return ctx;
}
