import type { Queryable } from '../../db/db.ts';

/** Who and when: one user's messages (null = everyone's, Admin9), created in [from, to). */
export interface HistoryScope {
  userId: string | null;
  from: Date | null;
  to: Date | null;
}

export interface HistoryFilter extends HistoryScope {
  /** 'delivered' | 'failed' | 'pending' (queued or in flight). */
  status: 'delivered' | 'failed' | 'pending' | null;
  /** Receiver starts with these digits. */
  receiverPrefix: string | null;
}

// Cancelled messages never left: they are not part of the history.
const SCOPE = `status <> 'cancelled' AND ($1::uuid IS NULL OR user_id = $1)
  AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)`;
const FILTER = `${SCOPE}
  AND ($4::text IS NULL OR CASE $4 WHEN 'delivered' THEN status = 'delivered' WHEN 'failed' THEN status = 'failed'
                                   ELSE status IN ('queued', 'sending', 'sent') END)
  AND ($5::text IS NULL OR recipient LIKE $5 || '%')`;

const scopeParams = (s: HistoryScope) => [s.userId, s.from, s.to];
const filterParams = (f: HistoryFilter) => [...scopeParams(f), f.status, f.receiverPrefix];

export interface HistoryRow {
  id: string;
  user_id: string;
  recipient: string;
  body: string;
  status: string;
  status_reason: string | null;
  gateway_name: string | null;
  port: string | null;
  at: Date;
}

const ROW = `id::text AS id, user_id, recipient, body, status, status_reason, gateway_name, port,
  coalesce(sent_at, created_at) AS at`;

export async function historyPage(
  q: Queryable,
  f: HistoryFilter,
  limit: number,
  offset: number,
): Promise<HistoryRow[]> {
  return q.query<HistoryRow>(
    `SELECT ${ROW} FROM messages WHERE ${FILTER} ORDER BY messages.created_at DESC, messages.id DESC LIMIT $6 OFFSET $7`,
    [...filterParams(f), limit, offset],
  );
}

export async function historyCount(q: Queryable, f: HistoryFilter): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE ${FILTER}`,
    filterParams(f),
  );
  return rows[0]!.n;
}

/** Totals of the period: messages, successes, recipients who replied. */
export async function historySum(
  q: Queryable,
  s: HistoryScope,
): Promise<{ num: number; success: number; replied: number }> {
  const rows = await q.query<{ num: number; success: number; replied: number }>(
    `SELECT count(*)::int AS num, count(*) FILTER (WHERE status = 'delivered')::int AS success,
            count(DISTINCT recipient) FILTER (WHERE replied_at IS NOT NULL)::int AS replied
       FROM messages WHERE ${SCOPE}`,
    scopeParams(s),
  );
  return rows[0]!;
}

/** Messages and successes per day since `origin` (days of 86,400 s). */
export async function messagesPerDay(
  q: Queryable,
  s: HistoryScope & { from: Date; to: Date },
): Promise<{ d: number; sent: number; delivered: number }[]> {
  return q.query(
    `SELECT floor(extract(epoch FROM (created_at - $2)) / 86400)::int AS d, count(*)::int AS sent,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered
       FROM messages WHERE ${SCOPE} GROUP BY 1`,
    scopeParams(s),
  );
}

export async function repliesPerDay(
  q: Queryable,
  s: HistoryScope & { from: Date; to: Date },
): Promise<{ d: number; replies: number }[]> {
  return q.query(
    `SELECT floor(extract(epoch FROM (received_at - $2)) / 86400)::int AS d, count(*)::int AS replies
       FROM conversation_replies
      WHERE ($1::uuid IS NULL OR user_id = $1) AND received_at >= $2 AND received_at < $3
      GROUP BY 1`,
    scopeParams(s),
  );
}
