import type { WebhookDelivery, WebhookEventName, WebhookFormat } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

export interface WebhookRow {
  id: string;
  url: string;
  secret_enc: string;
  events: WebhookEventName[];
  format: WebhookFormat;
  /** The id a program gave it (registered through the SMSGate-compatible API), or null. */
  client_id: string | null;
  created_at: Date;
}

const WEBHOOK = 'id, url, secret_enc, events, format, client_id, created_at';

export async function webhooksOf(q: Queryable, userId: string): Promise<WebhookRow[]> {
  return q.query<WebhookRow>(`SELECT ${WEBHOOK} FROM webhooks WHERE user_id = $1 ORDER BY created_at, id`, [
    userId,
  ]);
}

/** Serialises webhook changes of one user (the limit of 3 holds under concurrent adds). */
export async function lockUserWebhooks(q: Queryable, userId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1::text))`, [userId]);
}

/** A new webhook; undefined when the URL (among those without a client id) is taken. */
export async function insertWebhook(
  q: Queryable,
  w: {
    userId: string;
    url: string;
    secretEnc: string;
    events: readonly string[];
    format: WebhookFormat;
    clientId?: string | null;
    at: Date;
  },
): Promise<WebhookRow | undefined> {
  const rows = await q.query<WebhookRow>(
    `INSERT INTO webhooks (user_id, url, secret_enc, events, format, client_id, created_at)
     VALUES ($1, $2, $3, $4::text[], $5, $6, $7)
     ON CONFLICT DO NOTHING RETURNING ${WEBHOOK}`,
    [w.userId, w.url, w.secretEnc, w.events, w.format, w.clientId ?? null, w.at],
  );
  return rows[0];
}

/** A program's webhook registered again under its id: its URL, events and format replaced. */
export async function replaceWebhook(
  q: Queryable,
  w: {
    userId: string;
    clientId: string;
    url: string;
    events: readonly string[];
    format: WebhookFormat;
    /** A new signing key (sealed), or null to keep it. */
    secretEnc: string | null;
  },
): Promise<WebhookRow | undefined> {
  const rows = await q.query<WebhookRow>(
    `UPDATE webhooks SET url = $3, events = $4::text[], format = $5, secret_enc = coalesce($6, secret_enc)
      WHERE user_id = $1 AND client_id = $2 RETURNING ${WEBHOOK}`,
    [w.userId, w.clientId, w.url, w.events, w.format, w.secretEnc],
  );
  return rows[0];
}

export async function setWebhookEvents(
  q: Queryable,
  userId: string,
  id: string,
  events: readonly string[],
): Promise<WebhookRow | undefined> {
  const rows = await q.query<WebhookRow>(
    `UPDATE webhooks SET events = $3::text[] WHERE id = $1::uuid AND user_id = $2 RETURNING ${WEBHOOK}`,
    [id, userId, events],
  );
  return rows[0];
}

export async function findWebhook(q: Queryable, userId: string, id: string): Promise<WebhookRow | undefined> {
  const rows = await q.query<WebhookRow>(
    `SELECT ${WEBHOOK} FROM webhooks WHERE id = $1::uuid AND user_id = $2`,
    [id, userId],
  );
  return rows[0];
}

export async function deleteWebhook(q: Queryable, userId: string, id: string): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    'DELETE FROM webhooks WHERE id = $1::uuid AND user_id = $2 RETURNING id',
    [id, userId],
  );
  return rows.length > 0;
}

/** Deletes the user's webhook registered by a program under `clientId`. */
export async function deleteWebhookByClientId(
  q: Queryable,
  userId: string,
  clientId: string,
): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    'DELETE FROM webhooks WHERE client_id = $1 AND user_id = $2 RETURNING id',
    [clientId, userId],
  );
  return rows.length > 0;
}

interface QueuedDelivery {
  userId: string;
  event: string;
  ref: string;
  eventId: string;
  body: string;
  at: Date;
  webhookId?: string;
  /** The test event: every URL (or the one), whatever its events and format. */
  anyEvent?: boolean;
}

/**
 * One delivery per webhook of the user (or the one webhook) that takes the event: it chose the event
 * and its format carries it (an `smsgate` URL gets only `message.*` events). A ref already queued
 * for a URL is skipped.
 */
const QUEUE_DELIVERIES = `INSERT INTO webhook_deliveries
    (webhook_id, user_id, event, ref, event_id, body, status, next_attempt_at, created_at)
  SELECT w.id, w.user_id, $2::text, $3, $7, $4, 'pending', $5, $5 FROM webhooks w
   WHERE w.user_id = $1 AND ($6::uuid IS NULL OR w.id = $6::uuid)
     AND ($8::boolean OR ($2::text = ANY(w.events) AND (w.format = 'simdock' OR $2::text LIKE 'message.%')))
  ON CONFLICT (webhook_id, ref) DO NOTHING
  RETURNING id::text AS id`;
const queueParams = (d: QueuedDelivery) => [
  d.userId,
  d.event,
  d.ref,
  d.body,
  d.at,
  d.webhookId ?? null,
  d.eventId,
  d.anyEvent ?? false,
];

/** Queues the deliveries now; their ids. */
export async function queueDeliveries(q: Queryable, d: QueuedDelivery): Promise<string[]> {
  const rows = await q.query<{ id: string }>(QUEUE_DELIVERIES, queueParams(d));
  return rows.map((r) => r.id);
}

/** Queues the deliveries with the transaction's COMMIT (the code path: no one reads the ids). */
export async function queueDeliveriesOnCommit(q: Queryable, d: QueuedDelivery): Promise<void> {
  await q.defer(QUEUE_DELIVERIES, queueParams(d));
}

/** One event of a batch (messaging events): its user, what it is, and the body of each format. */
export interface QueuedEvent {
  userId: string;
  event: string;
  ref: string;
  eventId: string;
  /** Deliveries of one URL with the same key go out in order (the message's id). */
  orderKey: string | null;
  body: string;
}

/**
 * Queues the events of one change together, with the transaction's COMMIT, in one statement: one
 * delivery per event and URL that takes it, in the events' order (ids are given in that order, which
 * the delivery job keeps per order key).
 */
export async function queueEventsOnCommit(
  q: Queryable,
  events: readonly QueuedEvent[],
  at: Date,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e, seq) => ({
    seq,
    user_id: e.userId,
    event: e.event,
    ref: e.ref,
    event_id: e.eventId,
    order_key: e.orderKey,
    body: e.body,
  }));
  await q.defer(
    `INSERT INTO webhook_deliveries
       (webhook_id, user_id, event, ref, event_id, order_key, body, status, next_attempt_at, created_at)
     SELECT w.id, w.user_id, e.event, e.ref, e.event_id, e.order_key, e.body, 'pending', $2::timestamptz, $2::timestamptz
       FROM jsonb_to_recordset($1::jsonb)
         AS e(seq int, user_id uuid, event text, ref text, event_id text, order_key text, body text)
       JOIN webhooks w ON w.user_id = e.user_id AND e.event = ANY(w.events)
        AND (w.format = 'simdock' OR e.event LIKE 'message.%')
      ORDER BY e.seq, w.id
     ON CONFLICT (webhook_id, ref) DO NOTHING`,
    [JSON.stringify(rows), at],
  );
}

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  event: string;
  event_id: string;
  body: string;
  url: string;
  secret_enc: string;
  format: WebhookFormat;
  /** The webhook's id as its owner knows it (a program's own id, else ours). */
  webhook_ref: string;
}

/**
 * Claims due deliveries (or exactly `ids`) for one try: takes a lease until `leaseUntil` and counts
 * the try, in one statement. SKIP LOCKED and the lease keep two processes off the same row. A
 * delivery waits while an earlier one of the same URL and order key is still pending (being tried,
 * or waiting for its retry): one message's events reach a URL in order; an earlier one that failed
 * for good no longer holds the others.
 */
export async function claimDue(
  q: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  ids?: string[],
): Promise<ClaimedDelivery[]> {
  return q.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
          AND ($4::bigint[] IS NULL OR d.id = ANY($4::bigint[]))
          AND (d.order_key IS NULL OR NOT EXISTS (
            SELECT 1 FROM webhook_deliveries e
             WHERE e.webhook_id = d.webhook_id AND e.order_key = d.order_key AND e.id < d.id
               AND e.status = 'pending'))
        ORDER BY d.next_attempt_at, d.id LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET locked_until = $2, attempts = d.attempts + 1
       FROM due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
     RETURNING d.id::text AS id, d.attempts, d.event, d.event_id, d.body, w.url, w.secret_enc, w.format,
               coalesce(w.client_id, w.id::text) AS webhook_ref`,
    [now, leaseUntil, limit, ids ?? null],
  );
}

