import { type MessagingMessage, messagingMessage } from './messages.ts';
import { totalPages } from './pagination.ts';

/**
 * Bulk SMS rules (docs/product.md), one implementation for the sending page and the server.
 * Everything here is pure and linear in the size of its input.
 */

/** 1 followed by exactly 10 digits (docs/product.md#forms). Only ever run on an 11-character string. */
export const PHONE_PATTERN = /^1\d{10}$/;
export const PHONE_LENGTH = 11;
/** Each message line at most 150 characters. */
export const MESSAGE_LINE_MAX = 150;
/** How many invalid numbers a message lists before '...' (docs/product.md#forms). */
export const INVALID_LIST_MAX = 5;
/** A listed invalid entry longer than this is cut (a pasted 1 MB line must not end up in a message). */
export const INVALID_ENTRY_DISPLAY_MAX = 32;
/**
 * Hard caps, whatever the admin sets: recipients of one send, message variants of one send, and
 * the characters of each of the two text fields (100,000 × "1XXXXXXXXXX\r\n" fits with room to spare).
 */
export const MASS_SEND_MAX_RECIPIENTS = 100_000;
export const MASS_SEND_MAX_MESSAGES = 10_000;
export const MASS_SEND_TEXT_MAX_CHARS = 2_000_000;

/** Splits on \r\n, \n and \r. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Trimmed, non-blank lines. */
export function nonBlankLines(text: string): string[] {
  const out: string[] = [];
  for (const line of splitLines(text)) {
    const t = line.trim();
    if (t !== '') out.push(t);
  }
  return out;
}

/** Number of non-blank lines, without building them. */
export function countNonBlankLines(text: string): number {
  let count = 0;
  let blank = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (!blank) count++;
      blank = true;
    } else if (blank && !isWhitespace(c)) {
      blank = false;
    }
  }
  return blank ? count : count + 1;
}

