// Pure parsers for the Ejoin/Skyline "goip_*" protocol (docs/devices-ejoin.md).
// Devices differ between firmware versions, so every reader is tolerant of their quirks.
import { cleanText, normalizeMac, type SimState } from '@simdock/contract';
import {
  type DeviceStatus,
  type IncomingSmsItem,
  jsonTooDeep,
  ProtocolError,
  type SimEntry,
} from './driver.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Device strings are stored: no NUL, no lone surrogates (cleanText), at most this long. */
const DEVICE_STRING_MAX = 256;

/** A trimmed non-empty string, from a string or a number; null otherwise. */
function str(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = cleanText(v.slice(0, DEVICE_STRING_MAX * 4))
    .trim()
    .slice(0, DEVICE_STRING_MAX);
  return t === '' ? null : t;
}

/** The largest value of an SQL integer column. */
export const INT32_MAX = 2_147_483_647;

/**
 * The leading integer of 3, "3", "3 OK", "6 Timeout"; undefined when there is none or it is not
 * a safe integer (1e308 from a device is no number we can store).
 */
export function leadingInt(v: unknown): number | undefined {
  if (typeof v === 'number') {
    const n = Number.isFinite(v) ? Math.trunc(v) : Number.NaN;
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (typeof v !== 'string') return undefined;
  const m = v.trimStart().match(/^-?\d{1,16}/);
  if (!m) return undefined;
  const n = Number(m[0]);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A leading integer that fits an SQL integer column; null otherwise. */
function int(v: unknown): number | null {
  const n = leadingInt(v);
  return n === undefined || Math.abs(n) > INT32_MAX ? null : n;
}

export function formatPort(portNo: number, slotNo: number): string {
  return `${portNo}.${String(slotNo).padStart(2, '0')}`;
}

export interface PortRef {
  port: string;
  portNo: number;
  slotNo: number;
}

/** "1.01", "1.1", "1A"/"1b" (letter = slot), "1" or 1 (slot 1) → canonical "N.SS". */
export function normalizePort(raw: unknown): PortRef | undefined {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const dotted = s.match(/^(\d{1,3})\.(\d{1,3})$/);
  const lettered = s.match(/^(\d{1,3})([A-Za-z])$/);
  const bare = s.match(/^(\d{1,3})$/);
  let portNo: number;
  let slotNo: number;
  if (dotted) {
    portNo = Number(dotted[1]);
    slotNo = Number(dotted[2]);
  } else if (lettered) {
    portNo = Number(lettered[1]);
    slotNo = lettered[2]!.toUpperCase().charCodeAt(0) - 64;
  } else if (bare) {
    portNo = Number(bare[1]);
    slotNo = 1;
  } else {
    return undefined;
  }
  if (portNo < 1 || slotNo < 1) return undefined;
  return { port: formatPort(portNo, slotNo), portNo, slotNo };
}

/** `n` of `sim_number(n)`: slots are numbered across the device from 0. */
export function slotIndex(portNo: number, slotNo: number, slotsPerPort: number): number {
  return (portNo - 1) * Math.max(1, slotsPerPort) + (slotNo - 1);
}

/** One SIM slot as the box reports it: the platform's entry plus the box's port and slot numbers. */
export interface PortEntry extends SimEntry {
  portNo: number;
  slotNo: number;
}

/**
 * The box's SIM states (`st`, docs/devices-ejoin.md#sim-states): its words and the platform state each
 * maps onto. 15 (accessing the mobile network) is a registered SIM in a data session: usable.
 * Inter-calling (13, 14) and a module timeout (16) neither send nor are the SIM's fault.
 */
const EJOIN_SIM_STATES: Readonly<Record<number, { text: string; state: SimState }>> = {
  0: { text: 'No SIM', state: 'empty' },
  1: { text: 'Idle SIM', state: 'starting' },
  2: { text: 'Registering', state: 'starting' },
  3: { text: 'Registered', state: 'ready' },
  4: { text: 'Call connected', state: 'busy' },
  5: { text: 'No balance / alarm', state: 'blocked' },
  6: { text: 'Registration failed', state: 'blocked' },
  7: { text: 'Locked by device', state: 'blocked' },
  8: { text: 'Locked by operator', state: 'blocked' },
  9: { text: 'SIM error', state: 'blocked' },
  11: { text: 'Card detected', state: 'starting' },
  12: { text: 'User locked', state: 'blocked' },
  13: { text: 'Inter-calling', state: 'unknown' },
  14: { text: 'Inter-calling hold', state: 'unknown' },
  15: { text: 'Accessing mobile network', state: 'busy' },
  16: { text: 'Module timeout', state: 'unknown' },
};

/** `st` as the platform's state and the box's words; a code the table lacks is `unknown`. */
export function ejoinSimState(st: number): { state: SimState; deviceState: string } {
  const known = EJOIN_SIM_STATES[st];
  return known
    ? { state: known.state, deviceState: known.text }
    : { state: 'unknown', deviceState: `State ${st}` };
}

/** One `status[]` entry or a `port-status` push; `st` may be 3, "3 OK", or named `status`. */
export function parsePortEntry(raw: unknown): PortEntry {
  if (!isObj(raw)) throw new ProtocolError('port entry is not an object');
  const ref = normalizePort(raw.port);
  if (!ref) throw new ProtocolError(`port entry has no valid port (${JSON.stringify(raw.port)})`);
  let st = leadingInt(raw.st) ?? leadingInt(raw.status) ?? 0;
  // Newer firmware says "not inserted" explicitly; trust it over a stale st.
  if (raw.inserted === 0 || raw.inserted === '0') st = 0;
  const { state, deviceState } = ejoinSimState(st);
  const empty = state === 'empty';
  const operator = str(raw.opr);
  const active =
    raw.active === undefined ? null : raw.active === 1 || raw.active === '1' || raw.active === true;
  return {
    slot: ref.port,
    portNo: ref.portNo,
    slotNo: ref.slotNo,
    state,
    deviceState,
    iccid: empty ? null : str(raw.iccid),
    imsi: empty ? null : str(raw.imsi),
    imei: str(raw.imei),
    number: empty ? null : str(raw.sn),
    // "0 " is what an unregistered module reports: no operator.
    operator: operator && !/^0?$/.test(operator) ? operator : null,
    signal: int(raw.sig),
    balance: str(raw.bal),
    active,
  };
}

/** `dev-status`, pulled (Scan) or pushed; `max-slot` (real firmware) or `max-slots` (spec). */
export function parseDevStatus(raw: unknown): DeviceStatus {
  if (!isObj(raw)) throw new ProtocolError('dev-status is not an object');
  if (raw.type !== undefined && raw.type !== 'dev-status') {
    throw new ProtocolError(`expected dev-status, got ${JSON.stringify(raw.type)}`);
  }
  const mac = typeof raw.mac === 'string' ? normalizeMac(raw.mac) : undefined;
  if (!mac) throw new ProtocolError('dev-status carries no valid mac');
  const list = Array.isArray(raw.status) ? raw.status : [];
  const ports: PortEntry[] = [];
  for (const e of list) {
    try {
      ports.push(parsePortEntry(e));
    } catch {
      // One unreadable entry must not hide the others.
    }
  }
  ports.sort((a, b) => a.portNo - b.portNo || a.slotNo - b.slotNo);
  const maxPorts = int(raw['max-ports'] ?? raw.max_ports);
  const maxSlots = int(raw['max-slot'] ?? raw['max-slots'] ?? raw.max_slot ?? raw.max_slots);
  return {
    externalId: mac,
    model: null,
    ip: str(raw.ip),
    firmware: str(raw.ver),
    maxPorts,
    maxSlots,
    // A report that lists every slot of the box lets the platform forget slots it no longer has.
    complete: maxPorts !== null && maxSlots !== null && ports.length === maxPorts * maxSlots,
    sims: ports.map(({ portNo: _p, slotNo: _s, ...sim }) => sim),
  };
}

/** Strict base64 of valid UTF-8 → text; anything else is returned as it came. */
export function decodeContent(content: string): string {
  const compact = content.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
  } catch {
    return content;
  }
}

/** Device times beyond this (year 2100, in seconds) are garbage, not times. */
const TS_MAX = 4_102_444_800;

function tsOf(v: unknown): number | null {
  const n = leadingInt(v);
  return n !== undefined && n > 0 && n <= TS_MAX ? n : null;
}

/** One `recv-sms` row: [flag, port, ts, sender, recipient, content]. */
function parseRecvRow(row: unknown): IncomingSmsItem | undefined {
  if (!Array.isArray(row) || row.length < 6) return undefined;
  const ref = normalizePort(row[1]);
  const sender = str(row[3]);
  if (!ref || sender === null || typeof row[5] !== 'string') return undefined;
  const isReport = leadingInt(row[0]) === 1;
  // Receipts carry plain "<code> <scts>"; SMS content is always base64 of UTF-8.
  const text = isReport && /^\d+\s/.test(row[5]) ? row[5] : decodeContent(row[5]);
  return { isReport, port: ref.port, ts: tsOf(row[2]), sender, recipient: str(row[4]), text };
}

/** The v3 firmware push: `{type:"received-sms", smses:[{is_report, port, slot, ts, from, to, iccid, sms}]}`. */
function parseV3Row(e: unknown): IncomingSmsItem | undefined {
  if (!isObj(e)) return undefined;
  const portNo = leadingInt(e.port);
  const slotNo = leadingInt(e.slot) ?? 1;
  const ref =
    typeof e.port === 'string' && e.slot === undefined
      ? normalizePort(e.port)
      : portNo
        ? normalizePort(formatPort(portNo, slotNo))
        : undefined;
  const sender = str(e.from);
  if (!ref || sender === null || typeof e.sms !== 'string') return undefined;
  const isReport = e.is_report === true || e.is_report === 1;
  const text = isReport && /^\d+\s/.test(e.sms) ? e.sms : decodeContent(e.sms);
  return {
    isReport,
    port: ref.port,
    ts: tsOf(e.ts),
    sender,
    recipient: str(e.to),
    text,
    iccid: str(e.iccid),
  };
}

/**
 * The "SMS to HTTP" forward of the device web UI: plain text, `?port=&sender=&mac=&iccid=` in the
 * query, `Sender:`/`Receiver:` header lines, a blank line, then the message.
 */
export function parseRecvSmsText(
  text: string,
  query: Record<string, string | undefined> = {},
): IncomingSmsItem {
  const normalized = text.replace(/\r\n?/g, '\n');
  const { headers, body } = splitForwardHeaders(normalized);
  const receiver = headers.get('receiver');
  const ref = normalizePort(query.port) ?? normalizePort(receiver);
  if (!ref) throw new ProtocolError('forwarded SMS names no port');
  const sender = str(query.sender) ?? str(headers.get('sender'));
  if (!sender) throw new ProtocolError('forwarded SMS names no sender');
  return {
    isReport: false,
    port: ref.port,
    ts: null,
    sender,
    // The Receiver line names the port on most firmware, so only a number-looking value counts.
    recipient: receiver && /^\+?\d{5,}$/.test(receiver) ? receiver : null,
    text: body.trim(),
    iccid: str(query.iccid),
  };
}

/** Header lines of a forward: a few short lines; anything longer is not a header block. */
const HEADER_LINES_MAX = 32;
const HEADER_BLOCK_MAX = 4096;
const HEADER_NAME = /^[A-Za-z][\w-]*:/;

/**
 * `Name: value` lines up to the first blank line (spaces or tabs only), then the body. Without
 * such a block (no blank line, a line that is no header, or a block over the bounds) the whole
 * text is the body. Line by line with indexOf and anchored one-quantifier patterns: linear time.
 */
function splitForwardHeaders(text: string): { headers: Map<string, string>; body: string } {
  const headers = new Map<string, string>();
  const none = { headers: new Map<string, string>(), body: text };
  let pos = 0;
  for (let n = 0; n <= HEADER_LINES_MAX; n++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0 || nl > HEADER_BLOCK_MAX) return none;
    const line = text.slice(pos, nl);
    pos = nl + 1;
    if (/^[ \t]*$/.test(line)) return n === 0 ? none : { headers, body: text.slice(pos) };
    const name = HEADER_NAME.exec(line);
    if (!name) return none;
    // The value: trimmed, one pair of surrounding quotes removed; a quote inside makes it unreadable.
    let value = line.slice(name[0].length).trim();
    if (value.startsWith('"')) value = value.slice(1);
    if (value.endsWith('"')) value = value.slice(0, -1);
    if (!value.includes('"')) headers.set(name[0].slice(0, -1).toLowerCase(), value.trim());
  }
  return none;
}

