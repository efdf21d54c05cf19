// Pure readers and writers for the GoIP SMS protocol: plain-text UDP packets, the device connecting
// to the server. Readers never throw on what a device sends (a socket handler must survive any
// datagram): garbage is a `malformed` packet. Writers throw RangeError only on the caller's own
// mistakes (a number with a space, a text over the limit), never on device input.
import { cleanText, type SimState } from '@simdock/contract';
import type { SendResult } from '../../../context.ts';
import type { IncomingSmsItem, SimEntry } from './driver.ts';

/** A UDP datagram cannot be longer; anything longer did not come from a socket. */
export const PACKET_MAX_BYTES = 65_535;
/** The longest text one `MSG` may carry, in UTF-8 bytes (the vendor's limit). */
export const MSG_TEXT_MAX_BYTES = 3000;
/** Header values (id, password, numbers, IMSI…) longer than this are garbage, not identities. */
const FIELD_MAX = 256;
/** A keepalive's unknown fields kept for logs: at most this many, values cut to FIELD_MAX. */
const EXTRA_MAX = 32;
/** Field names are short words; a longer one is garbage and skipped. */
const KEY_MAX = 64;

// ---------------------------------------------------------------------------------------------
// Device → server

/** Fields shared by the `KIND:<recvid>;…` reports, each answered `<KIND> <recvid> OK`. */
interface ReportBase {
  /**
   * The device's digits exactly as sent (it comes from the device clock: it may be negative and
   * repeat), echoed back verbatim in the answer so the device matches it.
   */
  recvid: string;
  /** The line's configured ID and password; null when absent. The caller authenticates. */
  id: string | null;
  password: string | null;
}

/** The line's sign of life, every 30 s: its registration and its SIM's identity. */
export interface Keepalive {
  type: 'keepalive';
  /** The keepalive counter (restarts at 1 on power-up), echoed in the answer. */
  count: number;
  id: string;
  password: string | null;
  /** The SIM's own number as the line knows it. */
  num: string | null;
  /** AT+CSQ as sent (0–31, 99 = unknown); null when absent or not a number. */
  signal: number | null;
  /** Whether the line's GSM module is registered; null when the field is absent or unknown. */
  gsmStatus: 'LOGIN' | 'LOGOUT' | null;
  imei: string | null;
  imsi: string | null;
  iccid: string | null;
  /** `pro:` of newer firmware: the carrier's name. */
  carrier: string | null;
  /** Fields this reader does not interpret (voip_status, CELLINFO…), for logs. */
  extra: Record<string, string>;
}

/** An incoming SMS. */
export interface Receive extends ReportBase {
  type: 'receive';
  srcnum: string;
  /** The text exactly as sent: the rest of the packet, with its `;`, `:`, case and whitespace. */
  msg: string;
}

/** A delivery report for an SMS the line sent; `smsNo` links it to the `OK` of the send. */
export interface Deliver extends ReportBase {
  type: 'deliver';
  smsNo: number | null;
  /** The raw state as sent (its values are not documented: see deliveryResult). */
  state: string;
  num: string | null;
}

export interface LineState extends ReportBase {
  type: 'state';
  /** `gsm_remain_state`: IDLE or BUSY, as sent. */
  remainState: string | null;
}

/** A call on the line (1 = incoming). */
export interface CallRecord extends ReportBase {
  type: 'record';
  direction: 'incoming' | 'outgoing' | null;
  num: string | null;
}

export interface Remain extends ReportBase {
  type: 'remain';
  /** `gsm_remain_time`, minutes. */
  minutes: number | null;
}

/**
 * A packet this reader does not know. `recvid` is set for the `KIND:<recvid>;…` form: the device
 * re-sends those until answered `<KIND> <recvid> OK`.
 */
export interface UnknownPacket {
  type: 'unknown';
  name: string;
  recvid: string | null;
  text: string;
}

/** The send session's answers (one of the server's `MSG` sessions, named by its `sendid`). */
export type SessionAnswer =
  /** The device wants the password of the session. */
  | { type: 'password'; sendid: number }
  /** The device is ready for recipients. */
  | { type: 'send'; sendid: number }
  /** Sent to telid; `smsNo` comes back in a later DELIVER. */
  | { type: 'ok'; sendid: number; telid: number; smsNo: number | null }
  /** Still sending to telid: never send its SEND again at once. */
  | { type: 'wait'; sendid: number; telid: number }
  | SessionError
  | { type: 'done'; sendid: number };

/**
 * `ERROR <sendid> …`: for one recipient (`telid` set: `errorstatus:<n>` or GSM_LOGOUT) or for the
 * whole session (a bad password, too many sessions, the line not registered).
 */
