// Pure readers and writers for SMSGate's third-party API and webhooks (docs/devices-smsgate.md).
// App and server versions differ, so readers tolerate unknown fields, events and missing values.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cleanText } from '@simdock/contract';
import type { SendResult } from '../../../context.ts';
import { sha256 } from '../../../crypto.ts';
import {
  type DeviceStatus,
  GatewayError,
  type IncomingSmsItem,
  type MediaPart,
  ProtocolError,
  PushRefused,
  parsePushJson,
  type ReadPush,
  type SendOutcome,
  type SendTask,
  type SimEntry,
} from './driver.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Mode = 'local' | 'cloud' | 'private';

/** The third-party API's path on a bare host URL: Cloud is rewritten onto /api, Private is not. */
export const API_PATH: Record<Mode, string> = {
  local: '',
  cloud: '/3rdparty/v1',
  private: '/api/3rdparty/v1',
};

export function parseMode(mode: string | null): Mode | null {
  return mode === 'local' || mode === 'cloud' || mode === 'private' ? mode : null;
}

/** Device strings are stored: no NUL or lone surrogates, trimmed, at most this long. */
const DEVICE_STRING_MAX = 256;

/** A trimmed non-empty string, from a string or a number; null otherwise. */
function str(v: unknown, max = DEVICE_STRING_MAX): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = cleanText(v.slice(0, max * 4))
    .trim()
    .slice(0, max);
  return t === '' ? null : t;
}

/**
 * The API root: the URL as entered, with the mode's API path added when the URL has no path of its
 * own (an admin may also enter the full root, or a proxy's path). Credentials, query and fragment are
 * dropped. Null when it is not an http(s) URL.
 */
export function apiBase(url: string, mode: Mode): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  if (u.pathname === '' || u.pathname === '/') u.pathname = API_PATH[mode] || '/';
  return u.href.replace(/\/+$/, '');
}

/** The phone's SIM number 1–3 as people write it ("2", " 2 ", "SIM 2", "sim2"); undefined if not one. */
export function canonicalSlot(raw: string): string | undefined {
  const m = /^\s*(?:sim\s*)?([1-3])\s*$/i.exec(raw);
  return m?.[1];
}

// ---- devices -----------------------------------------------------------------------------------

export interface PhoneDevice {
  id: string;
  name: string | null;
  deleted: boolean;
  /** The `simCards` list; null when the app does not report SIMs. */
  simCards: unknown[] | null;
}

/** The device list (`GET /devices`, Local `GET /device`); a lone object is read as a list of one. */
export function parseDevices(body: unknown): PhoneDevice[] {
  const list = Array.isArray(body) ? body : isObj(body) ? [body] : null;
  if (!list) throw new ProtocolError('the device list is not a JSON list');
  return list.map((d, i) => {
    if (!isObj(d)) throw new ProtocolError(`device ${i + 1} is not an object`);
    const id = str(d.id, 64);
    if (!id) throw new ProtocolError(`device ${i + 1} has no id`);
    return {
      id,
      name: str(d.name),
      deleted: d.deletedAt !== undefined && d.deletedAt !== null,
      simCards: Array.isArray(d.simCards) ? d.simCards : null,
    };
  });
}

function describeDevices(devices: PhoneDevice[]): string {
  return devices.map((d) => (d.name ? `${d.id} (${d.name})` : d.id)).join(', ');
}

/**
 * The gateway's phone: the one with `externalId` when known, else the account's only phone. A
 * removed phone (`deletedAt`) counts as absent.
 */
export function pickDevice(all: PhoneDevice[], externalId: string | null): PhoneDevice {
  const devices = all.filter((d) => !d.deleted);
  if (externalId) {
    const found = devices.find((d) => d.id === externalId);
    if (found) return found;
    const has = devices.length > 0 ? `it has ${describeDevices(devices)}` : 'it has no phone';
    throw new GatewayError(
      'refused',
      `Phone ${externalId} is not in this SMSGate account (${has}). Check the Device ID.`,
    );
  }
  const [only, ...more] = devices;
  if (!only) {
    throw new GatewayError(
      'refused',
      'No phone has joined this account yet: connect SMSGate on the phone with these credentials, then Scan again.',
    );
  }
  if (more.length > 0) {
    throw new GatewayError(
      'refused',
      `This SMSGate account has ${devices.length} phones: ${describeDevices(devices)}. ` +
        'Enter the Device ID of the phone this gateway is.',
    );
  }
  return only;
}