/**
 * A logged delivery of the user queued again as a new delivery (same event, event id and body), due
 * now and outside its order (it is sent at once); its id, or undefined when the user has none such.
 */
export async function queueRedelivery(
  q: Queryable,
  userId: string,
  deliveryId: string,
  ref: string,
  at: Date,
): Promise<string | undefined> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO webhook_deliveries
       (webhook_id, user_id, event, ref, event_id, body, status, next_attempt_at, created_at)
     SELECT d.webhook_id, d.user_id, d.event, $3, d.event_id, d.body, 'pending', $4, $4
       FROM webhook_deliveries d WHERE d.id = $1::bigint AND d.user_id = $2
     RETURNING id::text AS id`,
    [deliveryId, userId, ref, at],
  );
  return rows[0]?.id;
}

/** Records one try and the delivery's new state (delivered, failed, or pending until `nextAt`). */
export async function recordTry(
  q: Queryable,
  t: {
    id: string;
    at: Date;
    ok: boolean;
    httpStatus: number | null;
    error: string | null;
    durationMs: number;
    nextAt: Date | null;
  },
): Promise<void> {
  await q.query(
    `WITH d AS (
       UPDATE webhook_deliveries SET
         status = CASE WHEN $3::boolean THEN 'delivered' WHEN $7::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         delivered_at = CASE WHEN $3 THEN $2::timestamptz ELSE NULL END,
         next_attempt_at = CASE WHEN $3 THEN NULL ELSE $7::timestamptz END,
         locked_until = NULL, last_status = $4, last_error = $5
        WHERE id = $1::bigint AND status = 'pending'
        RETURNING id
     )
     INSERT INTO webhook_attempts (delivery_id, at, ok, http_status, error, duration_ms)
     SELECT id, $2::timestamptz, $3::boolean, $4::int, $5::text, $6::int FROM d`,
    [t.id, t.at, t.ok, t.httpStatus, t.error, t.durationMs, t.nextAt],
  );
}

const DELIVERY_FIELDS = `d.id::text AS id, w.url, d.event, d.event_id AS "eventId", d.status, d.attempts, d.last_status AS "lastStatus",
  d.last_error AS "lastError", d.created_at, d.delivered_at, d.next_attempt_at`;

type DeliveryRow = Omit<WebhookDelivery, 'createdAt' | 'deliveredAt' | 'nextAttemptAt'> & {
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
};

const toDelivery = ({ created_at, delivered_at, next_attempt_at, ...d }: DeliveryRow): WebhookDelivery => ({
  ...d,
  createdAt: created_at.toISOString(),
  deliveredAt: delivered_at?.toISOString() ?? null,
  nextAttemptAt: next_attempt_at?.toISOString() ?? null,
});

export async function deliveriesOf(q: Queryable, userId: string, limit: number): Promise<WebhookDelivery[]> {
  const rows = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_FIELDS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.user_id = $1 ORDER BY d.id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map(toDelivery);
}

export async function deliveriesByIds(q: Queryable, ids: string[]): Promise<WebhookDelivery[]> {
  const rows = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_FIELDS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.id = ANY($1::bigint[]) ORDER BY d.id`,
    [ids],
  );
  return rows.map(toDelivery);
}

/** Deliveries still to be sent or retried (queue depth for /metrics; index `webhook_deliveries_due`). */
export async function pendingDeliveryCount(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
  );
  return rows[0]?.n ?? 0;
}