export interface SessionError {
  type: 'error';
  sendid: number;
  telid: number | null;
  reason: 'errorstatus' | 'gsm_logout' | 'password' | 'other';
  /** The n of `errorstatus:<n>`. */
  errorStatus: number | null;
  /** The device's words after the sendid (and telid), for people. */
  text: string;
}

/** Answers to `USSD`: the network's reply text, its error, or the end of the menu. */
export type UssdAnswer =
  | { type: 'ussd'; sendid: number; text: string }
  | { type: 'ussdError'; sendid: number; text: string }
  | { type: 'ussdExit'; sendid: number };

/** A datagram that follows no known form; `kind`/`recvid` when they could be read. */
export interface Malformed {
  type: 'malformed';
  reason: string;
  kind: string | null;
  recvid: string | null;
}

export type DevicePacket =
  | Keepalive
  | Receive
  | Deliver
  | LineState
  | CallRecord
  | Remain
  | SessionAnswer
  | UssdAnswer
  | UnknownPacket
  | Malformed;

const KIND = /^[A-Za-z_][A-Za-z0-9_]{0,31}/;
const RECVID = /^-?\d{1,20}$/;
const INT = /^-?\d{1,15}$/;

/** A safe integer written as decimal digits; undefined otherwise. */
function intOf(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const t = s.trim();
  return INT.test(t) ? Number(t) : undefined;
}

/** A trimmed non-empty value; null when absent or empty. */
function value(s: string | undefined): string | null {
  if (s === undefined) return null;
  const t = s.trim();
  return t === '' ? null : t;
}

/**
 * Whether a field this reader interprets is over FIELD_MAX: then the packet is garbage (an id or
 * number cut short would name the wrong line or sender). Fields it does not read may be long.
 */
function tooLong(fields: Map<string, string>, read: ReadonlySet<string>): boolean {
  for (const [k, v] of fields) if (read.has(k) && k !== 'msg' && v.length > FIELD_MAX) return true;
  return false;
}

function malformed(reason: string, kind: string | null = null, recvid: string | null = null): Malformed {
  return { type: 'malformed', reason, kind, recvid };
}

/**
 * `key:value;key:value;…` from `start`. Keys are matched case-insensitively (lower-cased keys);
 * values are kept as sent. A `msg` key takes the rest of the text whole: an SMS may contain `;`
 * and `:`, so nothing after `msg:` is a field. Segments without a colon are kept with an empty
 * value. The first occurrence of a key wins; keys longer than KEY_MAX are dropped.
 */
function readFields(text: string, start: number): Map<string, string> {
  const fields = new Map<string, string>();
  let pos = start;
  while (pos < text.length) {
    // One segment at a time, looking no further than its `;`: linear in the packet's length
    // whatever it holds (a search for `:` across the whole rest would be quadratic).
    const semi = text.indexOf(';', pos);
    const end = semi < 0 ? text.length : semi;
    const segment = text.slice(pos, end);
    const colon = segment.indexOf(':');
    const key = (colon < 0 ? segment : segment.slice(0, colon)).trim().toLowerCase();
    if (colon >= 0 && key === 'msg') {
      if (!fields.has('msg')) fields.set('msg', text.slice(pos + colon + 1));
      return fields;
    }
    if (key !== '' && key.length <= KEY_MAX && !fields.has(key)) {
      fields.set(key, colon < 0 ? '' : segment.slice(colon + 1));
    }
    pos = end + 1;
  }
  return fields;
}

/** Bytes (or text) of one datagram → text: UTF-8, invalid sequences replaced, no NUL. */
function decode(raw: string | Uint8Array): string | null {
  if (typeof raw === 'string') {
    if (raw.length > PACKET_MAX_BYTES) return null;
    return cleanText(raw);
  }
  if (raw.byteLength > PACKET_MAX_BYTES) return null;
  return cleanText(new TextDecoder('utf-8').decode(raw));
}

/**
 * One datagram from a device, read. Never throws: what follows no known form is `malformed`, and
 * an unknown kind is `unknown` (with its recvid when it has one, so it can still be answered).
 */
export function parseDevicePacket(raw: string | Uint8Array): DevicePacket {
  const text = decode(raw);
  if (text === null) return malformed('packet too long');
  // A leading BOM or whitespace is never meaningful; the end is trimmed per form below (an SMS
  // text keeps its own).
  const body = text.replace(/^[\uFEFF\s]+/, '');
  const kindMatch = KIND.exec(body);
  if (!kindMatch) return malformed(body === '' ? 'empty packet' : 'no packet kind');
  const name = kindMatch[0];
  const upper = name.toUpperCase();
  const next = body.charAt(name.length);
  if (next === ':') {
    if (upper === 'REQ') return parseKeepalive(body.trimEnd());
    return parseReport(body, name, upper);
  }
  if (next === '' || next === ' ' || next === '\t' || next === '\r' || next === '\n') {
    return parseAnswer(body.trimEnd(), name, upper);
  }
  return malformed('no packet kind');
}

