import type { WebhookDelivery } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

export interface WebhookRow {
  id: string;
  url: string;
  secret_enc: string;
  created_at: Date;
}

export async function webhooksOf(q: Queryable, userId: string): Promise<WebhookRow[]> {
  return q.query<WebhookRow>(
    'SELECT id, url, secret_enc, created_at FROM webhooks WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
}

/** Serialises webhook changes of one user (the limit of 3 holds under concurrent adds). */
export async function lockUserWebhooks(q: Queryable, userId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1::text))`, [userId]);
}

export async function insertWebhook(
  q: Queryable,
  w: { userId: string; url: string; secretEnc: string; at: Date },
): Promise<WebhookRow | undefined> {
  const rows = await q.query<WebhookRow>(
    `INSERT INTO webhooks (user_id, url, secret_enc, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, url) DO NOTHING RETURNING id, url, secret_enc, created_at`,
    [w.userId, w.url, w.secretEnc, w.at],
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

/** Queues one delivery per webhook of the user (once per event ref and URL); returns their ids. */
interface QueuedDelivery {
  userId: string;
  event: string;
  ref: string;
  body: string;
  at: Date;
  webhookId?: string;
}

/** One delivery per webhook of the user (or the one webhook); a ref already queued is skipped. */
const QUEUE_DELIVERIES = `INSERT INTO webhook_deliveries (webhook_id, user_id, event, ref, body, status, next_attempt_at, created_at)
  SELECT w.id, w.user_id, $2, $3, $4, 'pending', $5, $5 FROM webhooks w
   WHERE w.user_id = $1 AND ($6::uuid IS NULL OR w.id = $6::uuid)
  ON CONFLICT (webhook_id, ref) DO NOTHING
  RETURNING id::text AS id`;
const queueParams = (d: QueuedDelivery) => [d.userId, d.event, d.ref, d.body, d.at, d.webhookId ?? null];

/** Queues the deliveries now; their ids. */
export async function queueDeliveries(q: Queryable, d: QueuedDelivery): Promise<string[]> {
  const rows = await q.query<{ id: string }>(QUEUE_DELIVERIES, queueParams(d));
  return rows.map((r) => r.id);
}

/** Queues the deliveries with the transaction's COMMIT (the code path: no one reads the ids). */
export async function queueDeliveriesOnCommit(q: Queryable, d: QueuedDelivery): Promise<void> {
  await q.defer(QUEUE_DELIVERIES, queueParams(d));
}

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  event: string;
  body: string;
  url: string;
  secret_enc: string;
}

/**
 * Claims due deliveries (or exactly `ids`) for one try: takes a lease until `leaseUntil` and counts
 * the try, in one statement. SKIP LOCKED and the lease keep two processes off the same row.
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
       SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
          AND ($4::bigint[] IS NULL OR id = ANY($4::bigint[]))
        ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET locked_until = $2, attempts = d.attempts + 1
       FROM due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
     RETURNING d.id::text AS id, d.attempts, d.event, d.body, w.url, w.secret_enc`,
    [now, leaseUntil, limit, ids ?? null],
  );
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

const DELIVERY_FIELDS = `d.id::text AS id, w.url, d.event, d.status, d.attempts, d.last_status AS "lastStatus",
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
