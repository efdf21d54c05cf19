import { z } from 'zod';
import { CampaignProgress, Conversation } from './api/messaging.ts';
import { Order } from './api/orders.ts';
import { UserPayment } from './api/payments.ts';

/**
 * The events of the live stream (GET /api/Order/stream, `endpoints.live.stream`): event name → the
 * schema of its data. The server's renderers must return these payloads (apps/server/src/context.ts
 * `LiveRenderer`), the web parses each event's data with its schema (apps/web/src/live/live.tsx), so
 * renaming a field breaks `tsc` on both sides.
 */
export const liveEvents = {
  /** An order changed (created, code received, cancelled, expired): the whole order. */
  order: Order,
  /** The balance changed (a top-up credited, a rent, a refund): the new balance. */
  balance: z.object({ balance: z.number() }),
  /** A top-up changed state. */
  payment: UserPayment,
  /** A campaign's progress (messages queued, sent, delivered…). */
  campaign: CampaignProgress,
  /** A conversation got a message or a delivery report. */
  conversation: Conversation,
};

export type LiveEventName = keyof typeof liveEvents;
/** An event's data as the server sends it. */
export type LiveEventPayload<K extends LiveEventName> = z.input<(typeof liveEvents)[K]>;
/** An event's data as a reader gets it once parsed. */
export type LiveEventData<K extends LiveEventName> = z.output<(typeof liveEvents)[K]>;

/** One message of the stream as the server writes it: its event name and that event's payload. */
export type LiveMessage<K extends LiveEventName = LiveEventName> = {
  [P in K]: { event: P; data: LiveEventPayload<P> };
}[K];
/** One message of the stream as a reader gets it: its event name and that event's parsed data. */
export type LiveEvent<K extends LiveEventName = LiveEventName> = {
  [P in K]: { event: P; data: LiveEventData<P> };
}[K];

/** What a reader does with each event: one handler per event name, given that event's data. */
export type LiveHandlers = { [K in LiveEventName]: (data: LiveEventData<K>) => void };

export function isLiveEventName(name: string): name is LiveEventName {
  return Object.hasOwn(liveEvents, name);
}

/**
 * A received message (its `event:` name and `data:` text) checked against its event's schema;
 * undefined for an unknown event, data that is not JSON, or data that does not fit.
 */
export function parseLiveEvent(event: string, data: string): LiveEvent | undefined {
  if (!isLiveEventName(event)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = liveEvents[event].safeParse(json);
  return parsed.success ? ({ event, data: parsed.data } as LiveEvent) : undefined;
}

/**
 * Parses a received message (see `parseLiveEvent`) and hands its data to the handler of its
 * event. Answers whether a handler ran (false: the message was ignored).
 */
export function dispatchLiveEvent(handlers: LiveHandlers, event: string, data: string): boolean {
  const e = parseLiveEvent(event, data);
  if (!e) return false;
  (handlers[e.event] as (data: LiveEvent['data']) => void)(e.data);
  return true;
}
