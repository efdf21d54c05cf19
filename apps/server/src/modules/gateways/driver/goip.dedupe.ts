// Repeats of an incoming GoIP SMS. The device sends a RECEIVE again when our answer is late or
// lost (every 3 s, up to 3 times), so the same SMS can arrive up to four times. Its recvid comes
// from the device clock: without NTP it repeats or goes negative, so a recvid alone cannot tell a
// repeat from a new SMS. Pure: the caller keeps the state and passes the clock in, and answers
// every copy `RECEIVE <recvid> OK` as usual; only the first is stored.
import { createHash } from 'node:crypto';

export interface DedupeConfig {
  /**
   * Same line, same recvid and same sender and text within this: a repeat. The text is part of the
   * key so a recvid the device clock reuses for another SMS is not taken for a repeat.
   */
  idWindowMs: number;
  /**
   * Same line, same sender and text with any recvid within this: a repeat (a copy whose recvid
   * changed). Short: the device's own repeats come within seconds, and a person sending the same
   * words again a few minutes later is a new SMS.
   */
  contentWindowMs: number;
  /** The most entries kept; the oldest go first. */
  maxEntries: number;
}

export const DEFAULT_DEDUPE_CONFIG: DedupeConfig = {
  idWindowMs: 10 * 60_000,
  contentWindowMs: 2 * 60_000,
  maxEntries: 2000,
};

export interface DedupeState {
  /** Key → when it was first seen (clock ms), oldest first. */
  readonly seen: ReadonlyMap<string, number>;
}

export const emptyDedupe = (): DedupeState => ({ seen: new Map() });

export interface ReceivedSms {
  /** The line (or box and line) the SMS came in on: its configured ID. */
  lineId: string;
  recvid: string;
  sender: string;
  text: string;
}

/** Hashes keep the state small whatever the texts' length; NUL cannot occur in a cleaned field. */
function keys(sms: ReceivedSms): { id: string; content: string } {
  const content = createHash('sha256')
    .update(`${sms.lineId}\u0000${sms.sender}\u0000${sms.text}`)
    .digest('base64');
  return { id: `i:${sms.recvid}:${content}`, content: `c:${content}` };
}

/**
 * Whether this SMS repeats one seen before, and the state with it recorded. A repeat does not
 * move its first-seen time: the windows count from the first copy.
 */
export function checkReceive(
  state: DedupeState,
  sms: ReceivedSms,
  now: number,
  config: DedupeConfig = DEFAULT_DEDUPE_CONFIG,
): { duplicate: boolean; state: DedupeState } {
  const windowOf = (key: string) => (key.startsWith('i:') ? config.idWindowMs : config.contentWindowMs);
  const live = (key: string, at: number) => now - at < windowOf(key);
  const k = keys(sms);
  const idAt = state.seen.get(k.id);
  const contentAt = state.seen.get(k.content);
  const duplicate =
    (idAt !== undefined && live(k.id, idAt)) || (contentAt !== undefined && live(k.content, contentAt));
  const seen = new Map<string, number>();
  for (const [key, at] of state.seen) if (live(key, at)) seen.set(key, at);
  for (const key of [k.id, k.content]) if (!seen.has(key)) seen.set(key, now);
  // Map order is insertion order: the first keys are the oldest.
  for (const key of seen.keys()) {
    if (seen.size <= config.maxEntries) break;
    seen.delete(key);
  }
  return { duplicate, state: { seen } };
}