/** Cloud/Private hide SIM fields as `****1234`: such a value is no number or name to keep. */
const unmasked = (v: string | null): string | null => (v?.includes('*') ? null : v);

/**
 * A SIM's own number as the platform keeps a device's numbers: digits only, country code first
 * ("+1 202-555-0147" → "12025550147"), the way boxes report theirs and rental clients expect.
 */
export function simNumberDigits(v: string | null): string | null {
  const digits = v?.replace(/[\s().+-]/g, '') ?? '';
  return /^\d{3,20}$/.test(digits) ? digits : null;
}

function simEntry(slot: string, c: Obj | null): SimEntry {
  return {
    slot,
    // The phone lists only active subscriptions and says no more: take a listed SIM as ready.
    state: 'ready',
    deviceState: null,
    // A masked ICCID is kept as it came: the platform never uses one with '*' as a key.
    iccid: c ? str(c.iccid, 64) : null,
    imsi: null,
    imei: null,
    number: c ? simNumberDigits(unmasked(str(c.phoneNumber, 64))) : null,
    operator: c ? unmasked(str(c.carrierName)) : null,
    signal: null,
    balance: null,
    active: true,
  };
}

/** A SIM card's `simNumber` (1-based), or its 0-based `slotIndex` + 1; null when neither is sane. */
function simNumberOf(c: Obj): number | null {
  if (Number.isInteger(c.simNumber) && (c.simNumber as number) >= 1 && (c.simNumber as number) <= 3) {
    return c.simNumber as number;
  }
  if (Number.isInteger(c.slotIndex) && (c.slotIndex as number) >= 0 && (c.slotIndex as number) <= 2) {
    return (c.slotIndex as number) + 1;
  }
  return null;
}

/**
 * The phone as the platform sees it. Without SIM reporting (older apps; an empty list is read the
 * same way, as the docs say older versions may send one) the phone's one known SIM is slot 1 and
 * the list is not complete, so the platform keeps SIMs it already knows.
 */
export function deviceStatus(d: PhoneDevice, firmware: string | null): DeviceStatus {
  const cards = (d.simCards ?? []).filter(isObj);
  const sims: SimEntry[] = [];
  for (const c of cards) {
    const n = simNumberOf(c);
    if (n === null || sims.some((s) => s.slot === String(n))) continue;
    sims.push(simEntry(String(n), c));
  }
  sims.sort((a, b) => a.slot.localeCompare(b.slot));
  const reported = sims.length > 0;
  return {
    externalId: d.id,
    model: d.name,
    ip: null,
    firmware,
    maxPorts: 1,
    maxSlots: null,
    complete: reported,
    sims: reported ? sims : [simEntry('1', null)],
  };
}

/** The app version from a Local `GET /health` answer; null when it has none. */
export function healthVersion(body: unknown): string | null {
  return isObj(body) ? str(body.version, 64) : null;
}

// ---- webhooks and sending ------------------------------------------------------------------------

/** The events the platform registers, one webhook each. */
export const EVENTS = [
  'sms:received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'system:ping',
  'mms:downloaded',
] as const;

/**
 * A webhook id (≤ 36 chars) fixed by the push URL and the event: registering again replaces the
 * webhook instead of adding one, and two gateways (two URLs) never share one.
 */
export function webhookId(base: string, event: string): string {
  const h = sha256(base).slice(0, 16);
  return `sd-${h}-${event.replace(/[^a-z]+/gi, '-')}`.slice(0, 36);
}

/** The message id that carries the platform's task id to the phone and back. */
export function messageId(tid: number): string {
  return `sd-${tid}`;
}

/** The task id in a message id we gave; undefined for anyone else's message. */
export function parseTid(id: unknown): number | undefined {
  if (typeof id !== 'string') return undefined;
  const m = /^sd-(\d{1,15})$/.exec(id);
  if (!m) return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The `POST /messages` body of one task; null when `from` is no SIM number of a phone. */
export function messageBody(task: SendTask, deviceId: string | null): Obj | null {
  let simNumber: number | undefined;
  if (task.from !== undefined && task.from !== '') {
    const slot = canonicalSlot(task.from);
    if (!slot) return null;
    simNumber = Number(slot);
  }
  return {
    id: messageId(task.tid),
    ...(deviceId ? { deviceId } : {}),
    textMessage: { text: task.sms },
    phoneNumbers: task.to
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== ''),
    ...(simNumber !== undefined ? { simNumber } : {}),
    // Needed for sms:delivered; the phone's default is true, but say it.
    withDeliveryReport: true,
  };
}

