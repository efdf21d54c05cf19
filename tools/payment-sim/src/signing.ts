// The simulator's own IPN signing, written independently of the server's verifier on purpose:
// if either side misreads the protocol, the end-to-end tests catch it.
//
// What NOWPayments signs (docs/payments.md#ipn-webhook): the parsed body with keys sorted
// alphabetically at every depth (arrays stay arrays, their element order untouched), serialised as
// compact JSON, HMAC-SHA512 with the IPN secret, hex, in the `x-nowpayments-sig` header.
//
// Two encoder dialects are simulated, because the research cannot tell which one the provider runs:
//   node   — JSON.stringify (NOWPayments' own Node SDK): `/` unescaped, non-ASCII raw, 10 → `10`.
//   python — json.dumps(sort_keys=True, separators=(',', ':')) as the Python reference does:
//            non-ASCII as \uXXXX, amounts are floats (10 → `10.0`). The body on the wire is then
//            json.dumps with the default `, ` / `: ` separators (as `requests.post(json=…)` sends it).
import { createHmac } from 'node:crypto';

export type Dialect = 'node' | 'python';

/** Fields NOWPayments sends as floating point amounts (they get `.0` in the python dialect). */
export const FLOAT_FIELDS: ReadonlySet<string> = new Set([
  'price_amount',
  'pay_amount',
  'actually_paid',
  'actually_paid_at_fiat',
  'outcome_amount',
  'depositFee',
  'withdrawalFee',
  'serviceFee',
]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep key sort as the Node SDK does it: a fresh object per level, arrays mapped element-wise. */
export function deepSort(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepSort);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = deepSort(value[k]);
    return out;
  }
  return value;
}

function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] as string;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function pyNumber(n: number, isFloat: boolean): string {
  if (!Number.isFinite(n)) throw new Error('non-finite number');
  if (isFloat && Number.isInteger(n)) return `${n}.0`;
  return String(n);
}

/** Python json.dumps; `sorted` → sort_keys=True; `compact` → separators (',', ':'). */
function pyDump(value: unknown, sorted: boolean, compact: boolean, key = ''): string {
  const comma = compact ? ',' : ', ';
  const colon = compact ? ':' : ': ';
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return pyNumber(value, FLOAT_FIELDS.has(key));
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map((v) => pyDump(v, sorted, compact)).join(comma)}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (sorted) keys.sort();
    const parts = keys.map((k) => `${pyString(k)}${colon}${pyDump(value[k], sorted, compact, k)}`);
    return `{${parts.join(comma)}}`;
  }
  throw new Error(`cannot encode ${typeof value}`);
}

/** The exact text the provider's HMAC covers. */
export function signedText(payload: Record<string, unknown>, dialect: Dialect): string {
  if (dialect === 'python') return pyDump(payload, true, true);
  return JSON.stringify(deepSort(payload));
}

/** The body as it goes on the wire: keys in the provider's own (unsorted) order. */
export function wireText(payload: Record<string, unknown>, dialect: Dialect): string {
  if (dialect === 'python') return pyDump(payload, false, false);
  return JSON.stringify(payload);
}

export function hmacHex(text: string, secret: string): string {
  return createHmac('sha512', secret).update(text, 'utf8').digest('hex');
}

export interface SignedIpn {
  body: string;
  signature: string;
  signedText: string;
}

export function signIpn(payload: Record<string, unknown>, secret: string, dialect: Dialect): SignedIpn {
  const text = signedText(payload, dialect);
  return { body: wireText(payload, dialect), signature: hmacHex(text, secret), signedText: text };
}

export type { Json };
