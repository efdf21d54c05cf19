import {
  ADMIN_ROLE,
  type DailyStatsBody,
  type DailyStatsPoint,
  type HistoryRecord,
  type QueryMsgBody,
  type QueryMsgResponse,
  reasonColumns,
} from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { findUserByUsername, usernamesByIds } from '../users/index.ts';
import {
  type HistoryFilter,
  type HistoryRow,
  historyPage,
  historyRecords,
  historySum,
} from './history.queries.ts';
import { messageHours, messagesIn, repliesIn, replyHours } from './history-stats.queries.ts';
import { addUp, planDays } from './history-stats.ts';

// History (docs/product.md): users see their own messages, Admin9 everyone's with gateway and port.

const isAdmin = (u: AuthUser) => u.roles.includes(ADMIN_ROLE);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const fromSeconds = (s: number | undefined) => (s === undefined ? null : new Date(s * 1000));
/** endTime is the last second of the last day: everything before the next second. */
const untilSeconds = (s: number | undefined) => (s === undefined ? null : new Date((s + 1) * 1000));

/**
 * History status: 1 delivered, 0 failed, 3 sent (the carrier took it; the handset's report has not
 * come), 2 not final yet (queued, being sent, awaiting the device's result).
 */
export const historyStatus = (status: string, carrier = false) =>
  status === 'delivered' ? 1 : status === 'failed' ? 0 : status === 'sent' && carrier ? 3 : 2;

function statusFilter(v: number | string | undefined): HistoryFilter['status'] {
  const s = typeof v === 'string' ? v.trim() : v;
  if (s === undefined || s === '') return null;
  if (s === 1 || s === '1') return 'delivered';
  if (s === 0 || s === '0') return 'failed';
  if (s === 2 || s === '2') return 'pending';
  if (s === 3 || s === '3') return 'sent';
  return null;
}

type Params = NonNullable<QueryMsgBody['params']>;

/**
 * The filter of a query. `name` searches the receiver (its digits, as a prefix); `status` is 1, 0 or
 * 2; Admin9's `seatId` is a username (their messages only). Undefined when nothing can match.
 */
async function filterOf(ctx: AppContext, user: AuthUser, p: Params): Promise<HistoryFilter | undefined> {
  let userId: string | null = user.id;
  if (isAdmin(user)) {
    userId = null;
    const seat = typeof p.seatId === 'string' ? p.seatId.trim().toLowerCase() : '';
    if (seat !== '') {
      const found = await findUserByUsername(ctx.db, seat);
      if (!found) return undefined;
      userId = found.id;
    }
  }
  const digits = (p.name ?? '').replace(/\D/g, '').slice(0, 11);
  return {
    userId,
    from: fromSeconds(p.strTime),
    to: untilSeconds(p.endTime),
    status: statusFilter(p.status),
    receiverPrefix: digits === '' ? null : digits,
  };
}

async function toRecords(ctx: AppContext, user: AuthUser, rows: HistoryRow[]): Promise<HistoryRecord[]> {
  const admin = isAdmin(user);
  const names = admin
    ? await usernamesByIds(
        ctx.db,
        rows.map((r) => r.user_id),
      )
    : undefined;
  return rows.map((r) => ({
    id: r.id,
    receiver: r.recipient,
    sms: r.body,
    userAlias: names ? (names.get(r.user_id) ?? '') : user.username,
    status: historyStatus(r.status, r.carrier),
    statusReason: r.status_reason,
    smsGateway: admin ? r.gateway_name : null,
    smsPort: admin ? r.port : null,
    timestamp: seconds(r.at),
    cost: Number(r.cost),
    refunded: r.refunded,
    mms: r.mms,
  }));
}

const rate = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.min(100, Math.round((part / whole) * 10_000) / 100);

/** POST /api/MassOutreach/querymsg: the period's totals, one page of records, and their count. */
export async function queryHistory(
  ctx: AppContext,
  user: AuthUser,
  body: {
    current: number;
    size: number;
    params: Params;
    after?: string | undefined;
    before?: string | undefined;
  },
): Promise<QueryMsgResponse> {
  const f = await filterOf(ctx, user, body.params);
  if (!f) {
    return {
      code: 1,
      data: {
        sum: { numCnt: 0, success: 0, replyUserCnt: 0, successRate: 0, replyRate: 0 },
        records: [],
        total: 0,
      },
    };
  }
  const { sum, page } = await historyWithRecords(ctx, f, body);
  const { rows, total, ...paged } = page;
  return {
    code: 1,
    data: {
      sum: {
        numCnt: sum.num,
        success: sum.success,
        replyUserCnt: sum.replied,
        successRate: rate(sum.success, sum.num),
        replyRate: rate(sum.replied, sum.num),
      },
      records: await toRecords(ctx, user, rows),
      total,
      ...paged,
    },
  };
}