/**
 * What an answer to `POST /messages` means. 'auth' and 'unexpected' are not task outcomes: the
 * driver throws for them (the account is wrong, or the URL is not an SMSGate API).
 */
export function sendOutcome(status: number): SendOutcome | 'auth' | 'unexpected' {
  if (status >= 200 && status < 300) return 'accepted';
  // The phone already has a message with this id: it has the task.
  if (status === 409) return 'accepted';
  if (status === 401 || status === 403) return 'auth';
  // Validation: the text or the numbers, which no other SIM would change.
  if (status === 400 || status === 413 || status === 422) return 'recipient_refused';
  // 503: the server's queue limits for this phone; 429 and other 5xx: try again later.
  if (status === 429 || status >= 500) return 'device_busy';
  return 'unexpected';
}

/** The `{message}` of an error answer, or "HTTP <status>". */
export function answerText(status: number, body: string): string {
  try {
    const v: unknown = JSON.parse(body);
    const m = isObj(v) ? str(v.message) : null;
    if (m) return m;
  } catch {
    // Not JSON (some Local errors have an empty body).
  }
  return `HTTP ${status}`;
}

// ---- pushes ------------------------------------------------------------------------------------

/** How far a push's timestamp may be from the server clock, in seconds (the docs' ±5 minutes). */
export const MAX_SKEW_S = 300;

/**
 * Checks `X-Signature` = hex HMAC-SHA256(signing key, raw body + `X-Timestamp`) and the timestamp's
 * age; throws PushRefused saying what is wrong.
 */
export function verifySignature(
  key: string | null,
  headers: Record<string, string | undefined>,
  body: Buffer,
  now: Date,
): void {
  if (!key) {
    throw new PushRefused(
      "No signing key is stored for this phone, so its pushes cannot be checked: enter the phone's " +
        'signing key (SMSGate: Settings → Webhooks → Signing Key).',
    );
  }
  const sig = headers['x-signature']?.trim();
  const ts = headers['x-timestamp']?.trim();
  if (!sig) throw new PushRefused('The push has no X-Signature header.');
  if (!ts) throw new PushRefused('The push has no X-Timestamp header.');
  if (!/^\d{1,12}$/.test(ts)) throw new PushRefused('The push has an X-Timestamp that is not unix seconds.');
  const skew = Number(ts) - Math.floor(now.getTime() / 1000);
  if (Math.abs(skew) > MAX_SKEW_S) {
    throw new PushRefused(
      `The push's timestamp is ${Math.abs(skew)} s ${skew < 0 ? 'old' : 'ahead of the server clock'} ` +
        `(at most ${MAX_SKEW_S} s): a replay, or the phone's clock is wrong.`,
    );
  }
  const expected = createHmac('sha256', key).update(body).update(ts).digest();
  const given = /^[0-9a-f]{64}$/i.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new PushRefused("The push's signature does not match this phone's signing key.");
  }
}

/** Failure texts that say this SIM (or its radio) cannot send now, where another SIM may. */
const SIM_CANNOT_SEND = [
  'RADIO_OFF',
  'NO_SERVICE',
  'LIMIT_EXCEEDED',
  'RADIO_NOT_AVAILABLE',
  'SIM_ABSENT',
  'FDN_CHECK_FAILURE',
  'MODEM_ERROR',
  'INVALID_SMSC_ADDRESS',
  'No SIMs found',
];

/** A failed send's outcome from the app's free-text reason. */
export function failureOutcome(reason: string): 'sim_cannot_send' | 'failed' {
  if (SIM_CANNOT_SEND.some((s) => reason.includes(s))) return 'sim_cannot_send';
  if (/\bSIM\b[^.]*\bnot found\b/i.test(reason)) return 'sim_cannot_send';
  return 'failed';
}

