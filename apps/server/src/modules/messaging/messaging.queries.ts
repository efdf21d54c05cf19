import type { Queryable } from '../../db/db.ts';

// ---- settings -----------------------------------------------------------------------------------

export interface SettingsRow {
  max_batch_send_sms: number;
  max_msg_per_day: number;
  /** USD, decimal text with 4 places. */
  sms_price_per_segment: string;
  mms_price: string;
  updated_at: Date | null;
  updated_by: string | null;
}

const SETTINGS = `max_batch_send_sms, max_msg_per_day, sms_price_per_segment::text AS sms_price_per_segment,
  mms_price::text AS mms_price, updated_at, updated_by`;

export async function readSettings(q: Queryable): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(`SELECT ${SETTINGS} FROM messaging_settings WHERE id`);
  return (
    rows[0] ?? {
      max_batch_send_sms: 0,
      max_msg_per_day: 0,
      sms_price_per_segment: '0',
      mms_price: '0',
      updated_at: null,
      updated_by: null,
    }
  );
}

/** Locks the settings row for this transaction (an audited change reads "before" consistently). */
export async function readSettingsForUpdate(q: Queryable): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(`SELECT ${SETTINGS} FROM messaging_settings WHERE id FOR UPDATE`);
  return rows[0]!;
}

/** Saves the limits; a price left undefined keeps its value. */
/** Writes the settings given; a value left undefined keeps the stored one. */
export async function writeSettings(
  q: Queryable,
  s: {
    maxBatchSendSms?: number | undefined;
    maxMsgPerDay?: number | undefined;
    smsPricePerSegment?: string | undefined;
    mmsPrice?: string | undefined;
    /** Null for values seeded at start (the demo's): the row still reads as never changed. */
    at: Date | null;
    by: string | null;
  },
): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(
    `UPDATE messaging_settings SET max_batch_send_sms = coalesce($1::int, max_batch_send_sms),
            max_msg_per_day = coalesce($2::int, max_msg_per_day), updated_at = $3, updated_by = $4,
            sms_price_per_segment = coalesce($5::numeric, sms_price_per_segment),
            mms_price = coalesce($6::numeric, mms_price)
      WHERE id RETURNING ${SETTINGS}`,
    [
      s.maxBatchSendSms ?? null,
      s.maxMsgPerDay ?? null,
      s.at,
      s.by,
      s.smsPricePerSegment ?? null,
      s.mmsPrice ?? null,
    ],
  );
  return rows[0]!;
}

// ---- daily usage ----------------------------------------------------------------------------------

/**
 * Adds `n` to the user's count of the day unless that would pass `limit`; the new count, or
 * undefined when it would pass. The row lock serialises concurrent sends of one user, so two
 * parallel sends can never both fit where only one does.
 */
export async function reserveDaily(
  q: Queryable,
  userId: string,
  day: string,
  n: number,
  limit: number,
): Promise<number | undefined> {
  if (n > limit) return undefined;
  const rows = await q.query<{ used: number }>(
    `INSERT INTO messaging_daily_usage AS d (user_id, day, used) VALUES ($1, $2::date, $3)
     ON CONFLICT (user_id, day) DO UPDATE SET used = d.used + EXCLUDED.used
      WHERE d.used + EXCLUDED.used <= $4
     RETURNING used`,
    [userId, day, n, limit],
  );
  return rows[0]?.used;
}

export async function dailyUsed(q: Queryable, userId: string, day: string): Promise<number> {
  const rows = await q.query<{ used: number }>(
    'SELECT used FROM messaging_daily_usage WHERE user_id = $1 AND day = $2::date',
    [userId, day],
  );
  return rows[0]?.used ?? 0;
}

/** Gives cancelled messages back to the day they were counted on. */
export async function releaseDaily(q: Queryable, userId: string, day: string, n: number): Promise<void> {
  if (n <= 0) return;
  await q.query(
    'UPDATE messaging_daily_usage SET used = greatest(used - $3, 0) WHERE user_id = $1 AND day = $2::date',
    [userId, day, n],
  );
}

// ---- opt-outs -----------------------------------------------------------------------------------

export async function optedOutAmong(q: Queryable, userId: string, numbers: string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await q.query<{ number: string }>(
    'SELECT number FROM opt_outs WHERE user_id = $1 AND number = ANY($2::text[])',
    [userId, numbers],
  );
  return new Set(rows.map((r) => r.number));
}

export async function addOptOut(q: Queryable, userId: string, number: string, at: Date): Promise<void> {
  await q.query(
    'INSERT INTO opt_outs (user_id, number, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [userId, number, at],
  );
}

export async function removeOptOut(q: Queryable, userId: string, number: string): Promise<void> {
  await q.query('DELETE FROM opt_outs WHERE user_id = $1 AND number = $2', [userId, number]);
}

// ---- campaigns and their messages ---------------------------------------------------------------