/**
 * The period's totals and one page of its records. Without a status or number filter the records are
 * the summed messages: the sum's count is their exact total, so the page needs no count of its own.
 */
async function historyWithRecords(
  ctx: AppContext,
  f: HistoryFilter,
  body: { current: number; size: number; after?: string | undefined; before?: string | undefined },
) {
  const req = { page: body.current, pageSize: body.size, after: body.after, before: body.before };
  if (f.status !== null || f.receiverPrefix !== null) {
    const [sum, page] = await Promise.all([historySum(ctx.db, f), historyRecords(ctx.db, f, req)]);
    return { sum, page };
  }
  const sum = await historySum(ctx.db, f);
  return { sum, page: await historyRecords(ctx.db, f, req, sum.num) };
}

/**
 * The chart: messages, successes and replies per day of [strTime, endTime], from the hourly rollups
 * with the partial hours counted exactly (history-stats.ts), so its cost follows the range's days,
 * not the messages in it.
 */
export async function dailyStats(
  ctx: AppContext,
  user: AuthUser,
  body: DailyStatsBody,
): Promise<DailyStatsPoint[]> {
  const userId = isAdmin(user) ? null : user.id;
  const from = new Date(body.strTime * 1000);
  const to = new Date((body.endTime + 1) * 1000);
  const days = Math.max(1, Math.ceil((body.endTime + 1 - body.strTime) / 86_400));
  const plan = planDays(from, to);
  const ranges = plan.exact.map((p): [Date, Date] => [p.a, p.b]);
  const [msgHours, msgCounts, replyHrs, replyCounts] = await Promise.all([
    plan.lo < plan.hi ? messageHours(ctx.db, userId, plan.lo, plan.hi) : [],
    messagesIn(ctx.db, userId, ranges),
    plan.lo < plan.hi ? replyHours(ctx.db, userId, plan.lo, plan.hi) : [],
    repliesIn(ctx.db, userId, ranges),
  ]);
  const rows = (counts: number[][]) =>
    plan.exact.map((p, i) => ({ d: p.d, split: p.split, values: counts[i] ?? [] }));
  const msgRows = rows(msgCounts);
  const replyRows = rows(replyCounts);
  const msgs = Array.from({ length: days }, () => [0, 0]);
  const replies = Array.from({ length: days }, () => [0]);
  addUp(msgs, from, plan.splits, msgHours, msgRows);
  addUp(replies, from, plan.splits, replyHrs, replyRows);
  return msgs.map(([sent, delivered], d) => ({
    dayStart: body.strTime + d * 86_400,
    sent: sent ?? 0,
    delivered: delivered ?? 0,
    replies: replies[d]?.[0] ?? 0,
  }));
}

/** Most records one CSV export holds. */
export const EXPORT_MAX_ROWS = 50_000;

/** A CSV cell: quoted when needed; a leading = + - @ is defused so a spreadsheet shows it as text. */
function cell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The filtered records as CSV (newest first, at most EXPORT_MAX_ROWS), Admin9 with gateway and port. */
export async function exportHistoryCsv(ctx: AppContext, user: AuthUser, params: Params): Promise<string> {
  const admin = isAdmin(user);
  // statusReason: the plain sentence; statusDetail: what the device said (contract failure-reason.ts).
  const header = ['id', 'receiver', 'sms', 'userAlias', 'status', 'statusReason', 'statusDetail']
    .concat(admin ? ['smsGateway', 'smsPort'] : [])
    .concat(['time']);
  const lines = [header.join(',')];
  const f = await filterOf(ctx, user, params);
  if (f) {
    const batch = 5000;
    for (let offset = 0; offset < EXPORT_MAX_ROWS; offset += batch) {
      const rows = await historyPage(ctx.db, f, batch, offset);
      for (const r of await toRecords(ctx, user, rows)) {
        const why = reasonColumns(r.statusReason);
        const cells: (string | number | null)[] = [
          r.id,
          r.receiver,
          r.sms,
          r.userAlias,
          r.status,
          why.reason,
          why.detail,
        ];
        if (admin) cells.push(r.smsGateway, r.smsPort);
        cells.push(new Date(r.timestamp * 1000).toISOString());
        lines.push(cells.map(cell).join(','));
      }
      if (rows.length < batch) break;
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
