// NOWPayments IPN signature verification (docs/payments.md#ipn-webhook).
//
// NOWPayments does not sign the raw bytes: it signs a canonical re-serialisation of the body —
// keys sorted alphabetically at every depth (the nested `fee` object too), compact JSON, HMAC-SHA512
// with the IPN secret (not the API key), hex, in `x-nowpayments-sig`. So we must re-serialise.
//
// Primary form (PHP reference with JSON_UNESCAPED_SLASHES, Python sort_keys + compact separators,
// NOWPayments' Node SDK): deep sort with arrays kept, `JSON.stringify` ("/" unescaped, non-ASCII raw).
// Fallbacks, tried only if the primary form does not match:
//   - arrays turned into index-keyed objects (`[5]` → `{"0":5}`): the current Node snippet in the docs;
//   - non-ASCII as \uXXXX (PHP json_encode default / Python ensure_ascii), "/" as "\/" (PHP default),
//     and both;
//   - the body's own tokens kept as sent (numbers such as `1.0`, escapes such as `\/` or `\u00e9`),
//     only the keys re-sorted: matches a signer whose encoder also wrote the body, whatever its quirks;
//     with and without \u-escaping on top of raw numbers.
// Never the shallow `JSON.stringify(obj, Object.keys(obj).sort())` form: its replacer drops nested keys.
// The comparison is constant-time. Which form matched is reported, so logs show the provider's dialect.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type CanonicalForm =
  | 'sorted'
  | 'sorted-arrays-as-objects'
  | 'sorted-ascii'
  | 'sorted-escaped-slashes'
  | 'sorted-ascii-escaped-slashes'
  | 'raw-tokens'
  | 'raw-numbers'
  | 'raw-numbers-ascii';

export type SignatureResult =
  | { ok: true; form: CanonicalForm; body: Record<string, unknown> }
  | {
      ok: false;
      reason: 'missing_signature' | 'malformed_signature' | 'malformed_body' | 'mismatch';
      detail: string;
    };

/** Largest IPN body accepted (real ones are about 1 KB). */
export const MAX_IPN_BYTES = 64 * 1024;
const MAX_DEPTH = 32;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep key sort, arrays kept as arrays (element order untouched). */
export function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (isObject(value)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = sortDeep(value[key]);
    return sorted;
  }
  return value;
}

/** The docs' current Node snippet: `Object.keys(x).sort().reduce(...)`, which also turns arrays into objects. */
function sortDeepArraysAsObjects(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(src).sort()) out[key] = sortDeepArraysAsObjects(src[key]);
  return out;
}

const escapeNonAscii = (s: string) =>
  s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const escapeSlashes = (s: string) => s.replace(/\//g, '\\/');

// ---- a JSON reader that keeps each token's source text --------------------------------------

type Token =
  | { t: 'object'; members: Map<string, { rawKey: string; value: Token }> }
  | { t: 'array'; items: Token[] }
  | { t: 'string'; raw: string; value: string }
  | { t: 'number'; raw: string }
  | { t: 'literal'; raw: 'true' | 'false' | 'null' };

class Reader {
  i = 0;
  constructor(private readonly s: string) {}

  fail(msg: string): never {
    throw new SyntaxError(`${msg} at ${this.i}`);
  }

  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i] as string)) this.i++;
  }

  document(): Token {
    const v = this.value(0);
    this.ws();
    if (this.i !== this.s.length) this.fail('trailing data');
    return v;
  }

  value(depth: number): Token {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.ws();
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    for (const lit of ['true', 'false', 'null'] as const) {
      if (this.s.startsWith(lit, this.i)) {
        this.i += lit.length;
        return { t: 'literal', raw: lit };
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) this.fail('unexpected character');
    this.i += m[0].length;
    return { t: 'number', raw: m[0] };
  }

  object(depth: number): Token {
    this.i++;
    const members = new Map<string, { rawKey: string; value: Token }>();
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return { t: 'object', members };
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a key');
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      const value = this.value(depth + 1);
      members.delete(key.value); // a repeated key: the last one wins, as in JSON.parse
      members.set(key.value, { rawKey: key.raw, value });
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return { t: 'object', members };
      if (c !== ',') this.fail('expected "," or "}"');
    }
  }

  array(depth: number): Token {
    this.i++;
    const items: Token[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return { t: 'array', items };
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return { t: 'array', items };
      if (c !== ',') this.fail('expected "," or "]"');
    }
  }

  string(): { t: 'string'; raw: string; value: string } {
    const start = this.i;
    this.i++;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail('unterminated string');
      if (c === '\\') this.i += 2;
      else if (c === '"') break;
      else this.i++;
    }
    this.i++;
    const quoted = this.s.slice(start, this.i);
    return { t: 'string', raw: quoted.slice(1, -1), value: JSON.parse(quoted) as string };
  }
}

