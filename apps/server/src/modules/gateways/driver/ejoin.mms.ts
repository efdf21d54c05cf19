// Incoming MMS of Ejoin/Skyline devices (docs/devices-ejoin.md#mms): an HTTP POST of `multipart/related`
// (a SMIL layout plus the parts) with `Emms-Subject`, `Emms-From`, `Emms-To` (base64 UTF-8;
// addresses as "<number>/TYPE=PLMN") and `Date`.
import { type IncomingMms, type MediaPart, ProtocolError } from './driver.ts';

/** Most parts one MMS may carry (devices send at most a handful). */
const MAX_PARTS = 20;

function b64Header(v: string | undefined): string {
  if (!v) return '';
  const t = v.trim();
  if (!/^[A-Za-z0-9+/=\s]*$/.test(t)) return t;
  return Buffer.from(t, 'base64').toString('utf8');
}

/** "15551234567/TYPE=PLMN" → "15551234567". */
const address = (v: string) => v.replace(/\/TYPE=.*$/i, '').trim();

function boundaryOf(contentType: string | undefined): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const b = m?.[1] ?? m?.[2];
  if (!b || !/^multipart\//i.test(contentType ?? '')) throw new ProtocolError('not a multipart MMS push');
  return b;
}

function indexOf(hay: Buffer, needle: Buffer, from: number): number {
  return hay.indexOf(needle, from);
}

/** The parts of a multipart body: their headers (lower-case names) and bytes. */
export function multipartParts(
  body: Uint8Array,
  boundary: string,
): { headers: Map<string, string>; data: Buffer }[] {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delim = Buffer.from(`--${boundary}`);
  const parts: { headers: Map<string, string>; data: Buffer }[] = [];
  let at = indexOf(buf, delim, 0);
  while (at >= 0 && parts.length < MAX_PARTS) {
    let start = at + delim.length;
    if (buf[start] === 0x2d && buf[start + 1] === 0x2d) break; // closing delimiter
    if (buf[start] === 0x0d && buf[start + 1] === 0x0a) start += 2;
    else if (buf[start] === 0x0a) start += 1;
    const next = indexOf(buf, delim, start);
    if (next < 0) break;
    let end = next;
    if (buf[end - 1] === 0x0a) end--;
    if (buf[end - 1] === 0x0d) end--;
    const chunk = buf.subarray(start, end);
    let split = chunk.indexOf('\r\n\r\n');
    let skip = 4;
    if (split < 0) {
      split = chunk.indexOf('\n\n');
      skip = 2;
    }
    if (split >= 0) {
      const headers = new Map<string, string>();
      for (const line of chunk.subarray(0, split).toString('latin1').split(/\r?\n/)) {
        const c = line.indexOf(':');
        if (c > 0) headers.set(line.slice(0, c).trim().toLowerCase(), line.slice(c + 1).trim());
      }
      parts.push({ headers, data: chunk.subarray(split + skip) });
    }
    at = next;
  }
  return parts;
}

export function parseEjoinMms(headers: Record<string, string | undefined>, body: Uint8Array): IncomingMms {
  const parts = multipartParts(body, boundaryOf(headers['content-type']));
  const sender = address(b64Header(headers['emms-from']));
  if (!sender) throw new ProtocolError('MMS push without Emms-From');
  const to = address(b64Header(headers['emms-to']));
  const date = headers.date ? Date.parse(headers.date) : Number.NaN;
  const texts: string[] = [];
  const attachments: MediaPart[] = [];
  for (const p of parts) {
    const type = (p.headers.get('content-type') ?? 'application/octet-stream')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const data =
      (p.headers.get('content-transfer-encoding') ?? '').toLowerCase() === 'base64'
        ? Buffer.from(p.data.toString('latin1'), 'base64')
        : p.data;
    if (type === 'application/smil') continue;
    if (type.startsWith('text/')) texts.push(data.toString('utf8'));
    else attachments.push({ contentType: type, data });
  }
  return {
    sender,
    recipient: to || null,
    subject: b64Header(headers['emms-subject']),
    text: texts.join('\n').trim(),
    ts: Number.isFinite(date) ? Math.floor(date / 1000) : null,
    attachments,
  };
}