const KEEPALIVE_FIELDS = new Set([
  'req',
  'id',
  'pass',
  'password',
  'num',
  'signal',
  'gsm_status',
  'imei',
  'imsi',
  'iccid',
  'pro',
]);

function parseKeepalive(body: string): Keepalive | Malformed {
  const fields = readFields(body, 0);
  if (tooLong(fields, KEEPALIVE_FIELDS)) return malformed('field too long', 'req');
  const count = intOf(fields.get('req'));
  if (count === undefined || count < 0) return malformed('keepalive without a count', 'req');
  const id = value(fields.get('id'));
  if (id === null) return malformed('keepalive without an id', 'req');
  const status = value(fields.get('gsm_status'))?.toUpperCase();
  const extra: [string, string][] = [];
  for (const [k, v] of fields) {
    if (!KEEPALIVE_FIELDS.has(k) && extra.length < EXTRA_MAX) extra.push([k, v.slice(0, FIELD_MAX)]);
  }
  return {
    type: 'keepalive',
    count,
    id,
    password: fields.get('pass') ?? fields.get('password') ?? null,
    num: value(fields.get('num')),
    signal: intOf(fields.get('signal')) ?? null,
    gsmStatus: status === 'LOGIN' || status === 'LOGOUT' ? status : null,
    imei: value(fields.get('imei')),
    imsi: value(fields.get('imsi')),
    iccid: value(fields.get('iccid')),
    carrier: value(fields.get('pro')),
    // fromEntries defines own properties: a `__proto__` field is just a field.
    extra: Object.fromEntries(extra),
  };
}

/** The fields the reports below read (`msg` has no limit but the datagram's). */
const REPORT_FIELDS = new Set([
  'id',
  'password',
  'pass',
  'srcnum',
  'sms_no',
  'state',
  'num',
  'gsm_remain_state',
  'dir',
  'gsm_remain_time',
]);

/** `KIND:<recvid>;id:…;password:…;…`: RECEIVE, DELIVER, STATE, RECORD, REMAIN and unknown kinds. */
function parseReport(body: string, name: string, upper: string): DevicePacket {
  // Only an SMS text keeps its trailing whitespace: it is the sender's.
  const trimmed = upper === 'RECEIVE' ? body : body.trimEnd();
  const semi = trimmed.indexOf(';');
  const rawId = trimmed.slice(name.length + 1, semi < 0 ? trimmed.length : semi).trim();
  if (!RECVID.test(rawId)) {
    if (upper === 'RECEIVE' || upper === 'DELIVER' || upper === 'STATE') {
      return malformed('report without a recvid', upper);
    }
    // An unknown `name:value;…` without a numeric recvid: nothing to answer.
    return { type: 'unknown', name, recvid: null, text: trimmed };
  }
  const recvid = rawId;
  const fields = semi < 0 ? new Map<string, string>() : readFields(trimmed, semi + 1);
  if (tooLong(fields, REPORT_FIELDS)) return malformed('field too long', upper, recvid);
  const base = {
    recvid,
    id: value(fields.get('id')),
    // The vendor's own example writes `pass:` where its format says `password:`.
    password: fields.get('password') ?? fields.get('pass') ?? null,
  };
  switch (upper) {
    case 'RECEIVE': {
      const msg = fields.get('msg');
      if (msg === undefined) return malformed('SMS without msg', upper, recvid);
      const srcnum = fields.get('srcnum');
      if (srcnum === undefined) return malformed('SMS without srcnum', upper, recvid);
      return { type: 'receive', ...base, srcnum: srcnum.trim(), msg };
    }
    case 'DELIVER':
      return {
        type: 'deliver',
        ...base,
        smsNo: intOf(fields.get('sms_no')) ?? null,
        state: (fields.get('state') ?? '').trim(),
        num: value(fields.get('num')),
      };
    case 'STATE':
      return { type: 'state', ...base, remainState: value(fields.get('gsm_remain_state')) };
    case 'RECORD': {
      const dir = intOf(fields.get('dir'));
      return {
        type: 'record',
        ...base,
        direction: dir === 1 ? 'incoming' : dir === 2 ? 'outgoing' : null,
        num: value(fields.get('num')),
      };
    }
    case 'REMAIN':
      return { type: 'remain', ...base, minutes: intOf(fields.get('gsm_remain_time')) ?? null };
    default:
      return { type: 'unknown', name, recvid, text: trimmed };
  }
}

