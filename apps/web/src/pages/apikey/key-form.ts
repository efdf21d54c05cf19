import {
  ALLOWED_IPS_MAX,
  API_KEY_SCOPES,
  type ApiKeyInfo,
  type ApiKeyScope,
  type CreateApiKeyBody,
  checkAllowedIps,
  WEBHOOK_EVENTS,
  type WebhookEventName,
} from '@simdock/contract';
import type { MessageKey, Params } from '../../i18n/index.tsx';

/** The create-key dialog's values: addresses as typed (one per line), the expiry as a local day. */
export interface KeyFormValues {
  name: string;
  scopes: ApiKeyScope[];
  allowedIps: string;
  /** 'YYYY-MM-DD' (what <input type="date"> holds), or '' for no expiry. */
  expiresOn: string;
}

export const EMPTY_KEY_FORM: KeyFormValues = { name: '', scopes: [], allowedIps: '', expiresOn: '' };

/** A problem of one field: a catalogue key and its parameters. */
export interface Problem {
  key: MessageKey;
  params?: Params;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local calendar day of a time, as 'YYYY-MM-DD'. */
export function localDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * When a key chosen to expire on a local day stops working: the start of the next local day, so
 * it works through the whole day chosen. Null for no day or an impossible one.
 */
export function expiryOf(day: string): string | null {
  const m = DAY.exec(day.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const start = new Date(y, mo - 1, d);
  if (start.getFullYear() !== y || start.getMonth() !== mo - 1 || start.getDate() !== d) return null;
  return new Date(y, mo - 1, d + 1).toISOString();
}

/** The textarea's entries: one per line (blank lines are skipped by the check). */
export const ipLines = (text: string): string[] => text.split(/\r?\n/);

/** Each field's first problem, by the contract's rules; `today` is the local day ('YYYY-MM-DD'). */
export function keyFormProblems(
  v: KeyFormValues,
  today: string,
): Partial<Record<keyof KeyFormValues, Problem>> {
  const problems: Partial<Record<keyof KeyFormValues, Problem>> = {};
  if (!v.name.trim()) problems.name = { key: 'apikey.keyNameRequired' };
  if (!API_KEY_SCOPES.some((s) => v.scopes.includes(s)))
    problems.scopes = { key: 'apikey.keyScopesRequired' };
  const ips = checkAllowedIps(ipLines(v.allowedIps));
  if (!ips.ok) {
    problems.allowedIps =
      ips.problem === 'invalid'
        ? { key: 'apikey.keyIpInvalid', params: { entry: ips.entry } }
        : { key: 'apikey.keyIpTooMany', params: { max: ALLOWED_IPS_MAX, count: ips.count } };
  }
  if (v.expiresOn) {
    // Same-format days compare as text.
    if (expiryOf(v.expiresOn) === null || v.expiresOn < today)
      problems.expiresOn = { key: 'apikey.keyExpiryPast' };
  }
  return problems;
}

/** The create call's body from checked values: addresses in normal form, the expiry as an ISO time. */
export function toCreateBody(v: KeyFormValues): CreateApiKeyBody {
  const ips = checkAllowedIps(ipLines(v.allowedIps));
  const expiresAt = v.expiresOn ? expiryOf(v.expiresOn) : null;
  return {
    name: v.name.trim(),
    scopes: API_KEY_SCOPES.filter((s) => v.scopes.includes(s)),
    ...(ips.ok && ips.ranges.length ? { allowedIps: ips.ranges } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A key's first characters as shown (an ellipsis says the rest is not kept); null: unreadable. */
export function prefixText(k: Pick<ApiKeyInfo, 'prefix'>): string | null {
  return k.prefix ? `${k.prefix}…` : null;
}

/** A URL's events in the contract's order; every event: null (shown as "All events"). */
export function eventsSummary(events: readonly WebhookEventName[]): WebhookEventName[] | null {
  const chosen = WEBHOOK_EVENTS.filter((e) => events.includes(e));
  return chosen.length === WEBHOOK_EVENTS.length ? null : chosen;
}
