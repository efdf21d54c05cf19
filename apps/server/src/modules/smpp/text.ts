// The text of a submit_sm: its user data header (concatenation) and its data_coding. Pure.

// GSM 03.38 default alphabet by septet (0x1B is the escape to the extension table).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION: Record<number, string> = {
  10: '\f',
  20: '^',
  40: '{',
  41: '}',
  47: '\\',
  60: '[',
  61: '~',
  62: ']',
  64: '|',
  101: '€',
};

/** GSM 7-bit default alphabet, one septet per octet (SMPP's data_coding 0 is never packed). */
export function decodeGsm(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]! & 0x7f;
    if (b === 0x1b && i + 1 < bytes.length) {
      const next = bytes[++i]! & 0x7f;
      // An escape to an unknown extension character reads as a space (3GPP 23.038).
      out += GSM_EXTENSION[next] ?? ' ';
    } else {
      out += b === 0x1b ? ' ' : GSM_BASIC[b]!;
    }
  }
  return out;
}

/** The data_codings the server reads: 0 GSM 7-bit, 1 IA5 (ASCII), 3 Latin-1, 8 UCS-2. */
export type DataCoding = 0 | 1 | 3 | 8;
export const isDataCoding = (dc: number): dc is DataCoding => dc === 0 || dc === 1 || dc === 3 || dc === 8;

/** A message's bytes as text; undefined when UCS-2 has an odd length. */
export function decodeText(bytes: Buffer, dataCoding: DataCoding): string | undefined {
  switch (dataCoding) {
    case 0:
      return decodeGsm(bytes);
    case 1:
    case 3:
      return bytes.toString('latin1');
    case 8: {
      if (bytes.length % 2 !== 0) return undefined;
      const swapped = Buffer.from(bytes);
      swapped.swap16();
      return swapped.toString('utf16le');
    }
  }
}

/** A concatenated message's part, from its UDH (IE 0x00 or 0x08) or the SAR TLVs. */
export interface PartInfo {
  ref: number;
  total: number;
  seq: number;
}

/**
 * Splits the user data header off a message (esm_class 0x40): the concatenation element if any,
 * and the user data after the header. Undefined when the header runs past the message.
 */
export function splitUdh(data: Buffer): { part: PartInfo | undefined; text: Buffer } | undefined {
  if (data.length < 1) return undefined;
  const udhl = data[0]!;
  if (1 + udhl > data.length) return undefined;
  let part: PartInfo | undefined;
  let at = 1;
  while (at + 2 <= 1 + udhl) {
    const iei = data[at]!;
    const len = data[at + 1]!;
    if (at + 2 + len > 1 + udhl) return undefined;
    const ie = data.subarray(at + 2, at + 2 + len);
    if (iei === 0x00 && len === 3) part = { ref: ie[0]!, total: ie[1]!, seq: ie[2]! };
    if (iei === 0x08 && len === 4) part = { ref: ie.readUInt16BE(0), total: ie[2]!, seq: ie[3]! };
    at += 2 + len;
  }
  return { part, text: data.subarray(1 + udhl) };
}

/** A part is usable when it names a set of 2 or more parts and its place in it. */
export const validPart = (p: PartInfo) => p.total >= 1 && p.seq >= 1 && p.seq <= p.total;

const GSM_REVERSE = new Map<string, number[]>();
for (let i = 0; i < GSM_BASIC.length; i++) if (i !== 0x1b) GSM_REVERSE.set(GSM_BASIC[i]!, [i]);
for (const [code, ch] of Object.entries(GSM_EXTENSION)) GSM_REVERSE.set(ch, [0x1b, Number(code)]);

/** Whether the GSM 7-bit default alphabet (or its extension) holds the character. */
export const isGsm = (ch: string) => GSM_REVERSE.has(ch);

/** Text as data_coding 0 (GSM 7-bit, one septet an octet), or as 8 (UCS-2) when GSM cannot hold it. */
export function encodeText(text: string): { dataCoding: 0 | 8; bytes: Buffer } {
  const out: number[] = [];
  for (const ch of text) {
    const septets = GSM_REVERSE.get(ch);
    if (!septets) {
      const bytes = Buffer.from(text, 'utf16le');
      bytes.swap16();
      return { dataCoding: 8, bytes };
    }
    out.push(...septets);
  }
  return { dataCoding: 0, bytes: Buffer.from(out) };
}