/** `KIND <sendid> …`: the send session's and USSD's answers. */
function parseAnswer(body: string, name: string, upper: string): DevicePacket {
  const rest = body.slice(name.length).trimStart();
  const sp = rest.search(/\s/);
  const first = sp < 0 ? rest : rest.slice(0, sp);
  const after = sp < 0 ? '' : rest.slice(sp).trimStart();
  const sendid = intOf(first);
  const known = ['PASSWORD', 'SEND', 'OK', 'WAIT', 'ERROR', 'DONE', 'USSD', 'USSDERROR', 'USSDEXIT'];
  if (!known.includes(upper)) return { type: 'unknown', name, recvid: null, text: body };
  if (sendid === undefined) return malformed('answer without a sendid', upper);
  const words = after === '' ? [] : after.split(/\s+/);
  switch (upper) {
    case 'PASSWORD':
      return { type: 'password', sendid };
    case 'SEND':
      return { type: 'send', sendid };
    case 'DONE':
      return { type: 'done', sendid };
    case 'USSDEXIT':
      return { type: 'ussdExit', sendid };
    case 'USSD':
      return { type: 'ussd', sendid, text: after };
    case 'USSDERROR':
      return { type: 'ussdError', sendid, text: after };
    case 'OK':
    case 'WAIT': {
      const telid = intOf(words[0]);
      if (telid === undefined) return malformed(`${upper} without a telid`, upper);
      if (upper === 'WAIT') return { type: 'wait', sendid, telid };
      return { type: 'ok', sendid, telid, smsNo: intOf(words[1]) ?? null };
    }
    default:
      return parseError(sendid, words, after);
  }
}

function parseError(sendid: number, words: string[], after: string): SessionError {
  // A leading integer names the recipient; anything else is about the whole session.
  const telid = intOf(words[0]) ?? null;
  const text = telid === null ? after : after.slice(words[0]!.length).trimStart();
  const status = /^errorstatus:\s*(-?\d{1,15})\b/i.exec(text);
  let reason: SessionError['reason'] = 'other';
  if (status) reason = 'errorstatus';
  else if (/\bGSM_LOGOUT\b/i.test(text)) reason = 'gsm_logout';
  else if (telid === null && /^PASSWORD\b/i.test(text)) reason = 'password';
  return {
    type: 'error',
    sendid,
    telid,
    reason,
    errorStatus: status ? Number(status[1]) : null,
    text: text.slice(0, FIELD_MAX),
  };
}