/**
 * An incoming-SMS push: JSON `recv-sms` (rows), the v3 `received-sms`, or the plain-text forward.
 * Malformed rows are skipped; a body that is none of these throws.
 */
export function parseRecvSms(
  body: unknown,
  query: Record<string, string | undefined> = {},
): IncomingSmsItem[] {
  if (typeof body === 'string') {
    const t = body.trim();
    if (t.startsWith('{')) {
      if (jsonTooDeep(t)) throw new ProtocolError('SMS push is nested too deeply');
      try {
        return parseRecvSms(JSON.parse(t), query);
      } catch (err) {
        if (err instanceof ProtocolError) throw err;
      }
    }
    return [parseRecvSmsText(body, query)];
  }
  if (!isObj(body)) throw new ProtocolError('SMS push is not an object');
  if (Array.isArray(body.sms)) {
    return body.sms.map(parseRecvRow).filter((x): x is IncomingSmsItem => x !== undefined);
  }
  if (Array.isArray(body.data)) {
    return body.data.map(parseRecvRow).filter((x): x is IncomingSmsItem => x !== undefined);
  }
  if (Array.isArray(body.smses)) {
    return body.smses.map(parseV3Row).filter((x): x is IncomingSmsItem => x !== undefined);
  }
  throw new ProtocolError(`not an SMS push (type ${JSON.stringify(body.type)})`);
}

