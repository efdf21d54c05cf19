import type { Queryable } from '../../db/db.ts';

// The dispatcher's SQL: SIM pacing, claims under a lease, and the device's results.

/**
 * Whether a dispatch tick has anything to do: a queued message, or a claim whose lease ran out. Two
 * index probes; an idle server asks only this each tick, not which SIMs could send (bench/RESULTS.md).
 */
export async function hasDispatchWork(q: Queryable, now: Date): Promise<boolean> {
  const rows = await q.query<{ work: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM messages WHERE status = 'queued')
         OR EXISTS (SELECT 1 FROM messages WHERE status = 'sending' AND lease_until <= $1) AS work`,
    [now],
  );
  return rows[0]?.work === true;
}

/** Makes sure every SIM has a pace row (a new SIM may send at once). */
export async function ensurePaceRows(q: Queryable, simIds: string[]): Promise<void> {
  if (simIds.length === 0) return;
  await q.query(
    `INSERT INTO messaging_sim_pace (sim_id, next_at)
     SELECT s, '1970-01-01T00:00:00Z'::timestamptz FROM unnest($1::uuid[]) AS s
     ON CONFLICT (sim_id) DO NOTHING`,
    [simIds],
  );
}

/**
 * Locks the pace rows of the SIMs that may send before `until`; rows another dispatcher holds are
 * skipped, so two dispatchers never spend the same SIM's capacity.
 */
export async function lockReadySims(
  q: Queryable,
  simIds: string[],
  until: Date,
): Promise<{ sim_id: string; next_at: Date }[]> {
  if (simIds.length === 0) return [];
  return q.query(
    `SELECT sim_id, next_at FROM messaging_sim_pace
      WHERE sim_id = ANY($1::uuid[]) AND next_at < $2
      ORDER BY sim_id FOR UPDATE SKIP LOCKED`,
    [simIds, until],
  );
}

export async function savePace(q: Queryable, pace: { sim_id: string; next_at: Date }[]): Promise<void> {
  if (pace.length === 0) return;
  await q.query(
    `UPDATE messaging_sim_pace p SET next_at = greatest(p.next_at, a.next_at)
       FROM jsonb_to_recordset($1::jsonb) AS a(sim_id uuid, next_at timestamptz)
      WHERE p.sim_id = a.sim_id`,
    [JSON.stringify(pace)],
  );
}

/** Keeps SIMs (a gateway that did not answer, a SIM the device refused) out until `until`. */
export async function backOffSims(q: Queryable, simIds: string[], until: Date): Promise<void> {
  if (simIds.length === 0) return;
  await q.query(
    `INSERT INTO messaging_sim_pace (sim_id, next_at) SELECT s, $2 FROM unnest($1::uuid[]) AS s
     ON CONFLICT (sim_id) DO UPDATE SET next_at = greatest(messaging_sim_pace.next_at, EXCLUDED.next_at)`,
    [simIds, until],
  );
}

export interface Candidate {
  id: string;
  recipient: string;
  body: string;
  attempt: number;
  tried_sims: string[];
  /** The SIM of an expired claim (null for a queued message). */
  prev_sim: string | null;
  /** The SIM the conversation last used. */
  conv_sim: string | null;
  /** A chat reply: only this SIM may send it (the number the recipient knows). */
  pinned_sim: string | null;
  /** An MMS: the stored media name and the subject. */
  mms_file: string | null;
  mms_title: string | null;
}

const CANDIDATE_COLUMNS = `m.id::text AS id, m.recipient, m.body, m.attempt, m.tried_sims::text[] AS tried_sims,
  CASE WHEN m.status = 'sending' THEN m.sim_id END AS prev_sim, c.sim_id AS conv_sim,
  m.pinned_sim_id AS pinned_sim, m.mms_file, m.mms_title`;

/** Claims whose lease ran out (a dispatcher died between claim and result), oldest first. */
export async function lockExpiredClaims(q: Queryable, now: Date, limit: number): Promise<Candidate[]> {
  return q.query<Candidate>(
    `SELECT ${CANDIDATE_COLUMNS}
       FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.status = 'sending' AND m.lease_until <= $1
      ORDER BY m.lease_until LIMIT $2
      FOR UPDATE OF m SKIP LOCKED`,
    [now, limit],
  );
}

/** A queued message this tick may send: not held back, and not pinned to a SIM that is not ready. */
const SENDABLE_NOW = `(m.not_before IS NULL OR m.not_before <= $1)
  AND (m.valid_until IS NULL OR m.valid_until > $1)
  AND (m.pinned_sim_id IS NULL OR m.pinned_sim_id = ANY($3::uuid[]))`;

/**
 * The fair order of the queue (docs/architecture.md, "Dispatch order"): users with queued messages
 * take turns (round-robin), within a user its groups take turns (each campaign, and its chat replies
 * as one more group), and a group's messages go first in first out. Whoever waited longest since
 * their last claim (messaging_turns; never served: first) leads each round, so the turn carries
 * over from one tick and one dispatcher process to the next.
 *
 * Index-driven reads only, however deep the queue: a skip scan finds the (user, group) pairs with
 * queued messages (one index probe each); each group then reads only its first messages: `reach`
 * split evenly over the users and a user's share over its groups, and when some groups came up
 * short, what is missing split again over the groups that had more (exact unless one of those runs
 * out too: then a round may end early, and the turns even it out next tick). `reach` ($4) is twice
 * the claim, so that the rows another dispatcher holds (skipped) still leave enough. Window
 * functions number the rounds; the outer level (no window functions allowed there) locks in order.
 */
const FAIR_QUEUE = `
WITH RECURSIVE grp AS (
  -- The (user, group) pairs with queued messages: a skip scan, one index probe per pair.
  (SELECT m.user_id, coalesce(m.campaign_id, 0) AS g FROM messages m
    WHERE m.status = 'queued' ORDER BY 1, 2 LIMIT 1)
  UNION ALL
  SELECT n.user_id, n.g FROM grp p CROSS JOIN LATERAL (
    SELECT m.user_id, coalesce(m.campaign_id, 0) AS g FROM messages m
     WHERE m.status = 'queued' AND (m.user_id, coalesce(m.campaign_id, 0)) > (p.user_id, p.g)
     ORDER BY 1, 2 LIMIT 1) n
),
share AS (
  -- Each group's first read: the reach over the users, a user's share over its groups.
  SELECT user_id, ceil(ceil($4::int / (count(*) OVER ())::numeric) / count(*))::int AS cap
    FROM grp GROUP BY user_id
),
head AS (
  SELECT grp.user_id, grp.g, share.cap, f.id
    FROM grp JOIN share USING (user_id)
   CROSS JOIN LATERAL (
     SELECT m.id FROM messages m
      WHERE m.status = 'queued' AND m.user_id = grp.user_id AND coalesce(m.campaign_id, 0) = grp.g
        AND ${SENDABLE_NOW}
      ORDER BY m.id LIMIT share.cap) f
),
full_groups AS (
  -- Groups that may have more: they gave all that was asked.
  SELECT user_id, g, max(id) AS last FROM head GROUP BY user_id, g HAVING count(*) = min(cap)
),
refill AS (
  -- What the short groups left of the reach, split the same way over the groups that may have more.
  SELECT fg.user_id, fg.g, fg.last,
         ceil(ceil(($4::int - (SELECT count(*) FROM head))::numeric
                   / (SELECT count(DISTINCT user_id) FROM full_groups))
              / count(*) OVER (PARTITION BY fg.user_id))::int AS extra
    FROM full_groups fg
),
more AS (
  SELECT r.user_id, r.g, x.id FROM refill r
   CROSS JOIN LATERAL (
     SELECT m.id FROM messages m
      WHERE m.status = 'queued' AND m.user_id = r.user_id AND coalesce(m.campaign_id, 0) = r.g AND m.id > r.last
        AND ${SENDABLE_NOW}
      ORDER BY m.id LIMIT greatest(r.extra, 0)) x
   WHERE r.extra > 0
),
cand AS (
  -- s: the message's place in its group (first in first out).
  SELECT user_id, g, id, row_number() OVER (PARTITION BY user_id, g ORDER BY id) AS s
    FROM (SELECT user_id, g, id FROM head UNION ALL SELECT user_id, g, id FROM more) c
),
in_user AS (
  -- r: the message's round within its user (the user's groups in turn, who waited longest first).
  SELECT c.id, c.user_id, min(c.id) OVER (PARTITION BY c.user_id) AS first_id,
         row_number() OVER (PARTITION BY c.user_id ORDER BY c.s, t.served NULLS FIRST, c.g) AS r
    FROM cand c LEFT JOIN messaging_turns t ON t.user_id = c.user_id AND t.grp = c.g
),
fair AS (
  -- pos: round by round, the users in turn (who waited longest first; never served: who queued first).
  SELECT f.id, row_number() OVER (ORDER BY f.r, t.served NULLS FIRST, f.first_id) AS pos
    FROM in_user f LEFT JOIN messaging_turns t ON t.user_id = f.user_id AND t.grp = -1
   ORDER BY pos LIMIT $4
)`;

/**
 * Queued messages in the fair order (FAIR_QUEUE), skipping those another dispatcher holds. Chat
 * replies pinned to a SIM that is not ready in this tick are left out, so replies waiting for their
 * SIM never hold up the queue behind them.
 */
export async function lockQueued(
  q: Queryable,
  now: Date,
  limit: number,
  readySims: string[],
): Promise<Candidate[]> {
  if (limit <= 0) return [];
  return q.query<Candidate>(
    `${FAIR_QUEUE}
     SELECT ${CANDIDATE_COLUMNS}
       FROM fair JOIN messages m ON m.id = fair.id JOIN conversations c ON c.id = m.conversation_id
      WHERE m.status = 'queued' AND ${SENDABLE_NOW}
      ORDER BY fair.pos LIMIT $2
      FOR UPDATE OF m SKIP LOCKED`,
    [now, limit, readySims, limit * 2],
  );
}

export interface Assignment {
  id: string;
  sim_id: string;
  gateway_id: string;
  gateway_name: string;
  port: string;
  tid: number;
}

/**
 * The claim's messages become `sending` on their SIMs, and their users and groups (campaign, or
 * chat replies: 0) take the back of the turn (FAIR_QUEUE): served = this claim's number × 2^20 +
 * the place of the group's last message in the claim, which is in the fair order. Turn rows are
 * locked in key order, so two dispatchers committing at once wait rather than deadlock.
 */
export async function markClaimed(
  q: Queryable,
  claimId: string,
  leaseUntil: Date,
  rows: Assignment[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `WITH a AS (
       SELECT * FROM jsonb_to_recordset($3::jsonb)
         AS a(id bigint, sim_id uuid, gateway_id uuid, gateway_name text, port text, tid int, pos int)
     ),
     claimed AS (
       UPDATE messages m SET status = 'sending', claim_id = $1, lease_until = $2, not_before = NULL,
              sim_id = a.sim_id, gateway_id = a.gateway_id, gateway_name = a.gateway_name, port = a.port, tid = a.tid
         FROM a WHERE m.id = a.id
       RETURNING m.user_id, coalesce(m.campaign_id, 0) AS grp, a.pos
     ),
     tick AS (SELECT nextval('messaging_turn_seq') * 1048576 AS base)
     INSERT INTO messaging_turns AS t (user_id, grp, served)
     SELECT x.user_id, x.grp, tick.base + x.pos
       FROM (SELECT user_id, grp, max(pos) AS pos FROM claimed GROUP BY user_id, grp
             UNION ALL
             SELECT user_id, -1, max(pos) FROM claimed GROUP BY user_id) x
      CROSS JOIN tick
      ORDER BY x.user_id, x.grp
     ON CONFLICT (user_id, grp) DO UPDATE SET served = greatest(t.served, EXCLUDED.served)`,
    [claimId, leaseUntil, JSON.stringify(rows.map((r, pos) => ({ ...r, pos })))],
  );
}

/** What changed: for events (campaign progress, messaging events) and the conversation's SIM. */
export interface Touched {
  id: string;
  user_id: string;
  campaign_id: string | null;
  conversation_id: string;
  sim_id: string | null;
  gateway_id: string | null;
  port: string | null;
  status: string;
  recipient: string;
  body: string;
  status_reason: string | null;
  /** The campaign's client_ref (the caller's own reference of the send). */
  campaign_ref: string | null;
  /** markDelivered only: the status before (`sending`: the device's answer was not recorded yet). */
  prev_status?: string;
}

// Everything a messaging event needs comes back with the change (no read per message).
/** The reason of a message failed unsent because its validity ended (receipts tell it apart). */
export const EXPIRED_REASON = 'Expired: not sent within its validity period.';

const TOUCHED = `m.id::text AS id, m.user_id, m.campaign_id::text AS campaign_id,
  m.conversation_id::text AS conversation_id, m.sim_id, m.gateway_id, m.port, m.status,
  m.recipient, m.body, m.status_reason,
  (SELECT cp.client_ref FROM campaigns cp WHERE cp.id = m.campaign_id) AS campaign_ref`;

/** Which rows of a result apply: by the claim (device answer) or by gateway + tid (status report). */
export type ResultKey = { claimId: string } | { gatewayId: string };

function keyed(key: ResultKey): { where: string; param: string } {
  return 'claimId' in key
    ? { where: `m.claim_id = $1 AND m.status = 'sending' AND m.id = a.id`, param: key.claimId }
    : {
        where: `m.gateway_id = $1 AND m.status IN ('sending', 'sent') AND m.tid = a.tid`,
        param: key.gatewayId,
      };
}

/** The device accepted the tasks (or already had them: duplicated task id). */
export async function markSent(q: Queryable, claimId: string, ids: string[], at: Date): Promise<Touched[]> {
  if (ids.length === 0) return [];
  return q.query<Touched>(
    `UPDATE messages m SET status = 'sent', sent_at = $3, lease_until = NULL
       FROM unnest($2::bigint[]) AS a(id)
      WHERE m.claim_id = $1 AND m.status = 'sending' AND m.id = a.id
      RETURNING ${TOUCHED}`,
    [claimId, ids, at],
  );
}

export interface ResultRow {
  /** Message id (claim key) or task id (report key). */
  id?: string;
  tid?: number;
  /** The SIM the device reports it used (its port). */
  port?: string | null;
  reason?: string | null;
}

/** Status 1: the device sent it. */
export async function markDelivered(
  q: Queryable,
  key: ResultKey,
  rows: ResultRow[],
  at: Date,
): Promise<Touched[]> {
  if (rows.length === 0) return [];
  const k = keyed(key);
  // The rows are locked first so that the status before the change is the current one (a report
  // may come before the device's answer was recorded: then the message was never marked sent).
  return q.query<Touched>(
    `WITH o AS (
       SELECT m.id, m.status AS prev_status, a.port
         FROM messages m JOIN jsonb_to_recordset($2::jsonb) AS a(id bigint, tid int, port text) ON true
        WHERE ${k.where}
        FOR UPDATE OF m
     )
     UPDATE messages m SET status = 'delivered', done_at = $3, sent_at = coalesce(m.sent_at, $3),
            port = coalesce(o.port, m.port), status_reason = NULL, lease_until = NULL
       FROM o WHERE m.id = o.id
      RETURNING ${TOUCHED}, o.prev_status`,
    [k.param, JSON.stringify(rows), at],
  );
}

/**
 * The carrier took it (a device that reports this apart from the handset's delivery): the message is
 * `sent` with `carrier_at`, waiting for the handset's report. Once per message: a repeated report,
 * or one after the final report, changes nothing.
 */
export async function markCarrierAccepted(
  q: Queryable,
  key: ResultKey,
  rows: ResultRow[],
  at: Date,
): Promise<Touched[]> {
  if (rows.length === 0) return [];
  const k = keyed(key);
  return q.query<Touched>(
    `WITH o AS (
       SELECT m.id, m.status AS prev_status, a.port
         FROM messages m JOIN jsonb_to_recordset($2::jsonb) AS a(id bigint, tid int, port text) ON true
        WHERE ${k.where} AND m.carrier_at IS NULL
        FOR UPDATE OF m
     )
     UPDATE messages m SET status = 'sent', carrier_at = $3, sent_at = coalesce(m.sent_at, $3),
            port = coalesce(o.port, m.port), lease_until = NULL
       FROM o WHERE m.id = o.id
      RETURNING ${TOUCHED}, o.prev_status`,
    [k.param, JSON.stringify(rows), at],
  );
}

/**
 * A failure this SIM is to blame for: back to the queue for another SIM (attempt + 1, this SIM
 * remembered) while attempts are left, else failed with the reason.
 */
export async function retryOrFail(
  q: Queryable,
  key: ResultKey,
  rows: ResultRow[],
  maxAttempts: number,
  at: Date,
): Promise<Touched[]> {
  if (rows.length === 0) return [];
  const k = keyed(key);
  return q.query<Touched>(
    // Once the carrier took it (carrier_at), a failure is the delivery's: final, never sent again.
    `UPDATE messages m SET
            status = CASE WHEN m.attempt + 1 < $4 AND m.carrier_at IS NULL THEN 'queued' ELSE 'failed' END,
            attempt = CASE WHEN m.attempt + 1 < $4 AND m.carrier_at IS NULL THEN m.attempt + 1 ELSE m.attempt END,
            tried_sims = CASE WHEN m.sim_id IS NULL THEN m.tried_sims ELSE array_append(m.tried_sims, m.sim_id) END,
            done_at = CASE WHEN m.attempt + 1 < $4 AND m.carrier_at IS NULL THEN NULL ELSE $3::timestamptz END,
            sent_at = CASE WHEN m.attempt + 1 < $4 AND m.carrier_at IS NULL THEN NULL ELSE m.sent_at END,
            port = coalesce(a.port, m.port), status_reason = a.reason,
            claim_id = NULL, lease_until = NULL, not_before = NULL
       FROM jsonb_to_recordset($2::jsonb) AS a(id bigint, tid int, port text, reason text)
      WHERE ${k.where}
      RETURNING ${TOUCHED}`,
    [k.param, JSON.stringify(rows), at, maxAttempts],
  );
}

/** A failure no other SIM would change. */
export async function markFailed(
  q: Queryable,
  key: ResultKey,
  rows: ResultRow[],
  at: Date,
): Promise<Touched[]> {
  if (rows.length === 0) return [];
  const k = keyed(key);
  return q.query<Touched>(
    `UPDATE messages m SET status = 'failed', done_at = $3, port = coalesce(a.port, m.port),
            status_reason = a.reason, lease_until = NULL
       FROM jsonb_to_recordset($2::jsonb) AS a(id bigint, tid int, port text, reason text)
      WHERE ${k.where}
      RETURNING ${TOUCHED}`,
    [k.param, JSON.stringify(rows), at],
  );
}

/** Not the message's fault (the device was busy or unreachable): back to the queue, same attempt. */
export async function requeue(
  q: Queryable,
  claimId: string,
  ids: string[],
  notBefore: Date | null,
): Promise<Touched[]> {
  if (ids.length === 0) return [];
  return q.query<Touched>(
    `UPDATE messages m SET status = 'queued', claim_id = NULL, lease_until = NULL, not_before = $3
       FROM unnest($2::bigint[]) AS a(id)
      WHERE m.claim_id = $1 AND m.status = 'sending' AND m.id = a.id
      RETURNING ${TOUCHED}`,
    [claimId, ids, notBefore],
  );
}

/** The conversations of accepted messages remember the SIM that wrote. */
export async function rememberConversationSims(q: Queryable, touched: Touched[]): Promise<void> {
  const rows = touched
    .filter((t) => t.sim_id !== null)
    .map((t) => ({ id: t.conversation_id, sim_id: t.sim_id, gateway_id: t.gateway_id, port: t.port }));
  if (rows.length === 0) return;
  // Locked in receiver order first, as a send's upsert locks them: the two never deadlock.
  await q.query(
    `WITH a AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS a(id bigint, sim_id uuid, gateway_id uuid, port text)),
     locked AS (
       SELECT c.id FROM conversations c JOIN a ON a.id = c.id
        WHERE c.sim_id IS DISTINCT FROM a.sim_id ORDER BY c.user_id, c.receiver FOR UPDATE OF c
     )
     UPDATE conversations c SET sim_id = a.sim_id, gateway_id = a.gateway_id, port = a.port
       FROM a, locked WHERE c.id = a.id AND locked.id = c.id`,
    [JSON.stringify(rows)],
  );
}

/** Chat replies whose SIM never came back to take them: failed, in batches. */
export async function failStalePinned(
  q: Queryable,
  queuedBefore: Date,
  reason: string,
  at: Date,
  limit = 1000,
): Promise<Touched[]> {
  return q.query<Touched>(
    `WITH due AS (
       SELECT id FROM messages WHERE status = 'queued' AND pinned_sim_id IS NOT NULL AND created_at < $1
        ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED
     )
     UPDATE messages m SET status = 'failed', status_reason = $2, done_at = $3
       FROM due WHERE m.id = due.id AND m.status = 'queued'
     RETURNING ${TOUCHED}`,
    [queuedBefore, reason, at, limit],
  );
}

/** Queued messages past their validity (SMPP's validity_period): failed unsent, in batches. */
export async function failExpiredQueued(q: Queryable, at: Date, limit = 1000): Promise<Touched[]> {
  return q.query<Touched>(
    `WITH due AS (
       SELECT id FROM messages WHERE status = 'queued' AND valid_until IS NOT NULL AND valid_until <= $1
        ORDER BY valid_until LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE messages m SET status = 'failed', status_reason = $2, done_at = $1
       FROM due WHERE m.id = due.id AND m.status = 'queued'
     RETURNING ${TOUCHED}`,
    [at, EXPIRED_REASON, limit],
  );
}

/**
 * Accepted messages whose result never came: failed, in batches. One the carrier took (carrier_at)
 * is not lost: it waits for the handset's report as long as the phone keeps it.
 */
export async function failOverdue(
  q: Queryable,
  sentBefore: Date,
  reason: string,
  at: Date,
  limit = 1000,
): Promise<Touched[]> {
  return q.query<Touched>(
    `WITH due AS (
       SELECT id FROM messages WHERE status = 'sent' AND carrier_at IS NULL AND sent_at < $1
        ORDER BY sent_at LIMIT $4 FOR UPDATE SKIP LOCKED
     )
     UPDATE messages m SET status = 'failed', status_reason = $2, done_at = $3
       FROM due WHERE m.id = due.id AND m.status = 'sent'
     RETURNING ${TOUCHED}`,
    [sentBefore, reason, at, limit],
  );
}

/**
 * Queued messages, and those of them no SIM of `pool` can take: all of them when the pool is empty,
 * else the chat replies pinned to a SIM outside it.
 */
export async function queuedWithoutSim(
  q: Queryable,
  pool: string[],
): Promise<{ queued: number; waiting: number }> {
  const rows = await q.query<{ queued: number; pinned_out: number }>(
    `SELECT count(*)::int AS queued,
            count(*) FILTER (WHERE pinned_sim_id IS NOT NULL AND NOT (pinned_sim_id = ANY($1::uuid[])))::int
              AS pinned_out
       FROM messages WHERE status = 'queued'`,
    [pool],
  );
  const r = rows[0] ?? { queued: 0, pinned_out: 0 };
  return { queued: r.queued, waiting: pool.length === 0 ? r.queued : r.pinned_out };
}

/** Messages waiting to be dispatched (queue depth for /metrics; the partial index `messages_queued`). */
export async function queuedMessageCount(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE status = 'queued'`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Seconds the oldest message due for dispatch has waited in the queue at `now` (since it was queued,
 * or since its `not_before` for a scheduled one); 0 with none due (the metrics gauge).
 */
export async function oldestQueuedMessageAge(q: Queryable, now: Date): Promise<number> {
  const rows = await q.query<{ s: number | null }>(
    `SELECT extract(epoch FROM $1::timestamptz - min(greatest(created_at, coalesce(not_before, created_at))))::float8 AS s
       FROM messages WHERE status = 'queued' AND (not_before IS NULL OR not_before <= $1)`,
    [now],
  );
  return Math.max(0, rows[0]?.s ?? 0);
}

/**
 * Forgets the turns of campaigns with no message that could still be queued (none queued, being
 * handed over or awaiting a result): the fair order needs them only while a campaign is sending.
 */
export async function forgetFinishedTurns(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM messaging_turns t
        WHERE t.grp > 0 AND NOT EXISTS (
          SELECT 1 FROM messages m WHERE m.campaign_id = t.grp AND m.status IN ('queued', 'sending', 'sent'))
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Locks the campaigns (in id order) not finished yet, so that the check that follows in
 * finishCampaigns reads the other transactions' endings of their messages: two transactions ending
 * a campaign's last two messages at once would otherwise each see the other's message still open.
 */
export async function lockOpenCampaigns(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    `SELECT id FROM campaigns WHERE id = ANY($1::bigint[]) AND finished_at IS NULL ORDER BY id FOR UPDATE`,
    [ids],
  );
}

/**
 * A message still in flight for its campaign: waiting, being handed over, or taken by a device with
 * no result yet. One the carrier took (carrier_at) has its result for the campaign; a late delivery
 * failure still fails and refunds it.
 */
const IN_FLIGHT = `(m.status IN ('queued', 'sending') OR (m.status = 'sent' AND m.carrier_at IS NULL))`;

export interface FinishedCampaign {
  id: string;
  user_id: string;
  client_ref: string | null;
  delivered: number;
  failed: number;
  cancelled: number;
}

/**
 * Marks the campaigns whose every message ended (delivered, failed or cancelled) finished, once: the
 * guard `finished_at IS NULL` lets one transaction do it. Run after lockOpenCampaigns, in its own
 * statement (a fresh snapshot). Returns the campaigns it marked, with their counts.
 */
export async function finishCampaigns(q: Queryable, ids: string[], at: Date): Promise<FinishedCampaign[]> {
  if (ids.length === 0) return [];
  return q.query<FinishedCampaign>(
    `WITH done AS (
       UPDATE campaigns c SET finished_at = $2
        WHERE c.id = ANY($1::bigint[]) AND c.finished_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM messages m
                           WHERE m.campaign_id = c.id AND ${IN_FLIGHT})
       RETURNING c.id, c.user_id, c.client_ref
     )
     SELECT done.id::text AS id, done.user_id, done.client_ref,
            count(m.id) FILTER (WHERE m.status = 'delivered')::int AS delivered,
            count(m.id) FILTER (WHERE m.status = 'failed')::int AS failed,
            count(m.id) FILTER (WHERE m.status = 'cancelled')::int AS cancelled
       FROM done LEFT JOIN messages m ON m.campaign_id = done.id
      GROUP BY done.id, done.user_id, done.client_ref
      ORDER BY done.id`,
    [ids, at],
  );
}

/** Campaigns not marked finished whose messages all ended (index `campaigns_open`). */
export async function openCampaignsWithNothingLeft(q: Queryable, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT c.id::text AS id FROM campaigns c
      WHERE c.finished_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM messages m
                         WHERE m.campaign_id = c.id AND ${IN_FLIGHT})
      ORDER BY c.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}
