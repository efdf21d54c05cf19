import type { Order } from '@simdock/contract';
import type { Db, Queryable } from './db/db.ts';

/** The one PostgreSQL channel every module's events travel on. */
export const EVENTS_CHANNEL = 'app_events';

/**
 * Events carry ids: NOTIFY payloads are limited to 8,000 bytes, and the reader loads the current
 * state. One exception: an order event carries the order as committed when it fits (`order`), so
 * the live stream sends it without a read (a round trip per code, on the OTP path: bench/RESULTS.md); a long SMS text leaves it out and the reader loads it. Add a variant here when a module
 * needs a new kind of event.
 */
export type AppEvent =
  | { type: 'order'; userId: string; orderId: string; order?: Order }
  | { type: 'balance'; userId: string }
  | { type: 'payment'; userId: string; paymentId: string }
  | { type: 'campaign'; userId: string; campaignId: string }
  | { type: 'conversation'; userId: string; conversationId: string }
  /** Rows were added to an SMPP account's outbox: a process holding its receiving bind sends them. */
  | { type: 'smpp'; apiKeyId: string }
  /** A gateway was edited or deleted: processes drop what they keep of it (no user sees this one). */
  | { type: 'gateway'; gatewayId: string };

/**
 * Publishes an event inside the caller's transaction: every server process's listeners hear it when
 * the transaction commits, none if it rolls back (`q.notify`: a NOTIFY when another process listens,
 * else handed over in this process). The one way modules publish events.
 */
export async function publish(q: Queryable, event: AppEvent): Promise<void> {
  // This process's listeners are handed the event itself: parsing its JSON back showed in the
  // server's profile of the SMS path (bench/RESULTS.md).
  await q.notify(EVENTS_CHANNEL, eventPayload(event), event);
}

/**
 * Calls onEvent with every event published by any server process, once committed (`publish`). An
 * event from this process is the object its publisher built: read it, never change it.
 */
export function listenEvents(
  db: Db,
  onEvent: (event: Readonly<AppEvent>) => void,
): Promise<() => Promise<void>> {
  return db.listen(EVENTS_CHANNEL, (payload, value) => {
    const event = (value as AppEvent | undefined) ?? parseEvent(payload);
    if (event) onEvent(event);
  });
}

/** NOTIFY's payload limit is 8,000 bytes; a little is kept for the channel name and framing. */
export const EVENT_PAYLOAD_MAX_BYTES = 7900;

/** The event's JSON; an order snapshot that would not fit is left out (the reader loads it). */
export function eventPayload(event: AppEvent): string {
  const json = JSON.stringify(event);
  if (event.type !== 'order' || !event.order || Buffer.byteLength(json) <= EVENT_PAYLOAD_MAX_BYTES)
    return json;
  const { order: _left, ...ids } = event;
  return JSON.stringify(ids);
}

export function parseEvent(payload: string): AppEvent | undefined {
  try {
    const e = JSON.parse(payload) as AppEvent;
    return typeof e === 'object' && e !== null && typeof e.type === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}