/** A status-report's rows for one task, as the device writes them (docs/devices-ejoin.md#pushes). */
export interface EjoinTaskReport {
  tid: number;
  sending: number;
  sent: number;
  failed: number;
  unsent: number;
  sdr: SdrRow[];
  fdr: FdrRow[];
}
export interface SdrRow {
  index: number;
  number: string;
  port: string;
  ts: number;
}
export interface FdrRow extends SdrRow {
  /** Task status code of the reason ("6 Timeout" → 6). */
  reasonCode: number | null;
  reason: string;
  carrierReason: string;
}

function parseSdr(row: unknown): SdrRow | undefined {
  if (!Array.isArray(row) || row.length < 4) return undefined;
  const ref = normalizePort(row[2]);
  const number = str(row[1]);
  const index = leadingInt(row[0]);
  const ts = leadingInt(row[3]);
  if (!ref || number === null || index === undefined || ts === undefined) return undefined;
  return { index, number, port: ref.port, ts };
}

function parseFdr(row: unknown): FdrRow | undefined {
  const base = parseSdr(row);
  if (!base || !Array.isArray(row)) return undefined;
  const reason = typeof row[4] === 'string' ? row[4].trim() : '';
  return {
    ...base,
    reason,
    reasonCode: leadingInt(row[4]) ?? null,
    carrierReason: typeof row[5] === 'string' ? row[5].trim() : '',
  };
}

