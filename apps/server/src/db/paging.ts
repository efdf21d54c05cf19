import { PAGE_COUNT_CAP, PAGE_JUMP_MAX } from '@simdock/contract';
import { badInput } from '../errors.ts';
import type { Queryable } from './db.ts';

/**
 * Paged lists that stay cheap however deep the pager goes (docs/architecture.md#paged-lists):
 * - the total is counted exactly up to PAGE_COUNT_CAP rows; above that it is the planner's estimate
 *   and the answer says so (`totalEstimated`);
 * - a page is read from an anchor the previous answer gave (`firstCursor` / `lastCursor`: the key of its
 *   first / last row and its page number) with an offset of a few pages at most, or from the nearer
 *   end of the list (the last pages by reading the order in reverse), never by skipping the rows
 *   before it.
 */

export interface PageRequest {
  page: number;
  pageSize: number;
  /** `lastCursor` of an earlier page: read forward from its last row. */
  after?: string | undefined;
  /** `firstCursor` of a later page: read backward from its first row. */
  before?: string | undefined;
}

export interface KeyColumn {
  /** SQL expression of the sort key (the list's ORDER BY, in order; the last one unique). */
  expr: string;
  /** Its PostgreSQL type, to read the cursor's text back. */
  type: string;
}

export interface ListSpec {
  /** `SELECT …` column list (no FROM). */
  select: string;
  /** `FROM …` with joins, no WHERE. */
  from: string;
  /** Conditions ANDed; only the filters given, so each filter combination gets its own plan. */
  where: string[];
  params: unknown[];
  keys: KeyColumn[];
  /** Newest first (every key descending) or every key ascending. */
  desc: boolean;
  /** FROM for the count, when the list's joins do not change which rows there are. Default: `from`. */
  countFrom?: string;
  /** The exact total when the caller already has it cheaply (a maintained counter): no count. */
  knownTotal?: number;
}

export interface ListPage<T> {
  rows: T[];
  total: number;
  totalEstimated: boolean;
  firstCursor?: string;
  lastCursor?: string;
}

interface Anchor {
  page: number;
  key: string[];
}

function encodeCursor(page: number, key: string[]): string {
  return Buffer.from(JSON.stringify([page, ...key])).toString('base64url');
}

function decodeCursor(cursor: string, keyCount: number, field: string): Anchor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badInput('The page cursor is not one this list gave.', field);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== keyCount + 1 ||
    !Number.isInteger(parsed[0]) ||
    parsed[0] < 1 ||
    !parsed.slice(1).every((v) => typeof v === 'string' && v.length <= 200)
  ) {
    throw badInput('The page cursor is not one this list gave.', field);
  }
  return { page: parsed[0] as number, key: parsed.slice(1) as string[] };
}

/**
 * What an exact count may cost, in the planner's units: about an index-only walk of the cap's rows.
 * A count the planner expects to cost more (rows fetched from the table one by one, a search that
 * rechecks many rows) is not run: the total is then its estimate.
 */
const COUNT_COST_BUDGET = 5_000;

interface PlanNode {
  'Total Cost'?: number;
  'Plan Rows'?: number;
  'Node Type'?: string;
  Plans?: PlanNode[];
}

/**
 * Exact count up to the cap when an index gives it cheaply; otherwise (or above the cap) the
 * planner's estimate, marked as such.
 */
