// The GoIP box's own web pages, read without any I/O: status.xml (each line's SIM), the answer of
// send.html, send_status.xml (each line's last web send) and the SMS inbox page
// (tools.html?type=sms_inbox). docs/devices-goip.md, "When the box cannot reach SimDock".
import { createHash } from 'node:crypto';
import type { DeviceStatus, IncomingSmsItem, SimEntry } from './driver.ts';
import { ProtocolError } from './driver.ts';
import { csqSignal } from './goip.protocol.ts';

/**
 * A page's bytes as text. Boxes write their XML in gb2312, but every field the platform reads is
 * ASCII, with anything else as a character reference (`&#NNN;`): the bytes are read as UTF-8 (a
 * gb2312 byte that is not becomes U+FFFD instead of an error) and the references are resolved.
 */
export function decodeBoxText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `&#NNN;`, `&#xHH;` and the five XML names resolved; a reference to no character stays as written. */
export function resolveReferences(s: string): string {
  return s.replace(/&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g, (all, dec, hex, name) => {
    if (name) return NAMED[name as string]!;
    const code = dec ? Number(dec) : Number.parseInt(hex as string, 16);
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
  });
}

/** `<tag>value</tag>` pairs of a flat XML page, values with their references resolved. */
export function xmlFields(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*)>([^<]*)<\/\1>/g))
    out.set(m[1]!, resolveReferences(m[2]!).trim());
  return out;
}

/**
 * status.xml as the platform's device status: one SIM per line (`l<n>_…` fields). No SIM (gsm_sim
 * N) is empty, a SIM logged in to the network (gsm_status LOGIN) is ready, any other is starting
 * with the box's words kept. The box ID (`boxId`) is the device's id: the page does not name it.
 */
export function parseStatusXml(xml: string, boxId: string): DeviceStatus {
  const f = xmlFields(xml);
  const lines = new Set<number>();
  for (const key of f.keys()) {
    const m = /^l(\d{1,3})_gsm_(?:sim|status)$/.exec(key);
    if (m) lines.add(Number(m[1]));
  }
  if (lines.size === 0) throw new ProtocolError('status.xml lists no line (no l1_gsm_sim field)');
  const sims = [...lines]
    .sort((a, b) => a - b)
    .map((n): SimEntry => {
      const get = (name: string) => {
        const v = f.get(`l${n}_${name}`);
        return v === undefined || v === '' ? null : v;
      };
      const inserted = (get('gsm_sim') ?? 'Y').toUpperCase() !== 'N';
      const status = get('gsm_status');
      const signal = get('gsm_signal');
      const state = !inserted ? 'empty' : status?.toUpperCase() === 'LOGIN' ? 'ready' : 'starting';
      return {
        slot: String(n),
        state,
        deviceState: state === 'starting' && status ? status : null,
        iccid: null,
        imsi: null,
        imei: get('gsm_imei'),
        number: null,
        operator: inserted ? get('gsm_cur_oper') : null,
        signal: inserted && signal !== null && /^\d{1,2}$/.test(signal) ? csqSignal(Number(signal)) : null,
        balance: null,
        active: null,
        // The page names no card: what the lines' keepalives or an admin said of it stays.
        cardUnknown: true,
      };
    });
  return {
    externalId: boxId,
    model: null,
    ip: null,
    firmware: null,
    maxPorts: sims.length,
    maxSlots: 1,
    complete: true,
    sims,
  };
}

/**
 * send.html's answer: "Sending,L1 Send SMS to:<number>; ID:<hex>" when the box took the SMS;
 * anything else is the box's refusal, in its own words (undefined id).
 */
export function parseSendReply(text: string): { id: string } | { refused: string } {
  const t = text.trim();
  const m = /^Sending\b[\s\S]*\bID:\s*([0-9A-Za-z]+)\s*$/.exec(t);
  if (m) return { id: m[1]! };
  return { refused: t.slice(0, 200) || 'an empty answer' };
}

export interface WebSendState {
  id: string;
  /** DONE, ERROR, or what the box says while sending (STARTED, SENDING…). */
  status: string;
  error: string;
}

/** send_status.xml: line n's last web send (`id<n>`, `status<n>`, `error<n>`), undefined if none. */
export function parseSendStatus(xml: string, line: number): WebSendState | undefined {
  const f = xmlFields(xml);
  const id = f.get(`id${line}`);
  if (!id) return undefined;
  return { id, status: (f.get(`status${line}`) ?? '').toUpperCase(), error: f.get(`error${line}`) ?? '' };
}

/** One SMS of the inbox page, on its line, with the box's clock as it shows it ("MM-DD HH:MM:SS"). */
export interface InboxEntry {
  line: number;
  boxTime: string;
  sender: string;
  text: string;
}

/**
 * The inbox page: per line a script block `sms= [ "MM-DD HH:MM:SS,<number>,<text>", … ];` then
 * `sms_row_insert(l<n>_sms_store, sms, 0, <n>)`. The strings are JavaScript (JSON) string
 * literals; the text is everything after the second comma (it may hold commas itself).
 */
