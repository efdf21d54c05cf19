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
 * The rows of a table in each range, counted per range: a UNION ALL of index range scans with
 * concrete bounds keeps each estimate small (an OR of ranges becomes a bitmap scan of the heap, and
 * a join against a list of ranges is estimated so high that the JIT compiler starts), and a count
 * per range needs no per-row arithmetic.
 */
function perRange(
  select: (i: number, a: string, b: string) => string,
  ranges: [Date, Date][],
  params: unknown[],
) {
  const p = (v: unknown) => `$${params.push(v)}`;
  return ranges.map(([a, b], i) => select(i, p(a), p(b))).join(' UNION ALL ');
}

/** Messages (counted, delivered) in each range, the same rules as the rollup (cancelled: not counted). */
export async function messagesIn(
  q: Queryable,
  userId: string | null,
  ranges: [Date, Date][],
): Promise<number[][]> {
  if (ranges.length === 0) return [];
  const params: unknown[] = [userId];
  // Index-only per range (messages_time_counted, migration 030): no visit to the messages themselves.
  const who = userId === null ? '$1::uuid IS NULL' : 'user_id = $1';
  const rows = await q.query<{ i: number; num: number; success: number }>(
    perRange(
      (
        i,
        a,
        b,
      ) => `SELECT ${i} AS i, count(*)::int AS num, count(*) FILTER (WHERE status = 'delivered')::int AS success
         FROM messages WHERE status <> 'cancelled' AND ${who} AND created_at >= ${a} AND created_at < ${b}`,
      ranges,
      params,
    ),
    params,
  );
  const out = ranges.map(() => [0, 0]);
  for (const r of rows) out[r.i] = [r.num, r.success];
  return out;
}

/** Replies received in each range. */
export async function repliesIn(
  q: Queryable,
  userId: string | null,
  ranges: [Date, Date][],
): Promise<number[][]> {
  if (ranges.length === 0) return [];
  const params: unknown[] = [userId];
  const who = userId === null ? '$1::uuid IS NULL' : 'user_id = $1';
  const rows = await q.query<{ i: number; replies: number }>(
    perRange(
      (i, a, b) => `SELECT ${i} AS i, count(*)::int AS replies FROM conversation_replies
         WHERE ${who} AND received_at >= ${a} AND received_at < ${b}`,
      ranges,
      params,
    ),
    params,
  );
  const out = ranges.map(() => [0]);
  for (const r of rows) out[r.i] = [r.replies];
  return out;
}
