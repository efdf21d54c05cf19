/**
 * IP addresses and CIDR ranges, as an API key's allowed addresses use them: the server checks a
 * caller against them and the web checks what is typed with the same rules.
 *
 * Rules:
 *   - IPv4 is dotted decimal, four parts 0–255, no leading zeros ("010" could mean octal: refused).
 *   - IPv6 is hexadecimal groups with at most one "::", optionally ending in dotted IPv4; zone ids
 *     ("%eth0") are refused.
 *   - A range is an address with an optional "/prefix" (0–32 or 0–128); host bits are cleared
 *     ("10.1.2.3/8" is "10.0.0.0/8"), a single address has no prefix in its normal form.
 *   - An IPv4-mapped IPv6 address ("::ffff:1.2.3.4") is that IPv4 address, as a caller and as a
 *     rule (a mapped rule with a prefix of 96 or more is the IPv4 range it maps). IPv4 rules match
 *     IPv4 callers, IPv6 rules IPv6 callers.
 */

export type IpVersion = 4 | 6;

export interface IpAddress {
  version: IpVersion;
  /** 4 or 16 bytes, network order. */
  bytes: readonly number[];
}

export interface IpRange extends IpAddress {
  /** Leading bits that must match: 0–32 or 0–128. */
  prefix: number;
}

/** At most this many allowed addresses or ranges per API key. */
export const ALLOWED_IPS_MAX = 20;
/** Longer than any address with a prefix ("ffff:…:255.255.255.255/128" is 49 characters). */
export const IP_RULE_MAX = 64;

const V4_PART = /^(0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseV4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!V4_PART.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/** Hex groups of one side of "::" (an IPv4 tail counts as two groups): 16-bit values, or null. */
function groupsOf(side: string, allowV4Tail: boolean): number[] | null {
  if (side === '') return [];
  const parts = side.split(':');
  const out: number[] = [];
  for (const [i, p] of parts.entries()) {
    if (allowV4Tail && i === parts.length - 1 && p.includes('.')) {
      const v4 = parseV4(p);
      if (!v4) return null;
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (HEX_GROUP.test(p)) {
      out.push(Number.parseInt(p, 16));
    } else {
      return null;
    }
  }
  return out;
}

function parseV6(text: string): number[] | null {
  if (text.length > 45 || text.includes('%')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  let groups: number[];
  if (halves.length === 2) {
    const head = groupsOf(halves[0]!, false);
    const tail = groupsOf(halves[1]!, true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = groupsOf(text, true);
    if (all?.length !== 8) return null;
    groups = all;
  }
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (::ffff:a.b.c.d), or null. */
function mappedV4(bytes: readonly number[]): number[] | null {
  if (bytes.length !== 16) return null;
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return null;
  return bytes[10] === 0xff && bytes[11] === 0xff ? bytes.slice(12) : null;
}

/** Parses an address; an IPv4-mapped IPv6 address becomes its IPv4 address. Null when it is none. */
export function parseIp(text: string): IpAddress | null {
  const t = text.trim();
  if (t.length === 0 || t.length > IP_RULE_MAX) return null;
  const v4 = parseV4(t);
  if (v4) return { version: 4, bytes: v4 };
  const v6 = parseV6(t);
  if (!v6) return null;
  const mapped = mappedV4(v6);
  return mapped ? { version: 4, bytes: mapped } : { version: 6, bytes: v6 };
}

/** Clears the bits after `prefix`. */
function masked(bytes: readonly number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return keep === 8 ? b : b & ((0xff << (8 - keep)) & 0xff);
  });
}

/** Parses "address" or "address/prefix"; null when it is neither. Host bits are cleared. */
export function parseIpRange(text: string): IpRange | null {
  const t = text.trim();
  if (t.length === 0 || t.length > IP_RULE_MAX) return null;
  const slash = t.indexOf('/');
  const addressText = slash < 0 ? t : t.slice(0, slash);
  const prefixText = slash < 0 ? undefined : t.slice(slash + 1);
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const v4 = parseV4(addressText);
  const v6 = v4 ? null : parseV6(addressText);
  if (!v4 && !v6) return null;
  const max = v4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  if (v4) return { version: 4, bytes: masked(v4, prefix), prefix };
  const mapped = mappedV4(v6!);
  if (mapped && prefix >= 96) return { version: 4, bytes: masked(mapped, prefix - 96), prefix: prefix - 96 };
  return { version: 6, bytes: masked(v6!, prefix), prefix };
}

/** An address in its normal form: dotted IPv4, or IPv6 as RFC 5952 writes it. */
export function formatIp(a: IpAddress): string {
  if (a.version === 4) return a.bytes.join('.');
  const mapped = mappedV4(a.bytes);
  if (mapped) return `::ffff:${mapped.join('.')}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((a.bytes[i]! << 8) | a.bytes[i + 1]!);
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/** A range in its normal form: a single address without its prefix, else "network/prefix". */
export function formatIpRange(r: IpRange): string {
  const address = formatIp(r);
  return r.prefix === (r.version === 4 ? 32 : 128) ? address : `${address}/${r.prefix}`;
}

/** The normal form of an address or range as typed, or null when it is neither. */
export function normalizeIpRange(text: string): string | null {
  const r = parseIpRange(text);
  return r ? formatIpRange(r) : null;
}

/** The caller's address as people read it (an IPv4-mapped address as IPv4), or the text as it is. */
export function displayIp(text: string): string {
  const a = parseIp(text);
  return a ? formatIp(a) : text;
}

export function ipInRange(a: IpAddress, r: IpRange): boolean {
  if (a.version !== r.version) return false;
  const m = masked(a.bytes, r.prefix);
  return m.every((b, i) => b === r.bytes[i]);
}

/**
 * Whether a caller's address may use a key with these allowed addresses: any address when there
 * are none; else the address must fall in one of them (an unreadable address never does).
 */
export function ipAllowed(ip: string, rules: readonly string[]): boolean {
  if (rules.length === 0) return true;
  const a = parseIp(ip);
  if (!a) return false;
  return rules.some((rule) => {
    const r = parseIpRange(rule);
    return r !== null && ipInRange(a, r);
  });
}

export type AllowedIpsCheck =
  | { ok: true; ranges: string[] }
  | { ok: false; problem: 'invalid'; entry: string }
  | { ok: false; problem: 'too_many'; count: number };

/**
 * Checks allowed addresses as entered (one per entry; blank entries are skipped): each must be an
 * address or a range, at most ALLOWED_IPS_MAX of them. On success, their normal forms without
 * repeats, in the order entered.
 */
export function checkAllowedIps(entries: readonly string[]): AllowedIpsCheck {
  const ranges: string[] = [];
  for (const entry of entries) {
    const t = entry.trim();
    if (t === '') continue;
    const normal = normalizeIpRange(t);
    if (normal === null) return { ok: false, problem: 'invalid', entry: t };
    if (!ranges.includes(normal)) ranges.push(normal);
  }
  if (ranges.length > ALLOWED_IPS_MAX) return { ok: false, problem: 'too_many', count: ranges.length };
  return { ok: true, ranges };
}

/** The contract's sentence for a failed check (the server's refusal; the web has its own words). */
export function allowedIpsProblem(check: Exclude<AllowedIpsCheck, { ok: true }>): string {
  return check.problem === 'invalid'
    ? `"${check.entry}" is not an IPv4 or IPv6 address or CIDR range.`
    : `At most ${ALLOWED_IPS_MAX} allowed addresses (${check.count} given).`;
}