/** Unix seconds of an ISO time with offset and milliseconds; null when it is none. */
export function isoSeconds(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

function simPort(v: unknown): string | null {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 3 ? String(v) : null;
}

function required(payload: Obj, key: string, event: string): string {
  const v = payload[key];
  if (typeof v !== 'string') throw new ProtocolError(`${event} has no ${key}`);
  return v;
}

/** Layout and text parts of an MMS carry no file; the text comes as the body. */
function isFilePart(contentType: string): boolean {
  return !contentType.startsWith('text/') && !contentType.startsWith('application/smil');
}

function mmsParts(v: unknown): MediaPart[] {
  if (!Array.isArray(v)) return [];
  const parts: MediaPart[] = [];
  for (const a of v) {
    if (!isObj(a) || typeof a.data !== 'string') continue;
    const contentType = (str(a.contentType, 128) ?? 'application/octet-stream').split(';')[0]!.trim();
    const type = contentType.toLowerCase();
    if (!isFilePart(type)) continue;
    const data = Buffer.from(a.data, 'base64');
    if (data.length === 0) continue;
    parts.push({ contentType: type, data: new Uint8Array(data) });
  }
  return parts;
}

function incoming(
  deviceId: string,
  event: string,
  p: Obj,
  text: string,
  parts?: MediaPart[],
): IncomingSmsItem {
  const id = required(p, 'messageId', event);
  const receivedAt = typeof p.receivedAt === 'string' ? p.receivedAt : '';
  return {
    isReport: false,
    port: simPort(p.simNumber) ?? '1',
    ts: isoSeconds(p.receivedAt),
    sender: str(p.sender, 64) ?? str(p.phoneNumber, 64) ?? '',
    recipient: str(p.recipient, 64),
    text,
    ...(parts ? { attachments: parts } : {}),
    // The app's messageId is a hash of sender, date, SIM and text: the same SMS seen again keeps it.
    dedupeKey: `smsgate:${deviceId}:${id}:${receivedAt}`,
  };
}

function report(p: Obj, outcome: SendResult['outcome'], deviceText: string): ReadPush['push'] {
  const tid = parseTid(p.messageId);
  // Not a message the platform sent (another client of the phone): only a sign of life.
  if (tid === undefined) return { kind: 'alive' };
  return {
    kind: 'report',
    results: [
      {
        tid,
        outcome,
        number: str(p.recipient, 64) ?? str(p.phoneNumber, 64) ?? '',
        port: simPort(p.simNumber) ?? '',
        deviceText,
      },
    ],
  };
}

/**
 * One webhook body (already verified). `externalId`, when known, must be the sender's device id.
 */
export function parseWebhook(body: Buffer, externalId: string | null): ReadPush {
  const v = parsePushJson(body.toString('utf8'));
  if (!isObj(v)) throw new ProtocolError('the push body is not a JSON object');
  const event = str(v.event, 64);
  const deviceId = str(v.deviceId, 64);
  if (!event) throw new ProtocolError('the push has no event');
  if (!deviceId) throw new ProtocolError('the push has no deviceId');
  if (externalId && deviceId !== externalId) {
    throw new PushRefused(`The push is from phone ${deviceId}, but this gateway is phone ${externalId}.`);
  }
  const eventId = str(v.id, 64) ?? undefined;
  const withId = (push: ReadPush['push']): ReadPush => (eventId ? { push, eventId } : { push });
  const p = v.payload;
  const payload = (): Obj => {
    if (!isObj(p)) throw new ProtocolError(`${event} has no payload`);
    return p;
  };
  switch (event) {
    case 'sms:received': {
      const pl = payload();
      const text = cleanText(required(pl, 'message', event));
      return withId({ kind: 'sms', items: [incoming(deviceId, event, pl, text)] });
    }
    case 'mms:downloaded': {
      const pl = payload();
      const bodyText = typeof pl.body === 'string' ? cleanText(pl.body).trim() : '';
      const subject = str(pl.subject);
      const text = bodyText || (subject ? `[MMS] ${subject}` : '');
      return withId({ kind: 'sms', items: [incoming(deviceId, event, pl, text, mmsParts(pl.attachments))] });
    }
    // The phone tells the carrier's acceptance (`sms:sent`) and the handset's delivery report
    // (`sms:delivered`, or `sms:failed` after "Sent") apart: so does the platform.
    case 'sms:sent':
      return withId(report(payload(), 'sent', ''));
    case 'sms:delivered':
      return withId(report(payload(), 'delivered', ''));
    case 'sms:failed': {
      const pl = payload();
      const reason = str(pl.reason, 1000) ?? 'Failed on the phone';
      return withId(report(pl, failureOutcome(reason), reason));
    }
    case 'sms:cancelled':
      return withId(report(payload(), 'failed', 'Cancelled on the phone'));
    default:
      // system:ping, and events the platform does not use.
      return withId({ kind: 'alive' });
  }
}