// ---------------------------------------------------------------------------------------------
// Server → device. Packets are text; the caller sends them UTF-8 encoded, from the socket the
// device's packet came in on, to its source address and port (NAT).

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function checkId(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer`);
}

/** A token the device splits on spaces: non-empty, no whitespace or control characters. */
function checkToken(what: string, s: string): void {
  if (s === '' || /\s/.test(s) || CONTROL.test(s)) throw new RangeError(`${what} must be one word`);
}

/**
 * The keepalive's answer. The vendor's document writes `reg:<count>;status:<status>;` with 0 in
 * one edition and 200 in another; working servers answer status 200 (with `req:`), and devices
 * accept these variants. So the vendor's keyword with 200: the value both a vendor edition and the
 * servers known to work use. A refused line (bad ID or password) must never read as "ok": 400, as
 * a known server answers it (sending nothing at all is the caller's other choice).
 */
export function keepaliveAnswer(count: number, accepted = true): string {
  checkId('count', count);
  return `reg:${count};status:${accepted ? 200 : 400};`;
}

/** `<KIND> <recvid> OK`: the answer to every `KIND:<recvid>;…` report, unknown kinds included. */
export function reportAck(kind: string, recvid: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(kind)) throw new RangeError('kind must be a word');
  if (!RECVID.test(recvid)) throw new RangeError('recvid must be an integer');
  return `${kind.toUpperCase()} ${recvid} OK`;
}

export const receiveAck = (recvid: string): string => reportAck('RECEIVE', recvid);
export const deliverAck = (recvid: string): string => reportAck('DELIVER', recvid);

/** UTF-8 length of a text, the `len` of `MSG`. */
export const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Whether a text fits one `MSG`. */
export const fitsMsg = (text: string): boolean => utf8Length(text) <= MSG_TEXT_MAX_BYTES;

/** `MSG <sendid> <len> <text>`: opens a send session; len counts UTF-8 bytes, not characters. */
export function msgPacket(sendid: number, text: string): string {
  checkId('sendid', sendid);
  const len = utf8Length(text);
  if (len > MSG_TEXT_MAX_BYTES) throw new RangeError(`text is ${len} bytes; at most ${MSG_TEXT_MAX_BYTES}`);
  return `MSG ${sendid} ${len} ${text}`;
}

export function passwordPacket(sendid: number, password: string): string {
  checkId('sendid', sendid);
  if (CONTROL.test(password)) throw new RangeError('password must not contain control characters');
  return `PASSWORD ${sendid} ${password}`;
}

/** Whether a recipient can be written into `SEND`: one word, no control characters. */
export function isSendableNumber(number: string): boolean {
  return number !== '' && number.length <= FIELD_MAX && !/\s/.test(number) && !CONTROL.test(number);
}

export function sendPacket(sendid: number, telid: number, number: string): string {
  checkId('sendid', sendid);
  checkId('telid', telid);
  if (!isSendableNumber(number)) throw new RangeError('number must be one word');
  return `SEND ${sendid} ${telid} ${number}`;
}

export function donePacket(sendid: number): string {
  checkId('sendid', sendid);
  return `DONE ${sendid}`;
}

/** `USSD <sendid> <pw> <code>`: the device answers USSD, USSDERROR or USSDEXIT with the sendid. */
export function ussdPacket(sendid: number, password: string, code: string): string {
  checkId('sendid', sendid);
  checkToken('password', password);
  checkToken('code', code);
  return `USSD ${sendid} ${password} ${code}`;
}

/** `USSDEXIT <sendid> <pw>`: ends a USSD menu. */
export function ussdExitPacket(sendid: number, password: string): string {
  checkId('sendid', sendid);
  checkToken('password', password);
  return `USSDEXIT ${sendid} ${password}`;
}

// ---------------------------------------------------------------------------------------------
// In the platform's words

/**
 * AT+CSQ as the platform stores signal: the CSQ itself (0–31, the scale the other drivers store),
 * null for 99 (unknown) or anything out of range. csqToDbm gives the dBm for people.
 */
export function csqSignal(csq: number | null): number | null {
  return csq !== null && Number.isInteger(csq) && csq >= 0 && csq <= 31 ? csq : null;
}

/** dBm of a CSQ: 2·csq − 113; null when unknown. */
export function csqToDbm(csq: number | null): number | null {
  const c = csqSignal(csq);
  return c === null ? null : 2 * c - 113;
}

/**
 * A keepalive as the platform's SIM entry; `slot` is the line's key (by default its configured ID).
 * LOGIN is `ready`. LOGOUT is not usable: `empty` when the line reports neither ICCID nor IMSI,
 * else `starting` (a SIM, not registered) — never `blocked`, which locks a SIM for people to look
 * at, while a LOGOUT is mostly a passing loss of network. LOGIN and LOGOUT are no words for
 * people: the platform's names stand (deviceState null). `active` stays null:
 * a line holds one SIM, so there is no slot to switch to.
 */
export function keepaliveSim(k: Keepalive, slot: string = k.id): SimEntry {
  const hasSim = k.iccid !== null || k.imsi !== null;
  const state: SimState = k.gsmStatus === 'LOGIN' ? 'ready' : hasSim ? 'starting' : 'empty';
  return {
    slot,
    state,
    deviceState: null,
    iccid: k.iccid,
    imsi: k.imsi,
    imei: k.imei,
    number: k.num,
    operator: k.carrier,
    signal: csqSignal(k.signal),
    balance: null,
    active: null,
  };
}

/**
 * A RECEIVE as the platform's incoming SMS, on the line's `port` (its SimEntry slot). No device
 * time and no dedupeKey: the recvid repeats when the device clock does, so it cannot name an SMS;
 * an SMS without a time is de-duplicated by its content.
 */
export function receiveSms(r: Receive, port: string, recipient: string | null = null): IncomingSmsItem {
  return { isReport: false, port, ts: null, sender: r.srcnum, recipient, text: r.msg };
}

/**
 * A DELIVER's state as a send result's outcome, with the raw state kept for people. The sources
 * define no values: 0 is taken as delivered (the usual success code; still to be confirmed on a
 * real device), any other number as failed. Null when the state is no number: nothing to report.
 */
export function deliveryResult(
  state: string,
): { outcome: Extract<SendResult['outcome'], 'delivered' | 'failed'>; deviceText: string } | null {
  const n = intOf(state);
  if (n === undefined) return null;
  return n === 0
    ? { outcome: 'delivered', deviceText: '' }
    : { outcome: 'failed', deviceText: `delivery state ${n}` };
}