export async function cappedCount(
  q: Queryable,
  fromWhere: string,
  params: unknown[],
  filtered = true,
): Promise<{ total: number; estimated: boolean }> {
  const capped = `SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${PAGE_COUNT_CAP + 1}) capped`;
  const plan = await q.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${capped}`, params);
  const raw = Object.values(plan[0] ?? {})[0];
  const top = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: PlanNode }[])?.[0]?.Plan;
  // The estimate before the LIMIT: the first node under the Limit.
  let node = top;
  while (node && node['Node Type'] !== 'Limit' && node.Plans?.[0]) node = node.Plans[0];
  const estimate = Math.round(node?.Plans?.[0]?.['Plan Rows'] ?? node?.['Plan Rows'] ?? 0);
  // A whole table's estimate is its row count as of the last ANALYZE: far above the cap, counting
  // the cap's rows would only confirm it.
  const surelyAbove = !filtered && estimate > 2 * PAGE_COUNT_CAP;
  if (!surelyAbove && (top?.['Total Cost'] ?? Number.POSITIVE_INFINITY) <= COUNT_COST_BUDGET) {
    const [row] = await q.query<{ n: number }>(capped, params);
    const n = row?.n ?? 0;
    if (n <= PAGE_COUNT_CAP) return { total: n, estimated: false };
    return { total: Math.max(PAGE_COUNT_CAP + 1, estimate), estimated: true };
  }
  return { total: Math.max(1, estimate), estimated: true };
}

/** One page of a list by key (see the module comment), with its total and the cursors of its ends. */
export async function keysetPage<T extends object>(
  q: Queryable,
  spec: ListSpec,
  req: PageRequest,
): Promise<ListPage<T>> {
  const whereSql = spec.where.length ? ` WHERE ${spec.where.join(' AND ')}` : '';
  const { total, estimated } =
    spec.knownTotal !== undefined
      ? { total: spec.knownTotal, estimated: false }
      : await cappedCount(q, `${spec.countFrom ?? spec.from}${whereSql}`, spec.params, spec.where.length > 0);
  const size = req.pageSize;
  const pages = Math.max(1, Math.ceil(total / size));
  const after = req.after ? decodeCursor(req.after, spec.keys.length, 'after') : undefined;
  const before = req.before ? decodeCursor(req.before, spec.keys.length, 'before') : undefined;

  // forward = the list's own order; the last pages are read in the opposite order, then turned round.
  let forward = true;
  let offset = 0;
  let limit = size;
  let anchor: Anchor | undefined;
  if (after && req.page > after.page && req.page - after.page <= PAGE_JUMP_MAX) {
    anchor = after;
    offset = (req.page - after.page - 1) * size;
  } else if (before && req.page < before.page && before.page - req.page <= PAGE_JUMP_MAX) {
    anchor = before;
    forward = false;
    offset = (before.page - req.page - 1) * size;
  } else if (req.page > Math.ceil(pages / 2) && req.page <= pages) {
    forward = false;
    if (estimated) {
      // The count is an estimate: pages are counted from the end, the last one full.
      offset = (pages - req.page) * size;
    } else {
      const end = Math.min(req.page * size, total);
      offset = total - end;
      limit = end - (req.page - 1) * size;
    }
  } else {
    offset = (req.page - 1) * size;
  }

  const params = [...spec.params];
  const where = [...spec.where];
  if (anchor) {
    // Row comparison: one index range for the whole key.
    const cols = spec.keys.map((k) => k.expr).join(', ');
    const vals = spec.keys
      .map((k, i) => {
        params.push(anchor.key[i]);
        return `$${params.length}::${k.type}`;
      })
      .join(', ');
    const olderSide = spec.desc === forward ? '<' : '>';
    where.push(`(${cols}) ${olderSide} (${vals})`);
  }
  const descending = spec.desc === forward;
  const order = spec.keys.map((k) => `${k.expr} ${descending ? 'DESC' : 'ASC'}`).join(', ');
  const keyCols = spec.keys.map((k, i) => `(${k.expr})::text AS "__k${i}"`).join(', ');
  params.push(limit, offset);
  const rows = await q.query<T & Record<string, string>>(
    `SELECT ${spec.select}, ${keyCols} ${spec.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  if (!forward) rows.reverse();
  const keyOf = (r: Record<string, string>) => spec.keys.map((_, i) => r[`__k${i}`]!);
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows: rows.map((r) => {
      const out: Record<string, unknown> = { ...r };
      for (let i = 0; i < spec.keys.length; i++) delete out[`__k${i}`];
      return out as T;
    }),
    total,
    totalEstimated: estimated,
    ...(first ? { firstCursor: encodeCursor(req.page, keyOf(first)) } : {}),
    ...(last ? { lastCursor: encodeCursor(req.page, keyOf(last)) } : {}),
  };
}
