import type { Queryable } from '../../db/db.ts';
import type { TallyTable } from '../../db/tallies.ts';

// History's chart from the hourly rollups (migrations 009 and 030): whole hours from the rollups,
// partial hours counted from the rows themselves (history-stats.ts decides which).

/** The rollups migration 030 adds, folded by the messaging-tallies job. */
export const MESSAGING_TALLIES: TallyTable[] = [
  { table: 'messaging_hourly_all', keys: ['hour'], values: ['num', 'success'] },
  { table: 'replies_hourly', keys: ['user_id', 'hour'], values: ['replies'] },
  { table: 'replies_hourly_all', keys: ['hour'], values: ['replies'] },
];

/** One hour's figures from a rollup. */
export interface HourRow {
  hour: Date;
  values: number[];
}

/** One day's figures counted from the rows in some ranges, per hour of the rows. */
export interface ExactRow {
  d: number;
  hour: Date;
  values: number[];
}

/** Messages (counted, delivered) per hour in [lo, hi): one user's, or everyone's (userId null). */
export async function messageHours(
  q: Queryable,
  userId: string | null,
  lo: Date,
  hi: Date,
): Promise<HourRow[]> {
  const rows = await q.query<{ hour: Date; num: number; success: number }>(
    userId === null
      ? `SELECT hour, sum(num)::int AS num, sum(success)::int AS success FROM messaging_hourly_all
          WHERE hour >= $1 AND hour < $2 GROUP BY hour`
      : `SELECT hour, sum(num)::int AS num, sum(success)::int AS success FROM messaging_hourly
          WHERE user_id = $3 AND hour >= $1 AND hour < $2 GROUP BY hour`,
    userId === null ? [lo, hi] : [lo, hi, userId],
  );
  return rows.map((r) => ({ hour: new Date(r.hour), values: [r.num, r.success] }));
}

/** Replies per hour received in [lo, hi). */
export async function replyHours(
  q: Queryable,
  userId: string | null,
  lo: Date,
  hi: Date,
): Promise<HourRow[]> {
  const rows = await q.query<{ hour: Date; replies: number }>(
    userId === null
      ? `SELECT hour, sum(replies)::int AS replies FROM replies_hourly_all
          WHERE hour >= $1 AND hour < $2 GROUP BY hour`
      : `SELECT hour, sum(replies)::int AS replies FROM replies_hourly
          WHERE user_id = $3 AND hour >= $1 AND hour < $2 GROUP BY hour`,
    userId === null ? [lo, hi] : [lo, hi, userId],
  );
  return rows.map((r) => ({ hour: new Date(r.hour), values: [r.replies] }));
}

/**
 * The rows of a table whose time is in one of the ranges, one index range scan each: a UNION ALL
 * with concrete bounds keeps each estimate small (an OR of ranges becomes a bitmap scan of the heap,
 * and a join against a list of ranges is estimated so high that the JIT compiler starts).
 */
function inRanges(select: string, column: string, ranges: [Date, Date][], params: unknown[]): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  return ranges
    .map(([a, b]) => `${select} AND ${column} >= ${p(a)} AND ${column} < ${p(b)}`)
    .join(' UNION ALL ');
}

/**
 * Messages (counted, delivered) in the ranges, per day since `origin` (days of 86,400 s) and hour:
 * the same rules as the rollup (cancelled messages are not counted).
 */
export async function messagesIn(
  q: Queryable,
  userId: string | null,
  origin: Date,
  ranges: [Date, Date][],
): Promise<ExactRow[]> {
  if (ranges.length === 0) return [];
  const params: unknown[] = [userId, origin];
  // Index-only per range (messages_time_counted, migration 030): no visit to the messages themselves.
  const select = `SELECT created_at, status FROM messages
    WHERE status <> 'cancelled' AND ${userId === null ? '$1::uuid IS NULL' : 'user_id = $1'}`;
  const rows = await q.query<{ d: number; hour: Date; num: number; success: number }>(
    `SELECT floor(extract(epoch FROM (created_at - $2)) / 86400)::int AS d,
            date_trunc('hour', created_at, 'UTC') AS hour,
            count(*)::int AS num, count(*) FILTER (WHERE status = 'delivered')::int AS success
       FROM (${inRanges(select, 'created_at', ranges, params)}) m
      GROUP BY 1, 2`,
    params,
  );
  return rows.map((r) => ({ d: r.d, hour: new Date(r.hour), values: [r.num, r.success] }));
}

/** Replies received in the ranges, per day since `origin` and hour. */
export async function repliesIn(
  q: Queryable,
  userId: string | null,
  origin: Date,
  ranges: [Date, Date][],
): Promise<ExactRow[]> {
  if (ranges.length === 0) return [];
  const params: unknown[] = [userId, origin];
  const select = `SELECT received_at FROM conversation_replies WHERE ${userId === null ? '$1::uuid IS NULL' : 'user_id = $1'}`;
  const rows = await q.query<{ d: number; hour: Date; replies: number }>(
    `SELECT floor(extract(epoch FROM (received_at - $2)) / 86400)::int AS d,
            date_trunc('hour', received_at, 'UTC') AS hour, count(*)::int AS replies
       FROM (${inRanges(select, 'received_at', ranges, params)}) r
      GROUP BY 1, 2`,
    params,
  );
  return rows.map((r) => ({ d: r.d, hour: new Date(r.hour), values: [r.replies] }));
}
