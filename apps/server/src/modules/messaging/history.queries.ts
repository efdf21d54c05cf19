import type { Queryable } from '../../db/db.ts';
import { keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';

/** Who and when: one user's messages (null = everyone's, Admin9), created in [from, to). */
export interface HistoryScope {
  userId: string | null;
  from: Date | null;
  to: Date | null;
}

export interface HistoryFilter extends HistoryScope {
  /** 'delivered' | 'failed' | 'sent' (the carrier took it, no handset report yet) | 'pending' (queued or in flight). */
  status: 'delivered' | 'failed' | 'sent' | 'pending' | null;
  /** Receiver starts with these digits. */
  receiverPrefix: string | null;
}

// Cancelled messages never left: they are not part of the history.
const SCOPE = `status <> 'cancelled' AND ($1::uuid IS NULL OR user_id = $1)
  AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)`;
const FILTER = `${SCOPE}
  AND ($4::text IS NULL OR CASE $4 WHEN 'delivered' THEN status = 'delivered' WHEN 'failed' THEN status = 'failed'
                                   WHEN 'sent' THEN status = 'sent' AND carrier_at IS NOT NULL
                                   ELSE status IN ('queued', 'sending') OR (status = 'sent' AND carrier_at IS NULL) END)
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
  /** What the message was charged, decimal text. */
  cost: string;
  /** Its cost was given back. */
  refunded: boolean;
  /** The carrier took it (the device reports that apart from the handset's delivery). */
  carrier: boolean;
  /** A picture message (MMS). */
  mms: boolean;
}

const ROW = `id::text AS id, user_id, recipient, body, status, status_reason, gateway_name, port,
  coalesce(sent_at, created_at) AS at, cost::text AS cost, refunded_at IS NOT NULL AS refunded,
  carrier_at IS NOT NULL AS carrier, mms_file IS NOT NULL AS mms`;

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

/**
 * One page of History's records, newest first, paged by key (docs/architecture.md#paged-lists). Only
 * the filters given become conditions; `total` is the caller's exact count when it has one (the
 * rollup's, without a status or number filter), else counted up to the cap.
 */
export async function historyRecords(
  q: Queryable,
  f: HistoryFilter,
  req: PageRequest,
  knownTotal?: number,
): Promise<ListPage<HistoryRow>> {
  const params: unknown[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = ["status <> 'cancelled'"];
  if (f.userId) where.push(`user_id = ${p(f.userId)}`);
  if (f.from) where.push(`created_at >= ${p(f.from)}`);
  if (f.to) where.push(`created_at < ${p(f.to)}`);
  if (f.status === 'delivered' || f.status === 'failed') where.push(`status = ${p(f.status)}`);
  if (f.status === 'sent') where.push(`status = 'sent' AND carrier_at IS NOT NULL`);
  if (f.status === 'pending')
    where.push(`(status IN ('queued', 'sending') OR (status = 'sent' AND carrier_at IS NULL))`);
  if (f.receiverPrefix) where.push(`recipient LIKE ${p(`${f.receiverPrefix}%`)}`);
  return keysetPage<HistoryRow>(
    q,
    {
      select: ROW,
      from: 'FROM messages',
      where,
      params,
      keys: [
        { expr: 'messages.created_at', type: 'timestamptz' },
        { expr: 'messages.id', type: 'bigint' },
      ],
      desc: true,
      ...(knownTotal !== undefined ? { knownTotal } : {}),
    },
    req,
  );
}

const HOUR = 3_600_000;
const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR) * HOUR);
const ceilHour = (d: Date) => new Date(Math.ceil(d.getTime() / HOUR) * HOUR);

/**
 * Totals of the period: messages, successes, recipients who replied. Whole hours come from the
 * `messaging_hourly` rollup (kept by triggers, migration 009; everyone's from `messaging_hourly_all`,
 * migration 030); only the partial hours at the
 * range's edges are counted from the messages themselves, so the cost does not grow with the range.
 */
export async function historySum(
  q: Queryable,
  s: HistoryScope,
): Promise<{ num: number; success: number; replied: number }> {
  const lo = s.from ? ceilHour(s.from) : null;
  const hi = s.to ? floorHour(s.to) : null;
  const withinOneHour = lo !== null && hi !== null && lo > hi;
  // [from, lo) and [hi, to): the partial hours, counted exactly (the whole range when it is shorter).
  const edges: [Date | null, Date | null][] = withinOneHour
    ? [[s.from, s.to]]
    : [
        ...(s.from && lo && s.from < lo ? [[s.from, lo] as [Date, Date]] : []),
        ...(s.to && hi && hi < s.to ? [[hi, s.to] as [Date, Date]] : []),
      ];
  // Only the parts this range needs, with concrete bounds: a plan never falls back to a full scan
  // for a part that turns out empty.
  const params: unknown[] = [...scopeParams(s)];
  const p = (v: unknown) => `$${params.push(v)}`;
  // Everyone's (Admin9) from the rollup summed over users (migration 030): a row per hour.
  const rollup =
    s.userId === null ? 'messaging_hourly_all WHERE true' : 'messaging_hourly WHERE user_id = $1';
  const whole = withinOneHour
    ? 'SELECT 0 AS num, 0 AS success'
    : `SELECT coalesce(sum(num), 0) AS num, coalesce(sum(success), 0) AS success FROM ${rollup}
        ${lo ? ` AND hour >= ${p(lo)}` : ''}${hi ? ` AND hour < ${p(hi)}` : ''}`;
  const edge = edges.length
    ? `SELECT count(*) AS num, count(*) FILTER (WHERE status = 'delivered') AS success FROM messages
        WHERE status <> 'cancelled' AND ($1::uuid IS NULL OR user_id = $1) AND (${edges
          .map(([a, b]) => `(created_at >= ${p(a)} AND created_at < ${p(b)})`)
          .join(' OR ')})`
    : 'SELECT 0 AS num, 0 AS success';
  const rows = await q.query<{ num: number; success: number; replied: number }>(
    // Repliers by GROUP BY, not count(DISTINCT): hashed in memory instead of sorted (and spilled).
    `WITH whole AS (${whole}), edge AS (${edge}), replied AS (
       SELECT count(*) AS replied FROM (
         SELECT recipient FROM messages WHERE ${SCOPE} AND replied_at IS NOT NULL GROUP BY recipient
       ) r
     )
     SELECT (whole.num + edge.num)::int AS num, (whole.success + edge.success)::int AS success,
            replied.replied::int AS replied
       FROM whole, edge, replied`,
    params,
  );
  return rows[0]!;
}

/**
 * Folds the appended rollup rows of at most `batch` (user, hour) pairs older than `before` into one
 * row each, marked folded. It starts from the rows appended since (not folded: a partial index
 * holds them), so its cost follows what changed, not the rollup's size (migration 031).
 */
export async function compactHourly(q: Queryable, before: Date, batch = 5000): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH piled AS (
       SELECT DISTINCT user_id, hour FROM messaging_hourly WHERE NOT folded AND hour < $1
        ORDER BY hour, user_id LIMIT $2
     ), gone AS (
       DELETE FROM messaging_hourly h USING piled p
        WHERE h.user_id = p.user_id AND h.hour = p.hour
       RETURNING h.user_id, h.hour, h.num, h.success
     ), folded AS (
       INSERT INTO messaging_hourly (user_id, hour, num, success, folded)
       SELECT user_id, hour, sum(num)::int, sum(success)::int, true FROM gone GROUP BY 1, 2
       HAVING sum(num) <> 0 OR sum(success) <> 0
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM piled)::int AS n`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}