function writeRaw(tok: Token, numbers: 'raw', strings: 'raw' | 'js' | 'ascii'): string {
  switch (tok.t) {
    case 'literal':
      return tok.raw;
    case 'number':
      return tok.raw;
    case 'string':
      return str(tok.raw, tok.value, strings);
    case 'array':
      return `[${tok.items.map((x) => writeRaw(x, numbers, strings)).join(',')}]`;
    case 'object': {
      const keys = [...tok.members.keys()].sort();
      const parts = keys.map((k) => {
        const m = tok.members.get(k) as { rawKey: string; value: Token };
        return `${str(m.rawKey, k, strings)}:${writeRaw(m.value, numbers, strings)}`;
      });
      return `{${parts.join(',')}}`;
    }
  }
}

function str(raw: string, value: string, mode: 'raw' | 'js' | 'ascii'): string {
  if (mode === 'raw') return `"${raw}"`;
  const js = JSON.stringify(value);
  return mode === 'ascii' ? escapeNonAscii(js) : js;
}

/** Keys re-sorted, every number and string kept exactly as written in the body. */
export function rawTokenForm(rawBody: string): string {
  return writeRaw(new Reader(rawBody).document(), 'raw', 'raw');
}

/** Every candidate text, primary first, without duplicates. Throws SyntaxError on malformed JSON. */
export function canonicalForms(rawBody: string): { form: CanonicalForm; text: string }[] {
  const parsed: unknown = JSON.parse(rawBody);
  const sorted = JSON.stringify(sortDeep(parsed));
  const tokens = new Reader(rawBody).document();
  const all: { form: CanonicalForm; text: string }[] = [
    { form: 'sorted', text: sorted },
    { form: 'sorted-arrays-as-objects', text: JSON.stringify(sortDeepArraysAsObjects(parsed)) },
    { form: 'sorted-ascii', text: escapeNonAscii(sorted) },
    { form: 'sorted-escaped-slashes', text: escapeSlashes(sorted) },
    { form: 'sorted-ascii-escaped-slashes', text: escapeSlashes(escapeNonAscii(sorted)) },
    { form: 'raw-tokens', text: writeRaw(tokens, 'raw', 'raw') },
    { form: 'raw-numbers', text: writeRaw(tokens, 'raw', 'js') },
    { form: 'raw-numbers-ascii', text: writeRaw(tokens, 'raw', 'ascii') },
  ];
  const seen = new Set<string>();
  return all.filter((c) => {
    if (seen.has(c.text)) return false;
    seen.add(c.text);
    return true;
  });
}

/** Verifies `x-nowpayments-sig` over the raw body text; returns the parsed body on success. */
export function verifyNowPaymentsSignature(
  rawBody: string,
  signature: string | undefined,
  secret: string,
): SignatureResult {
  if (!secret) throw new Error('NOWPayments IPN secret is not configured');
  if (signature === undefined || signature.trim() === '') {
    return { ok: false, reason: 'missing_signature', detail: 'no x-nowpayments-sig header' };
  }
  const sig = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{128}$/.test(sig)) {
    return { ok: false, reason: 'malformed_signature', detail: 'x-nowpayments-sig is not 128 hex digits' };
  }
  if (Buffer.byteLength(rawBody, 'utf8') > MAX_IPN_BYTES) {
    return { ok: false, reason: 'malformed_body', detail: `body larger than ${MAX_IPN_BYTES} bytes` };
  }
  let forms: { form: CanonicalForm; text: string }[];
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
    if (!isObject(body)) return { ok: false, reason: 'malformed_body', detail: 'body is not a JSON object' };
    forms = canonicalForms(rawBody);
  } catch (err) {
    return { ok: false, reason: 'malformed_body', detail: `body is not JSON (${(err as Error).message})` };
  }
  const given = Buffer.from(sig, 'hex');
  for (const { form, text } of forms) {
    const expected = createHmac('sha512', secret).update(text, 'utf8').digest();
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      return { ok: true, form, body: body as Record<string, unknown> };
    }
  }
  return { ok: false, reason: 'mismatch', detail: 'signature does not match the body' };
}