const nonNeg = (v: unknown) => Math.max(0, leadingInt(v) ?? 0);

/** `status-report`: running totals per task plus the sdr/fdr rows since the previous report. */
export function parseStatusReport(raw: unknown): { reports: EjoinTaskReport[] } {
  if (!isObj(raw)) throw new ProtocolError('status-report is not an object');
  if (raw.type !== undefined && raw.type !== 'status-report') {
    throw new ProtocolError(`expected status-report, got ${JSON.stringify(raw.type)}`);
  }
  const rpts = Array.isArray(raw.rpts) ? raw.rpts : [];
  const reports: EjoinTaskReport[] = [];
  for (const r of rpts) {
    if (!isObj(r)) continue;
    const tid = leadingInt(r.tid);
    if (tid === undefined) continue;
    reports.push({
      tid,
      sending: nonNeg(r.sending),
      sent: nonNeg(r.sent),
      failed: nonNeg(r.failed),
      unsent: nonNeg(r.unsent),
      sdr: (Array.isArray(r.sdr) ? r.sdr : []).map(parseSdr).filter((x): x is SdrRow => x !== undefined),
      fdr: (Array.isArray(r.fdr) ? r.fdr : []).map(parseFdr).filter((x): x is FdrRow => x !== undefined),
    });
  }
  return { reports };
}

export interface Reply {
  ok: boolean;
  code: number | null;
  reason: string;
}

/** `{code, reason}` replies: success is 0 (goip_get_sms, op=set) or 200 (most others). */
export function parseReply(raw: unknown): Reply {
  if (!isObj(raw)) return { ok: false, code: null, reason: 'not a JSON object' };
  const code = leadingInt(raw.code);
  const reason = typeof raw.reason === 'string' ? raw.reason : '';
  return { ok: code === 0 || code === 200, code: code ?? null, reason };
}

/** Device codes that mean the account was refused (1 Invalid User, 14 Unauthorized). */
export function isAuthFailure(reply: Reply): boolean {
  return reply.code === 1 || reply.code === 14 || /unauthori[sz]ed|invalid user/i.test(reply.reason);
}
