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

/**
 * Queued messages in order, skipping those another dispatcher holds. Chat replies pinned to a SIM
 * that is not ready in this tick are left out, so replies waiting for their SIM never hold up the
 * queue behind them.
 */
export async function lockQueued(
  q: Queryable,
  now: Date,
  limit: number,
  readySims: string[],
): Promise<Candidate[]> {
  if (limit <= 0) return [];
  return q.query<Candidate>(
    `SELECT ${CANDIDATE_COLUMNS}
       FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.status = 'queued' AND (m.not_before IS NULL OR m.not_before <= $1)
        AND (m.pinned_sim_id IS NULL OR m.pinned_sim_id = ANY($3::uuid[]))
      ORDER BY m.id LIMIT $2
      FOR UPDATE OF m SKIP LOCKED`,
    [now, limit, readySims],
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

export async function markClaimed(
  q: Queryable,
  claimId: string,
  leaseUntil: Date,
  rows: Assignment[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE messages m SET status = 'sending', claim_id = $1, lease_until = $2, not_before = NULL,
            sim_id = a.sim_id, gateway_id = a.gateway_id, gateway_name = a.gateway_name, port = a.port, tid = a.tid
       FROM jsonb_to_recordset($3::jsonb)
            AS a(id bigint, sim_id uuid, gateway_id uuid, gateway_name text, port text, tid int)
      WHERE m.id = a.id`,
    [claimId, leaseUntil, JSON.stringify(rows)],
  );
}

/** What changed: for events (campaign progress) and the conversation's SIM. */
export interface Touched {
  id: string;
  user_id: string;
  campaign_id: string | null;
  conversation_id: string;
  sim_id: string | null;
  gateway_id: string | null;
  port: string | null;
  status: string;
}

const TOUCHED = `m.id::text AS id, m.user_id, m.campaign_id::text AS campaign_id,
  m.conversation_id::text AS conversation_id, m.sim_id, m.gateway_id, m.port, m.status`;

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
  /** The port the device reports it used, "N.SS". */
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
  return q.query<Touched>(
    `UPDATE messages m SET status = 'delivered', done_at = $3, sent_at = coalesce(m.sent_at, $3),
            port = coalesce(a.port, m.port), status_reason = NULL, lease_until = NULL
       FROM jsonb_to_recordset($2::jsonb) AS a(id bigint, tid int, port text)
      WHERE ${k.where}
      RETURNING ${TOUCHED}`,
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
    `UPDATE messages m SET
            status = CASE WHEN m.attempt + 1 < $4 THEN 'queued' ELSE 'failed' END,
            attempt = CASE WHEN m.attempt + 1 < $4 THEN m.attempt + 1 ELSE m.attempt END,
            tried_sims = CASE WHEN m.sim_id IS NULL THEN m.tried_sims ELSE array_append(m.tried_sims, m.sim_id) END,
            done_at = CASE WHEN m.attempt + 1 < $4 THEN NULL ELSE $3::timestamptz END,
            sent_at = CASE WHEN m.attempt + 1 < $4 THEN NULL ELSE m.sent_at END,
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

/** Accepted messages whose result never came: failed, in batches. */
export async function failOverdue(
  q: Queryable,
  sentBefore: Date,
  reason: string,
  at: Date,
  limit = 1000,
): Promise<Touched[]> {
  return q.query<Touched>(
    `WITH due AS (
       SELECT id FROM messages WHERE status = 'sent' AND sent_at < $1 ORDER BY sent_at LIMIT $4 FOR UPDATE SKIP LOCKED
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
