import type { Queryable } from '../../db/db.ts';

// ---- settings -----------------------------------------------------------------------------------

export interface SettingsRow {
  max_batch_send_sms: number;
  max_msg_per_day: number;
  updated_at: Date | null;
  updated_by: string | null;
}

export async function readSettings(q: Queryable): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(
    'SELECT max_batch_send_sms, max_msg_per_day, updated_at, updated_by FROM messaging_settings WHERE id',
  );
  return rows[0] ?? { max_batch_send_sms: 0, max_msg_per_day: 0, updated_at: null, updated_by: null };
}

/** Locks the settings row for this transaction (an audited change reads "before" consistently). */
export async function readSettingsForUpdate(q: Queryable): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(
    'SELECT max_batch_send_sms, max_msg_per_day, updated_at, updated_by FROM messaging_settings WHERE id FOR UPDATE',
  );
  return rows[0]!;
}

export async function writeSettings(
  q: Queryable,
  s: { maxBatchSendSms: number; maxMsgPerDay: number; at: Date; by: string },
): Promise<SettingsRow> {
  const rows = await q.query<SettingsRow>(
    `UPDATE messaging_settings SET max_batch_send_sms = $1, max_msg_per_day = $2, updated_at = $3, updated_by = $4
      WHERE id RETURNING max_batch_send_sms, max_msg_per_day, updated_at, updated_by`,
    [s.maxBatchSendSms, s.maxMsgPerDay, s.at, s.by],
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
  c: { userId: string; total: number; duplicatesRemoved: number; skippedOptOut: number; at: Date },
): Promise<string> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO campaigns (user_id, total, duplicates_removed, skipped_opt_out, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id`,
    [c.userId, c.total, c.duplicatesRemoved, c.skippedOptOut, c.at],
  );
  return rows[0]!.id;
}

/**
 * Stores one queued message per recipient, each in its conversation (created when new), in one
 * statement: `recipients[i]` gets `variants[variantIndex[i]]`. The variants travel once, not once
 * per recipient.
 */
export async function insertCampaignMessages(
  q: Queryable,
  m: {
    campaignId: string;
    userId: string;
    recipients: string[];
    variantIndex: number[];
    variants: string[];
    at: Date;
  },
): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH input AS (
       SELECT r.receiver, r.ord, ($4::text[])[r.vi] AS body
         FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS r(receiver, vi, ord)
     ), conv AS (
       -- Rows are locked in receiver order, the order the dispatcher locks them in too (no deadlock).
       INSERT INTO conversations AS c (user_id, receiver, latest_sms, latest_time, created_at)
       SELECT $1, receiver, body, $5, $5 FROM input ORDER BY receiver
       ON CONFLICT (user_id, receiver) DO UPDATE SET latest_sms = EXCLUDED.latest_sms, latest_time = EXCLUDED.latest_time
       RETURNING c.id, c.receiver
     ), ins AS (
       INSERT INTO messages (campaign_id, user_id, conversation_id, recipient, body, status, created_at)
       SELECT $6::bigint, $1, conv.id, input.receiver, input.body, 'queued', $5
         FROM input JOIN conv ON conv.receiver = input.receiver
        ORDER BY input.ord
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM ins`,
    [m.userId, m.recipients, m.variantIndex.map((i) => i + 1), m.variants, m.at, m.campaignId],
  );
  return rows[0]!.n;
}

export interface CampaignRow {
  id: string;
  user_id: string;
  created_at: Date;
  total: number;
}

export async function findCampaign(q: Queryable, id: string): Promise<CampaignRow | undefined> {
  const rows = await q.query<CampaignRow>(
    'SELECT id::text AS id, user_id, created_at, total FROM campaigns WHERE id = $1::bigint',
    [id],
  );
  return rows[0];
}

export async function latestCampaign(q: Queryable, userId: string): Promise<CampaignRow | undefined> {
  const rows = await q.query<CampaignRow>(
    `SELECT id::text AS id, user_id, created_at, total FROM campaigns WHERE user_id = $1
      ORDER BY campaigns.id DESC LIMIT 1`,
    [userId],
  );
  return rows[0];
}

export type MessageStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'cancelled';

export async function campaignCounts(q: Queryable, id: string): Promise<Record<MessageStatus, number>> {
  const rows = await q.query<{ status: MessageStatus; n: number }>(
    'SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = $1::bigint GROUP BY status',
    [id],
  );
  const out: Record<MessageStatus, number> = {
    queued: 0,
    sending: 0,
    sent: 0,
    delivered: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const r of rows) out[r.status] = r.n;
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