export async function insertCampaign(
  q: Queryable,
  c: {
    userId: string;
    total: number;
    duplicatesRemoved: number;
    skippedOptOut: number;
    /** What the send was charged, decimal text. */
    cost: string;
    at: Date;
    /** The caller's own reference (an Idempotency-Key): unique per user (a unique violation if taken). */
    clientRef?: string | null;
  },
): Promise<string> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO campaigns (user_id, total, duplicates_removed, skipped_opt_out, created_at, cost, client_ref)
     VALUES ($1, $2, $3, $4, $5, $6::numeric, $7) RETURNING id::text AS id`,
    [c.userId, c.total, c.duplicatesRemoved, c.skippedOptOut, c.at, c.cost, c.clientRef ?? null],
  );
  return rows[0]!.id;
}

/** The user's campaign made with this reference (Idempotency-Key), if any. */
export async function campaignByClientRef(
  q: Queryable,
  userId: string,
  clientRef: string,
): Promise<string | undefined> {
  const rows = await q.query<{ id: string }>(
    'SELECT id::text AS id FROM campaigns WHERE user_id = $1 AND client_ref = $2',
    [userId, clientRef],
  );
  return rows[0]?.id;
}

/**
 * Stores one queued message per recipient, each in its conversation (created when new), in one
 * statement: `recipients[i]` gets `variants[variantIndex[i]]` at `costs[i]`.
 * The variants travel once, not once per recipient.
 */
export async function insertCampaignMessages(
  q: Queryable,
  m: {
    campaignId: string;
    userId: string;
    recipients: string[];
    variantIndex: number[];
    variants: string[];
    /** Each recipient's message's cost, decimal text (by its variant and its country). */
    costs: string[];
    at: Date;
    /** Only this SIM may send them (the API's simId). */
    pinnedSimId?: string | null;
    /** Not sent before (the API's sendAt). */
    notBefore?: Date | null;
    /** Failed as expired when still queued at this time. */
    validUntil?: Date | null;
    /** An MMS: its file and subject. */
    mms?: { file: string; title: string } | null;
  },
): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH input AS (
       SELECT r.receiver, r.ord, ($4::text[])[r.vi] AS body, r.cost
         FROM unnest($2::text[], $3::int[], $7::numeric[]) WITH ORDINALITY AS r(receiver, vi, cost, ord)
     ), conv AS (
       -- Rows are locked in receiver order, the order the dispatcher locks them in too (no deadlock).
       INSERT INTO conversations AS c (user_id, receiver, latest_sms, latest_time, created_at)
       SELECT $1, receiver, body, $5, $5 FROM input ORDER BY receiver
       ON CONFLICT (user_id, receiver) DO UPDATE SET latest_sms = EXCLUDED.latest_sms, latest_time = EXCLUDED.latest_time
       RETURNING c.id, c.receiver
     ), ins AS (
       INSERT INTO messages (campaign_id, user_id, conversation_id, recipient, body, status, created_at, cost,
                             pinned_sim_id, not_before, mms_file, mms_title, valid_until)
       SELECT $6::bigint, $1, conv.id, input.receiver, input.body, 'queued', $5, input.cost,
              $8::uuid, $9::timestamptz, $10, $11, $12::timestamptz
         FROM input JOIN conv ON conv.receiver = input.receiver
        ORDER BY input.ord
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM ins`,
    [
      m.userId,
      m.recipients,
      m.variantIndex.map((i) => i + 1),
      m.variants,
      m.at,
      m.campaignId,
      m.costs,
      m.pinnedSimId ?? null,
      m.notBefore ?? null,
      m.mms?.file ?? null,
      m.mms ? m.mms.title : null,
      m.validUntil ?? null,
    ],
  );
  return rows[0]!.n;
}

export interface CampaignRow {
  id: string;
  user_id: string;
  created_at: Date;
  total: number;
  /** USD charged, refunded so far, and the rest: decimal text. */
  cost: string;
  refunded: string;
  net_cost: string;
}

const CAMPAIGN = `id::text AS id, user_id, created_at, total, cost::text AS cost, refunded::text AS refunded,
  (cost - refunded)::text AS net_cost`;

export async function findCampaign(q: Queryable, id: string): Promise<CampaignRow | undefined> {
  const rows = await q.query<CampaignRow>(`SELECT ${CAMPAIGN} FROM campaigns WHERE id = $1::bigint`, [id]);
  return rows[0];
}

export async function latestCampaign(q: Queryable, userId: string): Promise<CampaignRow | undefined> {
  const rows = await q.query<CampaignRow>(
    `SELECT ${CAMPAIGN} FROM campaigns WHERE user_id = $1
      ORDER BY campaigns.id DESC LIMIT 1`,
    [userId],
  );
  return rows[0];
}

export type MessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'cancelled';

