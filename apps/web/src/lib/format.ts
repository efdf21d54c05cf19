import { currentLanguage, type Language, type MessageKey, type Params } from '../i18n/index.tsx';

/**
 * Display formats (money, dates, relative times, percentages) in the language the app shows (i18n's
 * current language unless `lang` is given); the ones that produce words take the `t` of useI18n().
 *   formatMoney(1234.5)            → '$1,234.50' (vi: '1.234,50 US$'); a balance or message price:
 *   formatMoney(11.07, { decimals: 4 }) → '$11.0700', formatMoney('0.0075', { decimals: 4 }) → '$0.0075'
 *   formatDateTime(iso | unixSec)  → '2026-11-22 14:05' (vi: '22/11/2026 14:05', local time)
 *   formatRelative(target, now, t) → 'in 12 min' / '3 min ago'
 *   formatPercent(87.46)           → '87.5%' (vi: '87,5%')
 */

/** Separators per language: Vietnamese groups thousands with '.' and writes decimals after ','. */
const SEPARATORS: Record<Language, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  vi: { group: '.', decimal: ',' },
};

/** Most decimals a money amount has (message prices, balances: PRICE_DECIMALS of the contract). */
const MONEY_MAX_DECIMALS = 4;
const MONEY_MIN_DECIMALS = 2;

/**
 * An amount's exact decimal digits: a numeric string as written (SQL numeric), a number through its
 * shortest round-trip text (String(9.9775) is "9.9775"), never through float arithmetic.
 */
function decimalDigits(
  value: number | string,
): { negative: boolean; whole: string; frac: string } | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
    // Exponent notation (1e-7, 1e21): plain digits instead; such amounts round to 0 or are whole.
    if (/e/i.test(text)) text = Math.abs(value) < 1e21 ? value.toFixed(20) : BigInt(value).toString();
  } else {
    text = value.trim();
    if (/e/i.test(text)) return Number.isFinite(Number(text)) ? decimalDigits(Number(text)) : undefined;
  }
  const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  return { negative: m[1] === '-', whole: m[2] || '0', frac: m[3] ?? '' };
}

/**
 * `$` with thousands separators. One rule for the number of decimals, by what the amount is:
 * - `decimals: 4` for amounts that carry fractions of a cent (balances and the ledger, message prices
 *   and costs: a message costs $0.0075): always four, so that two balances side by side read alike
 *   ($11.0700 beside $11.2275);
 * - two (the default) for amounts kept in whole cents by the contract (service prices, top-ups,
 *   invoices, payments). Such an amount never has more; if one did, it would show its four rather than
 *   hide money.
 * A fifth decimal rounds half away from zero on the digits. Accepts numbers and numeric strings (SQL
 * numeric); missing or non-numeric values show as zero. `signed` also marks a positive amount with +
 * (a ledger's credits beside its debits). The result never wraps: Vietnamese puts "US$" after the
 * amount behind a no-break space, and every other character is one a line cannot break at.
 */
