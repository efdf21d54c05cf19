// Pure rules of the SMSGate protocol (see docs/devices-smsgate.md): modes, SIM masking, state
// aggregation, message parts, timestamps, ids and the webhook signature.
import { createHash, createHmac } from 'node:crypto';
import { seededRandom } from '@simdock/sim-kit';

export type Mode = 'local' | 'cloud' | 'private';

export const PREFIX: Record<Mode, string> = {
  local: '',
  cloud: '/3rdparty/v1',
  private: '/api/3rdparty/v1',
};

export type State = 'Pending' | 'Processed' | 'Sent' | 'Delivered' | 'Failed';

export const EVENTS = [
  'sms:received',
  'sms:data-received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'sms:cancelled',
  'mms:received',
  'mms:downloaded',
  'system:ping',
  'app:started',
] as const;
export type WebhookEvent = (typeof EVENTS)[number];

export function isEvent(v: unknown): v is WebhookEvent {
  return typeof v === 'string' && (EVENTS as readonly string[]).includes(v);
}

/** Cloud/Private: every character but the last 4 becomes `*`; 4 or fewer become `****`. */
export function maskSim(v: string | null): string | null {
  if (v === null) return null;
  if (v.length <= 4) return '****';
  return '*'.repeat(v.length - 4) + v.slice(-4);
}

/** Aggregate of the recipients' states, in the order the doc gives. */
export function aggregate(states: readonly State[]): State {
  if (states.some((s) => s === 'Pending')) return 'Pending';
  if (states.some((s) => s === 'Processed')) return 'Processed';
  if (states.length > 0 && states.every((s) => s === 'Delivered')) return 'Delivered';
  if (states.length > 0 && states.every((s) => s === 'Failed')) return 'Failed';
  return 'Sent';
}

const GSM7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€';

/** SMS parts Android splits a text into: 160/153 GSM-7 septets, else 70/67 UCS-2 units. */
export function partsCount(text: string): number {
  const gsm = [...text].every((c) => GSM7.includes(c));
  const len = gsm ? [...text].reduce((n, c) => n + ('^{}\\[~]|€'.includes(c) ? 2 : 1), 0) : text.length;
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return len <= single ? 1 : Math.ceil(len / multi);
}

/** ISO 8601 with milliseconds and the phone's UTC offset, e.g. 2026-05-01T10:00:00.000+07:00. */
export function phoneTime(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/** HMAC-SHA256 over the raw body followed directly by the timestamp string, lower-case hex. */
export function sign(key: string, rawBody: string, timestamp: string): string {
  return createHmac('sha256', key)
    .update(rawBody + timestamp)
    .digest('hex');
}

/** Incoming `messageId`: a 32-bit hash of sender, date, subscription and text, in hex. */
export function incomingId(sender: string, receivedMs: number, slot: number, text: string): string {
  return createHash('sha256').update(`${sender}|${receivedMs}|${slot}|${text}`).digest('hex').slice(0, 8);
}

export function isE164(n: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(n);
}

/** Deterministic when seeded, so ids repeat across runs of a test. */
export function makeRandom(seed: number | undefined): () => number {
  return seed === undefined ? Math.random : seededRandom(seed);
}

const NANO = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

export function nanoid(rand: () => number, size = 21): string {
  let s = '';
  for (let i = 0; i < size; i++) s += NANO[Math.floor(rand() * 64)];
  return s;
}

export function hexId(rand: () => number, size = 32): string {
  let s = '';
  for (let i = 0; i < size; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}
