import type { Queryable } from './db/db.ts';

/** The one PostgreSQL channel every module's events travel on. */
export const EVENTS_CHANNEL = 'app_events';

/**
 * Events carry ids, never rows: NOTIFY payloads are limited to 8,000 bytes, and the reader loads
 * the current state anyway. Add a variant here when a module needs a new kind of event.
 */
export type AppEvent =
  | { type: 'order'; userId: string; orderId: string }
  | { type: 'balance'; userId: string }
  | { type: 'payment'; userId: string; paymentId: string }
  | { type: 'campaign'; userId: string; campaignId: string }
  | { type: 'conversation'; userId: string; conversationId: string };

/**
 * Publishes an event inside the caller's transaction: PostgreSQL delivers it when the transaction
 * commits, and drops it on rollback. The one way modules publish events. The NOTIFY is deferred:
 * it travels with the COMMIT (it could only be delivered then anyway), in event order.
 */
export async function publish(q: Queryable, event: AppEvent): Promise<void> {
  await q.defer('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify(event)]);
}

export function parseEvent(payload: string): AppEvent | undefined {
  try {
    const e = JSON.parse(payload) as AppEvent;
    return typeof e === 'object' && e !== null && typeof e.type === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}