export function parseInboxPage(html: string): InboxEntry[] {
  const out: InboxEntry[] = [];
  for (const start of html.matchAll(/sms\s*=\s*\[/g)) {
    const from = start.index + start[0].length - 1;
    const found = listAt(html, from);
    if (!found) continue;
    const line = /^\s*;\s*sms_row_insert\(\s*l(\d{1,3})_/.exec(html.slice(found.end, found.end + 80));
    if (!line) continue;
    for (const item of found.list) {
      if (typeof item !== 'string') continue;
      const m = /^(\d\d-\d\d \d\d:\d\d:\d\d),([^,]*),([\s\S]*)$/.exec(item);
      if (!m) continue;
      out.push({ line: Number(line[1]), boxTime: m[1]!, sender: m[2]!.trim(), text: m[3]! });
    }
  }
  return out;
}

/**
 * The JSON list that opens at `from`: a text may hold `]` itself, so each `]` is tried as the end
 * until the slice reads as a list.
 */
function listAt(html: string, from: number): { list: unknown[]; end: number } | undefined {
  for (let end = html.indexOf(']', from); end !== -1; end = html.indexOf(']', end + 1)) {
    try {
      const list: unknown = JSON.parse(html.slice(from, end + 1));
      if (Array.isArray(list)) return { list, end: end + 1 };
    } catch {
      // Not the end of the list yet.
    }
  }
  return undefined;
}

/**
 * The box's "MM-DD HH:MM:SS" (no year) as unix seconds, read as UTC: the year is the one that puts
 * it at most a day after `now` (an SMS of 31 December read on 1 January is last year's). Undefined
 * for a date that does not exist.
 */
export function boxTimeSeconds(boxTime: string, now: Date): number | undefined {
  const m = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(boxTime);
  if (!m) return undefined;
  const [mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const limit = now.getTime() + 86_400_000;
  for (let year = now.getUTCFullYear() + 1; year >= now.getUTCFullYear() - 4; year--) {
    const t = Date.UTC(year, mo - 1, d, h, mi, s);
    // 29 February exists only in some years: a date that rolled over is not this year's.
    if (new Date(t).getUTCDate() !== d) continue;
    if (t <= limit) return Math.floor(t / 1000);
  }
  return undefined;
}

/**
 * Inbox entries as the platform's incoming SMS: those the box dated at `fromSeconds` or later (the
 * watermark; the same second is read again, the key dedupes), each keyed by box, line, box time,
 * sender and text so reading the same inbox again stores nothing twice. `nextId` is the newest
 * box time read, never below `fromSeconds` while the inbox still holds what was read: when even its
 * newest SMS is older than the watermark (its clock was set back, as a box without NTP does at a
 * reboot, or the inbox was emptied), `nextId` says so by going back, and the catch-up reads the
 * whole inbox again rather than skip SMS dated before the watermark.
 *
 * An SMS dated after the watermark arrived since the last read (seconds ago at the poll's pace):
 * it carries no device time (`ts: null`), so the platform dates it by its own clock. A box's clock
 * is read as UTC but is often local time: hours behind, it would make a code that just came look
 * older than the rental it answers. The first read and a re-read after a clock set back keep the
 * box's time: what they hold may be old and must not match a newer rental. `boxSeconds` is each
 * item's box time, for paging.
 */
/** The watermark after a first read that found the inbox empty (no box time to keep). */
const READ_ONCE = 2;

export function inboxItems(
  entries: InboxEntry[],
  boxId: string,
  fromSeconds: number,
  now: Date,
): { items: IncomingSmsItem[]; boxSeconds: number[]; nextId: number } {
  let next = fromSeconds;
  let newest: number | undefined;
  // The first read (no watermark yet) has nothing to call recent.
  const read = fromSeconds > 1;
  const dated: { item: IncomingSmsItem; at: number }[] = [];
  for (const e of entries) {
    const at = boxTimeSeconds(e.boxTime, now);
    if (at === undefined) continue;
    newest = Math.max(newest ?? at, at);
    if (at < fromSeconds) continue;
    next = Math.max(next, at);
    const textHash = createHash('sha256').update(e.text).digest('hex');
    dated.push({
      at,
      item: {
        isReport: false,
        port: String(e.line),
        ts: read && at > fromSeconds ? null : at,
        sender: e.sender,
        recipient: null,
        text: e.text,
        dedupeKey: `goip-web:${boxId}:${e.line}:${e.boxTime}:${e.sender}:${textHash}`,
      },
    });
  }
  // Oldest first, as a device hands over its inbox.
  dated.sort((a, b) => a.at - b.at);
  const items = dated.map((d) => d.item);
  const boxSeconds = dated.map((d) => d.at);
  if (items.length === 0 && newest !== undefined && newest < fromSeconds)
    return { items, boxSeconds, nextId: newest };
  // An empty inbox read for the first time: read once, so what comes next counts as recent.
  if (newest === undefined) return { items, boxSeconds, nextId: Math.max(fromSeconds, READ_ONCE) };
  return { items, boxSeconds, nextId: next };
}