export function formatMoney(
  value: number | string | null | undefined,
  opts: { signed?: boolean; lang?: Language; decimals?: 2 | 4 } = {},
): string {
  const lang = opts.lang ?? currentLanguage();
  const { group, decimal } = SEPARATORS[lang];
  const minDecimals = opts.decimals ?? MONEY_MIN_DECIMALS;
  // Vietnamese writes the currency after the amount, as Intl's vi-VN does: 1.234,50 US$ (a no-break
  // space, so a narrow column never puts the currency on a line of its own).
  const money = (sign: string, amount: string) =>
    lang === 'vi' ? `${sign}${amount}\u00a0US$` : `${sign}$${amount}`;
  const zero = `0${decimal}${'0'.repeat(minDecimals)}`;
  const d = value === null || value === undefined ? undefined : decimalDigits(value);
  if (!d) return money('', zero);
  const scale = 10n ** BigInt(MONEY_MAX_DECIMALS);
  const padded = d.frac.padEnd(MONEY_MAX_DECIMALS + 1, '0');
  let units = BigInt(d.whole) * scale + BigInt(padded.slice(0, MONEY_MAX_DECIMALS));
  if (padded.charCodeAt(MONEY_MAX_DECIMALS) >= 53 /* '5' */) units += 1n;
  if (units === 0n) return money('', zero);
  const whole = (units / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, group);
  let frac = (units % scale).toString().padStart(MONEY_MAX_DECIMALS, '0');
  while (frac.length > minDecimals && frac.endsWith('0')) frac = frac.slice(0, -1);
  // Cents that do have more digits show all four (never three): the same width as a balance.
  if (frac.length > MONEY_MIN_DECIMALS) frac = frac.padEnd(MONEY_MAX_DECIMALS, '0');
  const sign = d.negative ? '-' : opts.signed ? '+' : '';
  return money(sign, `${whole}${decimal}${frac}`);
}

/**
 * An amount as a money field (MoneyInput) holds it: exact decimal text with a '.' and no "$" or
 * separators, at least two decimals ("12.5" → "12.50", 1 → "1.00", "9.9775" stays). Text with more than
 * `maxDecimals` decimals, or that is not a plain amount, comes back as typed (trimmed) for the form's
 * rule to name.
 */
export function formatMoneyInput(value: number | string | null | undefined, maxDecimals = 4): string {
  if (value === null || value === undefined) return '';
  const typed = typeof value === 'string' ? value.trim() : String(value);
  const text = typeof value === 'string' ? typed.replace(/^\$/, '') : typed;
  // A comma stays as typed: it is a thousands separator in English (parseMoneyInput reads Vietnamese).
  if (typeof value === 'string' && !/^\d*(\.\d*)?$/.test(text)) return typed;
  const d = decimalDigits(typeof value === 'string' ? text : value);
  if (!d || d.negative || d.frac.length > maxDecimals) return typed;
  return `${d.whole.replace(/^0+(?=\d)/, '')}.${d.frac.padEnd(MONEY_MIN_DECIMALS, '0')}`;
}

/**
 * A money field's text as the form holds it ('.' decimals): in Vietnamese the decimal comma is read
 * ("12,5" → "12.5", "1.234,5" → "1234.5") and a point is read as a decimal point too ("12.5"); in
 * English the text stays as typed. Anything else comes back as typed, for the form's rule to name.
 */
export function parseMoneyInput(text: string, lang: Language = currentLanguage()): string {
  const typed = text.trim();
  if (lang !== 'vi') return typed;
  const bare = typed.replace(/^\$/, '').replace(/\s*US\$$/, '');
  if (/^\d+(,\d*)?$/.test(bare)) return bare.replace(',', '.');
  if (/^\d{1,3}(\.\d{3})+,\d*$/.test(bare)) return bare.replace(/\./g, '').replace(',', '.');
  return typed;
}

/** A money field's text as the language writes it: "12,50" in Vietnamese, "12.50" in English. */
export function showMoneyInput(text: string, lang: Language = currentLanguage()): string {
  return lang === 'vi' && /^\d*\.\d*$/.test(text) ? text.replace('.', SEPARATORS.vi.decimal) : text;
}

const integers: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  vi: new Intl.NumberFormat('vi-VN', { maximumFractionDigits: 0 }),
};

/** Whole numbers with thousands separators: 12,345 (vi: 12.345). */
export function formatNumber(value: number, lang: Language = currentLanguage()): string {
  return Number.isFinite(value) ? integers[lang].format(value) : '0';
}

/** One decimal: 87.5% (vi: 87,5%). `value` is already a percentage. */
export function formatPercent(value: number, lang: Language = currentLanguage()): string {
  if (!Number.isFinite(value)) return '0%';
  return `${(Math.round(value * 10) / 10).toFixed(1).replace('.', SEPARATORS[lang].decimal)}%`;
}

