import type { MessageKey, Params } from '../i18n/index.tsx';

/**
 * Display formats (money, dates, relative times, percentages). Pure functions; the ones that produce words
 * take the `t` of useI18n().
 *   formatMoney(1234.5)            → '$1,234.50'
 *   formatDateTime(iso | unixSec)  → '2026-11-22 14:05' (local time)
 *   formatRelative(target, now, t) → 'in 12 min' / '3 min ago'
 *   formatPercent(87.46)           → '87.5%'
 */

const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `$` + two decimals with thousands separators. Accepts numbers and numeric strings (SQL numeric). */
export function formatMoney(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  if (!Number.isFinite(n)) return money.format(0);
  const rounded = round2(n);
  return money.format(rounded === 0 ? 0 : rounded);
}

/** Rounds half away from zero on the decimal digits, so 1.005 gives 1.01 rather than a float artefact. */
function round2(n: number): number {
  const abs = Math.abs(n);
  const s = String(abs);
  const r = s.includes('e') ? Math.round(abs * 100) / 100 : Number(`${Math.round(Number(`${s}e2`))}e-2`);
  return r * Math.sign(n);
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole numbers with thousands separators: 12,345. */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? integer.format(value) : '0';
}

/** One decimal: 87.5%. `value` is already a percentage. */
export function formatPercent(value: number): string {
  if (!Number.isFinite(value)) return '0%';
  return `${(Math.round(value * 10) / 10).toFixed(1)}%`;
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

/** Local `YYYY-MM-DD HH:mm` ('-' when missing). `seconds` adds `:ss` (clocks). */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  opts: { seconds?: boolean } = {},
) {
  const d = toDate(value);
  if (!d) return '-';
  const base = `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return opts.seconds ? `${base}:${pad(d.getSeconds())}` : base;
}

/** Local `YYYY-MM-DD` ('-' when missing). */
export function formatDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  if (!d) return '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
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