function isWhitespace(c: number): boolean {
  // The characters String.prototype.trim removes (other than line breaks, handled by the caller).
  return (
    c === 9 ||
    c === 11 ||
    c === 12 ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

export function isValidPhone(value: string): boolean {
  return value.length === PHONE_LENGTH && PHONE_PATTERN.test(value);
}

/**
 * Longest entry normalisePhone reads: "+1 (555) 123-4567" is 17 characters; anything much longer is
 * not a formatted phone number, and is left as it is (a pasted 1 MB line is never scanned).
 */
const FORMATTED_PHONE_MAX = 40;
/** Digits with an optional leading '+' and the separators people type: spaces, dashes, dots, brackets. */
const FORMATTED_PHONE = /^\+?[\d\s\-.()[\]]+$/;

/**
 * An entry as the digits it means: a leading '+' and spaces, dashes, dots and brackets are dropped,
 * so "+1 (555) 123-4567" and "1.555.123.4567" become "15551234567". An entry holding anything else
 * (letters, other signs) comes back unchanged: then the rule reports it as it was typed.
 */
export function normalisePhone(entry: string): string {
  if (entry.length > FORMATTED_PHONE_MAX || isValidPhone(entry) || !FORMATTED_PHONE.test(entry)) return entry;
  return entry.replace(/\D/g, '');
}

export interface ParsedRecipients {
  /** Valid numbers as 1XXXXXXXXXX (normalised), first occurrence order, duplicates removed. */
  valid: string[];
  /** Invalid entries as they were given (trimmed), in input order, every occurrence. */
  invalid: string[];
  /** How many repeated valid numbers were dropped. */
  duplicatesRemoved: number;
}

/**
 * Classifies already-trimmed, non-blank entries (from a text area or a file). Each is normalised first
 * (`normalisePhone`: "+1 (555) 123-4567" is 15551234567), so a number written two ways is one recipient.
 */
export function classifyRecipients(entries: Iterable<string>): ParsedRecipients {
  const seen = new Set<string>();
  const valid: string[] = [];
  const invalid: string[] = [];
  let duplicatesRemoved = 0;
  for (const entry of entries) {
    const phone = normalisePhone(entry);
    if (!isValidPhone(phone)) invalid.push(entry);
    else if (seen.has(phone)) duplicatesRemoved++;
    else {
      seen.add(phone);
      valid.push(phone);
    }
  }
  return { valid, invalid, duplicatesRemoved };
}

/**
 * Recipients, one per line (docs/product.md#forms): lines trimmed, blank lines ignored, '+' and
 * separators dropped, each must then be 1 + 10 digits. A number given twice is sent once: duplicates
 * are removed and counted.
 */
export function parseRecipients(text: string): ParsedRecipients {
  return classifyRecipients(nonBlankLines(text));
}

/** 'a, b, c, d, e...': the first five, joined by ', ', with '...' when there are more. */
export function formatInvalidList(invalid: readonly string[]): string {
  const shown = invalid
    .slice(0, INVALID_LIST_MAX)
    .map((v) => (v.length > INVALID_ENTRY_DISPLAY_MAX ? `${v.slice(0, INVALID_ENTRY_DISPLAY_MAX)}…` : v));
  return shown.join(', ') + (invalid.length > INVALID_LIST_MAX ? '...' : '');
}

/** 'Invalid numbers (only accept format: 1XXXXXXXXXX): ' + the first five (docs/product.md#forms). */
export function invalidNumbersMessage(invalid: readonly string[]): MessagingMessage {
  return messagingMessage('invalidNumbers', { numbers: formatInvalidList(invalid) });
}

/** 'Too many phone numbers! Limit is X, but you provided Y.' (docs/product.md#forms). */
export function countLimitMessage(limit: number, provided: number): MessagingMessage {
  return messagingMessage('tooManyNumbers', { limit, provided });
}

/** 'Limit is X numbers.': shown while the recipients are over the limit (docs/product.md#forms). */
export function typingLimitMessage(limit: number): MessagingMessage {
  return messagingMessage('typingLimit', { limit });
}

/** An admin limit as a usable count: non-finite or negative → 0, fractions dropped, hard cap applied. */
export function effectiveBatchLimit(maxBatch: number): number {
  if (!Number.isFinite(maxBatch) || maxBatch < 0) return 0;
  return Math.min(Math.floor(maxBatch), MASS_SEND_MAX_RECIPIENTS);
}

/**
 * How many recipients (unique valid numbers, as `validateMassSend` counts them) are over the limit; 0
 * when they fit. A paste over the limit is kept and marked with this count, and cannot be sent.
 */
export function recipientsOverLimit(validCount: number, maxBatch: number): number {
  return Math.max(0, validCount - effectiveBatchLimit(maxBatch));
}

/** Number of Unicode code points (an emoji counts 1), without allocating. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** A message line is too long at more than 150 characters (code points, after trimming). */
export function isMessageLineTooLong(line: string): boolean {
  // A string's UTF-16 length bounds its code point count: short strings need no counting.
  return line.length > MESSAGE_LINE_MAX && codePointLength(line) > MESSAGE_LINE_MAX;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: MessagingMessage };

/**
 * Message variants, one per line: trimmed, blank lines ignored, each at most 150 characters
 * ('Each message line must not exceed 150 characters.'). No line at all is an error
 * ('Please enter the message content.'). Repeated variants are kept (they weight the rotation).
 */
export function validateMessages(text: string): RuleResult<string[]> {
  const lines = nonBlankLines(text);
  if (lines.some(isMessageLineTooLong)) return { ok: false, error: messagingMessage('messageLineTooLong') };
  if (lines.length === 0) return { ok: false, error: messagingMessage('messageRequired') };
  if (lines.length > MASS_SEND_MAX_MESSAGES) {
    return { ok: false, error: messagingMessage('tooManyMessageLines', { limit: MASS_SEND_MAX_MESSAGES }) };
  }
  return { ok: true, value: lines };
}

export interface MassSendInput {
  /** Recipients, newline-joined. */
  number: string;
  /** Message variants, newline-joined. */
  mess: string;
}

export interface MassSendPlan {
  /** Unique recipients as 1XXXXXXXXXX ("+1 555-123-4567" arrives here as 15551234567). */
  recipients: string[];
  messages: string[];
  duplicatesRemoved: number;
}

export type MassSendResult =
  | ({ ok: true } & MassSendPlan)
  | { ok: false; field: keyof MassSendInput | 'to' | 'text'; error: MessagingMessage };

/**
 * Every send rule (docs/product.md#forms), in the order the page shows them: invalid numbers, no numbers,
 * over the limit (unique valid numbers against MaxBatchSendSms, capped at MASS_SEND_MAX_RECIPIENTS), then the
 * message lines. The page calls it before sending, the server on every request.
 */
export function validateMassSend(input: MassSendInput, maxBatch: number): MassSendResult {
  const { valid, invalid, duplicatesRemoved } = parseRecipients(input.number);
  if (invalid.length > 0) return { ok: false, field: 'number', error: invalidNumbersMessage(invalid) };
  if (valid.length === 0)
    return { ok: false, field: 'number', error: messagingMessage('recipientsRequired') };
  const limit = effectiveBatchLimit(maxBatch);
  if (valid.length > limit)
    return { ok: false, field: 'number', error: countLimitMessage(limit, valid.length) };
  const messages = validateMessages(input.mess);
  if (!messages.ok) return { ok: false, field: 'mess', error: messages.error };
  return { ok: true, recipients: valid, messages: messages.value, duplicatesRemoved };
}

/**
 * A send through the API (`POST /api/v1/messages`): the recipients by the sending page's rules
 * (1 and 10 digits, duplicates dropped, at most Max Batch Send SMS), one text sent as written (no
 * splitting into variants: a program's text may hold line breaks), which may be empty only for an
 * MMS. The same plan `validateMassSend` makes, so one implementation queues both.
 */
export function validateApiSend(
  input: { to: readonly string[]; text: string; hasMedia: boolean },
  maxBatch: number,
): MassSendResult {
  const { valid, invalid, duplicatesRemoved } = classifyRecipients(
    input.to.map((n) => n.trim()).filter((n) => n !== ''),
  );
  if (invalid.length > 0) return { ok: false, field: 'to', error: invalidNumbersMessage(invalid) };
  if (valid.length === 0) return { ok: false, field: 'to', error: messagingMessage('recipientsRequired') };
  const limit = effectiveBatchLimit(maxBatch);
  if (valid.length > limit) return { ok: false, field: 'to', error: countLimitMessage(limit, valid.length) };
  if (input.text.trim() === '' && !input.hasMedia) {
    return { ok: false, field: 'text', error: messagingMessage('messageRequired') };
  }
  return { ok: true, recipients: valid, messages: [input.text], duplicatesRemoved };
}

export interface Assignment {
  to: string;
  text: string;
}

/** Every recipient gets one variant, rotating: recipient i gets messages[i mod n]. */
export function assignMessages(recipients: readonly string[], messages: readonly string[]): Assignment[] {
  if (recipients.length > 0 && messages.length === 0) {
    throw new RangeError('assignMessages needs at least one message');
  }
  return recipients.map((to, i) => ({ to, text: messages[i % messages.length]! }));
}

export type DeliveryIndicator = 'success' | 'fail' | 'none';

/**
 * Outgoing chat message (docs/product.md#states-and-colours): success when status or result is 1; fail when
 * either is 0.
 */
export function deliveryIndicator(m: {
  status?: number | null | undefined;
  result?: number | null | undefined;
}): DeliveryIndicator {
  if (m.status === 1 || m.result === 1) return 'success';
  if (m.status === 0 || m.result === 0) return 'fail';
  return 'none';
}

/**
 * History pages (docs/product.md#limits-and-timings): ceil(total / size), minimum 1; a missing or zero total
 * falls back to numCnt.
 */
export function historyTotalPages(
  total: number | null | undefined,
  numCnt: number | null | undefined,
  size: number,
): number {
  const count = typeof total === 'number' && Number.isFinite(total) && total > 0 ? total : (numCnt ?? 0);
  return totalPages(Number.isFinite(count) ? count : 0, size);
}
