import type { MessageKey, Params } from '../../i18n/index.tsx';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format.ts';
import { codeLabel, roleLabel } from '../../lib/labels.ts';

type Translate = (key: MessageKey, params?: Params) => string;

/** One changed field: its raw name, and its values before and after (undefined: absent). */
export interface ChangeLine {
  field: string;
  before?: unknown;
  after?: unknown;
}

/** The changed fields of an entry, in order; a create or delete lists all its fields. */
export function changedFields(before: unknown, after: unknown): ChangeLine[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: ChangeLine[] = [];
  for (const k of keys) {
    if (k in b && k in a && JSON.stringify(b[k]) === JSON.stringify(a[k])) continue;
    // Nothing on either side ("Reason: — → —") says nothing: left out.
    if (isEmpty(b[k]) && isEmpty(a[k])) continue;
    lines.push({ field: k, ...(k in b ? { before: b[k] } : {}), ...(k in a ? { after: a[k] } : {}) });
  }
  return lines;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Fields that hold money (USD), with the decimals formatMoney's rule gives them (lib/format.ts). */
const MONEY: Record<string, 2 | 4> = { balance: 4, delta: 4, smsPricePerSegment: 4, mmsPrice: 4, price: 2 };
/** Fields whose values are codes with a name in the catalogue: field → the names' key prefix. */
const CODED: Record<string, string> = {
  role: 'audit.simRole.',
  status: 'audit.userStatus.',
  scopes: 'apikey.scope.',
  kind: 'audit.value.',
  reason: 'audit.value.',
};
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A value of an audit entry as people read it: "—" for nothing, Yes/No, amounts as money, times in the
 * app's format, roles and codes by name, services by name (`serviceName` of a code), lists joined.
 */
export function auditValue(
  t: Translate,
  field: string,
  value: unknown,
  serviceName: (code: string) => string | undefined = () => undefined,
): string {
  if (isEmpty(value)) return '—';
  if (Array.isArray(value)) return value.map((v) => auditValue(t, field, v, serviceName)).join(', ');
  if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
  const decimals = MONEY[field];
  if (decimals && (typeof value === 'number' || typeof value === 'string'))
    return formatMoney(value, { decimals });
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') {
    if (ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))) return formatDateTime(value);
    if (field === 'roles') return roleLabel(t, value);
    if (field === 'code' || field === 'serviceCode') return serviceName(value) ?? value;
    const prefix = CODED[field];
    if (prefix) return codeLabel(t, prefix, value);
    return value;
  }
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${fieldLabel(t, k)}: ${auditValue(t, k, v, serviceName)}`)
      .join('; ');
  }
  return String(value);
}

/** A field's name for people; a field the catalogue does not know yet reads as words ("Expires at"). */
export function fieldLabel(t: Translate, field: string): string {
  const key = `audit.field.${field}` as MessageKey;
  const text = t(key);
  if (text !== key) return text;
  const words = field
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Who or what an entry is about, with the service's code (the server's label for a number spent on a
 * service: "tg 15550001111") shown as the service's name, and the settings by their name.
 */
export function targetText(
  t: Translate,
  e: { kind: string; targetLabel: string | null; targetId: string | null },
  serviceName: (code: string) => string | undefined,
): string {
  if (e.kind === 'settings.update') return t('audit.targetSettings');
  const label = e.targetLabel || e.targetId || '';
  if (!label) return '—';
  if (e.kind.startsWith('service.number')) {
    const [code, ...rest] = label.split(' ');
    const name = code ? serviceName(code) : undefined;
    if (name) return [name, ...rest].join(' ');
  }
  return label;
}