/**
 * A server time as a Date: numbers are unix seconds (docs/product.md#limits-and-timings), strings are ISO
 * timestamps. Returns undefined for missing or unparsable values.
 */
export function toDate(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const d =
    value instanceof Date ? value : typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local `YYYY-MM-DD HH:mm` (vi: `DD/MM/YYYY HH:mm`; '-' when missing). `seconds` adds `:ss` (clocks). */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  opts: { seconds?: boolean; lang?: Language } = {},
) {
  const d = toDate(value);
  if (!d) return '-';
  const base = `${formatDate(d, opts.lang)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return opts.seconds ? `${base}:${pad(d.getSeconds())}` : base;
}

/** Local `YYYY-MM-DD` (vi: `DD/MM/YYYY`, the order Vietnamese writes dates in; '-' when missing). */
export function formatDate(
  value: string | number | Date | null | undefined,
  lang: Language = currentLanguage(),
): string {
  const d = toDate(value);
  if (!d) return '-';
  const [y, m, day] = [d.getFullYear(), pad(d.getMonth() + 1), pad(d.getDate())];
  return lang === 'vi' ? `${day}/${m}/${y}` : `${y}-${m}-${day}`;
}

/**
 * A day typed the way the app writes dates, as 'YYYY-MM-DD' (what date fields hold): '2026-11-22' and
 * '22/11/2026' (also '22.11.2026', '1/2/2026') are read in either language, since one form cannot be
 * taken for the other. Undefined for anything else, or a day the calendar lacks (2026-02-30).
 */
export function parseDateInput(text: string): string | undefined {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const dmy = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(t);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (!y || !m || !d) return undefined;
  const date = new Date(Number(y), Number(m) - 1, Number(d));
  if (date.getFullYear() !== Number(y) || date.getMonth() !== Number(m) - 1 || date.getDate() !== Number(d))
    return undefined;
  return `${y}-${pad(Number(m))}-${pad(Number(d))}`;
}

type Translate = (key: MessageKey, params?: Params) => string;

/** 'in 12 min', '3 min ago', 'just now' (under 5 s); seconds under a minute, then min, h, d. */
export function formatRelative(
  target: string | number | Date | null | undefined,
  now: number | Date,
  t: Translate,
): string {
  const d = toDate(target);
  if (!d) return '-';
  const diffMs = d.getTime() - (now instanceof Date ? now.getTime() : now);
  const abs = Math.abs(diffMs);
  const future = diffMs > 0;
  if (abs < 5000) return t('time.now');
  const s = Math.round(abs / 1000);
  if (s < 60) return t(future ? 'time.inSeconds' : 'time.secondsAgo', { n: s });
  const m = Math.round(abs / 60_000);
  if (m < 60) return t(future ? 'time.inMinutes' : 'time.minutesAgo', { n: m });
  const h = Math.round(abs / 3_600_000);
  if (h < 48) return t(future ? 'time.inHours' : 'time.hoursAgo', { n: h });
  const days = Math.round(abs / 86_400_000);
  return t(future ? 'time.inDays' : 'time.daysAgo', { n: days });
}

/**
 * A phone number as people read it: the spec's numbers (1 and 10 digits, stored and sent as digits)
 * as `+1 895-126-9067`; anything else as it is. For display only: storage, the API and copying keep
 * the digits.
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const nanp = /^\+?1(\d{3})(\d{3})(\d{4})$/.exec(value);
  return nanp ? `+1 ${nanp[1]}-${nanp[2]}-${nanp[3]}` : value;
}

/**
 * Shortens long ids: first 6, dots, last 4 when over 12 characters (docs/product.md#screens-and-routes,
 * Payment Manager).
 */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 6)}...${id.slice(-4)}` : id;
}

/** Bytes as a short size: 10 MB, 512 KB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A count on a badge: up to 99, then "99+". */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
