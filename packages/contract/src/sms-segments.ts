/**
 * SMS segment count of a message as the sending page shows it while typing (GSM 03.38 / 3GPP 23.038).
 *
 * - GSM-7 when every character is in the default alphabet or its extension table; an extension
 *   character (form feed ^ { } \ [ ] ~ | €) costs 2 septets (escape + char). 160 septets fit one SMS;
 *   a longer text goes in parts of 153 septets, and an escape pair is never split across two parts.
 * - Otherwise UCS-2: 70 UTF-16 code units in one SMS, parts of 67 when longer. A character outside
 *   the BMP (most emoji) is a surrogate pair = 2 units, and a pair is never split across two parts.
 * National language shift tables are not used (phones rarely send them to this market).
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** SMS parts the text needs; 0 for an empty text. */
  segments: number;
  /** Capacity of one part at this length: 160/70 for a single SMS, 153/67 when concatenated. */
  charsPerSegment: number;
  /** Length in the encoding's units: septets (GSM-7) or UTF-16 code units (UCS-2). */
  length: number;
  /** Units still free in the last part before another part is needed. */
  remainingInSegment: number;
}

export const GSM_SINGLE = 160;
export const GSM_PART = 153;
export const UCS2_SINGLE = 70;
export const UCS2_PART = 67;

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const basicSet = new Set<number>();
for (let i = 0; i < GSM_BASIC.length; i++) basicSet.add(GSM_BASIC.charCodeAt(i));
const extensionSet = new Set<number>();
for (let i = 0; i < GSM_EXTENSION.length; i++) extensionSet.add(GSM_EXTENSION.charCodeAt(i));

/** Septets of one UTF-16 unit in GSM-7: 1, 2 (extension table), or 0 when it is not GSM-7 at all. */
function gsmSeptets(code: number): 0 | 1 | 2 {
  if (basicSet.has(code)) return 1;
  if (extensionSet.has(code)) return 2;
  return 0;
}

export function isGsm7(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (gsmSeptets(text.charCodeAt(i)) === 0) return false;
  return true;
}

/**
 * Packs character costs into parts of `part` units without splitting a character; returns the part
 * count and the units used in the last part.
 */
function pack(costs: Iterable<number>, part: number): { segments: number; used: number } {
  let segments = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > part) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return { segments, used };
}

function* gsmCosts(text: string): Generator<number> {
  for (let i = 0; i < text.length; i++) yield gsmSeptets(text.charCodeAt(i));
}

function* ucs2Costs(text: string): Generator<number> {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        yield 2;
        continue;
      }
    }
    yield 1;
  }
}

export function smsSegments(text: string): SmsSegments {
  const gsm = isGsm7(text);
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const single = gsm ? GSM_SINGLE : UCS2_SINGLE;
  const part = gsm ? GSM_PART : UCS2_PART;
  let length = 0;
  if (gsm) for (const c of gsmCosts(text)) length += c;
  else length = text.length;
  if (length === 0) {
    return { encoding, segments: 0, charsPerSegment: single, length, remainingInSegment: single };
  }
  if (length <= single) {
    return { encoding, segments: 1, charsPerSegment: single, length, remainingInSegment: single - length };
  }
  const { segments, used } = pack(gsm ? gsmCosts(text) : ucs2Costs(text), part);
  return { encoding, segments, charsPerSegment: part, length, remainingInSegment: part - used };
}