/**
 * A campaign's messages by status, and `sentUnconfirmed`: the `sent` ones no carrier report has
 * reached (still in flight; one the carrier took waits only for the handset's report).
 */
export async function campaignCounts(
  q: Queryable,
  id: string,
): Promise<Record<MessageStatus, number> & { sentUnconfirmed: number }> {
  const rows = await q.query<{ status: MessageStatus; n: number; unconfirmed: number }>(
    `SELECT status, count(*)::int AS n, count(*) FILTER (WHERE carrier_at IS NULL)::int AS unconfirmed
       FROM messages WHERE campaign_id = $1::bigint GROUP BY status`,
    [id],
  );
  const out = {
    queued: 0,
    sending: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    cancelled: 0,
    sentUnconfirmed: 0,
  };
  for (const r of rows) {
    out[r.status] = r.n;
    if (r.status === 'sent') out.sentUnconfirmed = r.unconfirmed;
  }
  return out;
}

/**
 * Cancels the messages of the user's campaigns (one, or every one) that no device has taken yet:
 * queued ones, and claimed ones whose device call has not started (a dispatcher's claim is
 * re-checked when it records the device's answer). Returns per campaign and UTC day how many.
 */
export async function cancelQueued(
  q: Queryable,
  userId: string,
  campaignId: string | null,
  at: Date,
): Promise<{ campaign_id: string; day: string; n: number }[]> {
  return q.query(
    `WITH done AS (
       UPDATE messages m SET status = 'cancelled', done_at = $3, claim_id = NULL, lease_until = NULL
        WHERE m.user_id = $1 AND m.status = 'queued' AND m.campaign_id IS NOT NULL
          AND ($2::bigint IS NULL OR m.campaign_id = $2::bigint)
       RETURNING m.campaign_id
     ), per AS (SELECT campaign_id, count(*)::int AS n FROM done GROUP BY campaign_id),
     marked AS (
       UPDATE campaigns c SET cancelled_at = coalesce(c.cancelled_at, $3) FROM per WHERE c.id = per.campaign_id
       RETURNING c.id, to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
     )
     SELECT per.campaign_id::text AS campaign_id, marked.day, per.n FROM per JOIN marked ON marked.id = per.campaign_id`,
    [userId, campaignId, at],
  );
}

/** Cancels one queued message of the user (the API's cancel); the day its send was counted on. */
export async function cancelQueuedMessage(
  q: Queryable,
  userId: string,
  messageId: string,
  at: Date,
): Promise<{ campaign_id: string | null; day: string } | undefined> {
  const rows = await q.query<{ campaign_id: string | null; day: string }>(
    `UPDATE messages m SET status = 'cancelled', done_at = $3, claim_id = NULL, lease_until = NULL
      WHERE m.id = $2::bigint AND m.user_id = $1 AND m.status = 'queued'
      RETURNING m.campaign_id::text AS campaign_id, to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`,
    [userId, messageId, at],
  );
  return rows[0];
}

// ---- refunds --------------------------------------------------------------------------------------

/**
 * Marks up to `limit` messages that ended failed or cancelled and were charged as refunded, and
 * adds their cost to their campaigns' refunded total; returns what to give back per user and
 * campaign (with the first and last message id: the ledger reference). Rows another process is
 * refunding are skipped, and a row is marked once, in the caller's transaction with the money:
 * exactly once across processes and crashes.
 */
export async function takeDueRefunds(
  q: Queryable,
  at: Date,
  limit: number,
): Promise<
  { user_id: string; campaign_id: string | null; amount: string; first: string; last: string; n: number }[]
> {
  return q.query(
    `WITH due AS (
       SELECT id FROM messages
        WHERE cost > 0 AND refunded_at IS NULL AND status IN ('failed', 'cancelled')
        ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
     ), done AS (
       UPDATE messages m SET refunded_at = $1 FROM due
        WHERE m.id = due.id AND m.refunded_at IS NULL AND m.status IN ('failed', 'cancelled')
       RETURNING m.id, m.user_id, m.campaign_id, m.cost
     ), per AS (
       SELECT user_id, campaign_id, sum(cost) AS amount, min(id) AS first, max(id) AS last, count(*)::int AS n
         FROM done GROUP BY user_id, campaign_id
     ), locked AS (
       -- In id order: two refund passes over the same campaigns never deadlock.
       SELECT c.id FROM campaigns c JOIN per ON per.campaign_id = c.id ORDER BY c.id FOR UPDATE OF c
     ), camp AS (
       UPDATE campaigns c SET refunded = c.refunded + per.amount FROM per, locked
        WHERE c.id = per.campaign_id AND locked.id = c.id
     )
     SELECT user_id, campaign_id::text AS campaign_id, amount::text AS amount, first::text AS first,
            last::text AS last, n
       FROM per ORDER BY user_id, campaign_id`,
    [at, limit],
  );
}
