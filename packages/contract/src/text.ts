/**
 * Text from devices and users, made safe to store: PostgreSQL's `text` refuses U+0000 (22021),
 * and a lone UTF-16 surrogate is not a character at all (it would be stored as garbage or refused).
 * NUL is removed; every lone surrogate becomes U+FFFD. Linear time; valid text comes back unchanged.
 */
export function cleanText(value: string): string {
  let s = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  if (LONE_SURROGATE.test(s)) s = s.replace(LONE_SURROGATE_G, '\uFFFD');
  return s;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one. No nested
// quantifiers: one step per code unit.
const LONE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const LONE_SURROGATE = new RegExp(LONE);
const LONE_SURROGATE_G = new RegExp(LONE, 'g');

/** True when the text holds U+0000, which no stored field may contain. */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** True when the text holds a lone UTF-16 surrogate (no character; some drivers encode it as invalid UTF-8). */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}
