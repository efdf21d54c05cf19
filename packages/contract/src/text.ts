/**
 * Text from devices and users, made safe to store: PostgreSQL's `text` refuses U+0000 (22021),
 * and a lone UTF-16 surrogate is not a character at all (it would be stored as garbage or refused).
 * NUL is removed; every lone surrogate becomes U+FFFD. Linear time; valid text comes back unchanged.
 */
export function cleanText(value: string): string {
  const s = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  return wellFormed(s) ? s : toWellFormed(s);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one. No nested
// quantifiers: one step per code unit.
const LONE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const LONE_SURROGATE = new RegExp(LONE);
const LONE_SURROGATE_G = new RegExp(LONE, 'g');

// The engine's own check and repair (ES2024; Node 20, browsers since 2023) where there is one: on the
// server every SMS and request text goes through them, and the regular expressions cost more.
const native = typeof String.prototype.isWellFormed === 'function';
const wellFormed = native ? (s: string) => s.isWellFormed() : (s: string) => !LONE_SURROGATE.test(s);
const toWellFormed = native
  ? (s: string) => s.toWellFormed()
  : (s: string) => s.replace(LONE_SURROGATE_G, '\uFFFD');

/** True when the text holds U+0000, which no stored field may contain. */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** True when the text holds a lone UTF-16 surrogate (no character; some drivers encode it as invalid UTF-8). */
export function hasLoneSurrogate(value: string): boolean {
  return !wellFormed(value);
}
