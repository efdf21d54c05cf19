import type { AdminOrder, Order } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { cappedCount, keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';
import type { TallyTable } from '../../db/tallies.ts';
import type { UsableSim } from '../gateways/index.ts';
import {
  type ReuseRule,
  type RuleParams,
  rentableSql,
  ruleValues,
  spareBothSql,
} from './services.queries.ts';

export interface OrderRow {
  id: string;
  user_id: string;
  service_code: string;
  service_name: string;
  phone_number: string;
  code_text: string | null;
  sms_text: string | null;
  status: Order['status'];
  /** Exact decimal text. */
  price: string;
  created_at: Date;
  expires_at: Date;
  /** When "another SMS" was last asked for (SMS-Activate setStatus 3). */
  retry_requested_at: Date | null;
  /** When the user finished the order (setStatus 6): it takes no more codes. */
  closed_at: Date | null;
  /** The number's country and operator when it was rented (null before countries were known). */
  country: string | null;
  operator: string | null;
}

/** The columns of an OrderRow, from an orders row `o`. */
const ORDER_FIELDS = `o.id::text AS id, o.user_id, o.service_code, o.service_name, o.phone_number,
  o.code_text, o.sms_text, o.status, o.price::text AS price, o.created_at, o.expires_at,
  o.retry_requested_at, o.closed_at, o.country, o.operator`;

export const ORDER_SELECT = `SELECT ${ORDER_FIELDS} FROM orders o`;

export async function findOrder(q: Queryable, id: string): Promise<OrderRow | undefined> {
  return (await q.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = $1::bigint`, [id]))[0];
}

/** Several orders by id, in one statement (any order; missing ids are left out). */
export async function findOrders(q: Queryable, ids: string[]): Promise<OrderRow[]> {
  return q.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = ANY($1::bigint[])`, [ids]);
}

/** toISOString in SQL: both truncate to the millisecond. */
const iso = (t: string) => `to_char((${t}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Every field of the contract's Order as SQL over an orders row `o` (the compiler holds this to the
 * contract: a field added there must be added here); `$3` is the minimum seconds before a cancel.
 */
const ORDER_JSON_FIELDS: Record<keyof Order, string> = {
  id: 'o.id::text',
  serviceCode: 'o.service_code',
  serviceName: 'o.service_name',
  phoneNumber: 'o.phone_number',
  codeText: 'o.code_text',
  smsText: 'o.sms_text',
  status: 'o.status',
  price: 'o.price',
  createdAt: iso('o.created_at'),
  expiresAt: iso('o.expires_at'),
  cancelableAt: iso("o.created_at + $3 * interval '1 second'"),
  finished: 'o.closed_at IS NOT NULL',
  country: 'o.country',
  operator: 'o.operator',
};
/** The fields as the columns of one row, named as the contract names them: row_to_json of it is an Order. */
const ORDER_JSON_COLUMNS = Object.entries(ORDER_JSON_FIELDS)
  .map(([name, sql]) => `${sql} AS "${name}"`)
  .join(', ');

/**
 * The order list of each of these users, newest first, as JSON text built by PostgreSQL, in one
 * statement (concurrent requests share it). Turning 100 rows into objects, checking them and
 * writing them out as JSON cost about 1 ms of the server's CPU per list; PostgreSQL's JSON
 * functions do it in a fraction of that. row_to_json writes no spaces (json_build_object and
 * json_agg add about 14 % to a list). A user without orders gets `[]`. The newest ids come from the
 * (user_id, id) index alone: planned for a user of average size, a direct scan would fetch and sort
 * every order of a user with many (docs/architecture.md#paged-lists).
 */
export async function orderListsJson(
  q: Queryable,
  userIds: string[],
  cancelMinSeconds: number,
  limit = 100,
): Promise<Map<string, string>> {
  const rows = await q.query<{ user_id: string; orders: string }>(
    `SELECT u.id AS user_id,
            (SELECT '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY o.id DESC), '') || ']'
               FROM (SELECT * FROM orders o WHERE o.id IN (
                       SELECT i.id FROM orders i WHERE i.user_id = u.id ORDER BY i.id DESC LIMIT $2)) o
               CROSS JOIN LATERAL (SELECT ${ORDER_JSON_COLUMNS}) j) AS orders
       FROM unnest($1::uuid[]) AS u(id)`,
    [userIds, limit, cancelMinSeconds],
  );
  return new Map(rows.map((r) => [r.user_id, r.orders]));
}

/** Serialises rents of one service across connections and processes, for this transaction. */
export async function lockServiceForRent(q: Queryable, serviceId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('rent:' || $1::text))`, [serviceId]);
}

export async function openOrderCount(q: Queryable, serviceId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders WHERE service_id = $1 AND status = 'WAIT_CODE'`,
    [serviceId],
  );
  return rows[0]!.n;
}

export type RentableSim = UsableSim;

/**
 * Serialises, across services and processes, the rents that may take a free SIM with role Both
 * while SIMs are kept for sending: two services' rents must not each take the last spare one.
 * Taken after the service's lock (always in that order).
 */
export async function lockSendingShare(q: Queryable): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('rent:sending-share'))`);
}

const PICK_PARAMS: RuleParams = { limit: '$3', freeBefore: '$4', now: '$5', kept: '$6' };

/**
 * Picks the rentable SIM (number reuse rule: RENTABLE_SIMS_SQL) with the fewest open rentals (spreads
 * load), at random among equals; a free SIM with role Both only while more of them are free than
 * the SIMs kept for sending. Call it under lockServiceForRent (and lockSendingShare when SIMs are
 * kept). The open rentals per SIM are counted through orders_sim_open (hence its predicate,
 * spelled out: a waiting order is never closed).
 */
export async function pickSim(
  q: Queryable,
  serviceId: string,
  sims: UsableSim[],
  rule: ReuseRule,
  allSims: UsableSim[] = sims,
): Promise<RentableSim | undefined> {
  const rows = await q.query<{ id: string }>(
    `SELECT r.id
       FROM (${rentableSql('$1', '$2', PICK_PARAMS)}) r
      WHERE NOT r.free_both OR ${spareBothSql('$7', PICK_PARAMS)} > 0
      ORDER BY (SELECT count(*) FROM orders o
                  WHERE o.sim_id = r.id AND o.status IN ('WAIT_CODE', 'SUCCESS') AND o.closed_at IS NULL
                    AND o.status = 'WAIT_CODE'), random()
      LIMIT 1`,
    [
      serviceId,
      JSON.stringify(sims),
      ...ruleValues(rule),
      // The share kept for sending is the whole pool's (SIMs of one country take what is spare).
      allSims === sims
        ? JSON.stringify(sims)
        : JSON.stringify(allSims.map((x) => ({ id: x.id, role: x.role }))),
    ],
  );
  const id = rows[0]?.id;
  return id === undefined ? undefined : sims.find((s) => s.id === id);
}

export async function insertOrder(
  q: Queryable,
  o: {
    userId: string;
    service: { id: string; code: string; name: string };
    sim: RentableSim;
    price: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<string> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, sim_id, port,
                         phone_number, price, status, created_at, expires_at, country, operator)
     VALUES ($1, $2, $11, $12, $3, $4, $5, $6, $7, $8::numeric, 'WAIT_CODE', $9, $10, $13, $14)
     RETURNING id::text AS id`,
    [
      o.userId,
      o.service.id,
      o.sim.gateway_id,
      o.sim.gateway_name,
      o.sim.id,
      o.sim.port,
      o.sim.number,
      o.price,
      o.createdAt,
      o.expiresAt,
      o.service.code,
      o.service.name,
      o.sim.country,
      o.sim.operator,
    ],
  );
  return rows[0]!.id;
}

/**
 * Cancels one of the user's orders, only when it still waits for its first code and the minimum
 * time has passed; returns it (the caller refunds it in the same transaction), or undefined.
 */
export async function cancelIfAllowed(
  q: Queryable,
  orderId: string,
  userId: string,
  now: Date,
  earliestCreatedAt: Date,
): Promise<OrderRow | undefined> {
  const rows = await q.query<OrderRow>(
    `UPDATE orders o SET status = 'CANCEL', finished_at = $3, cancelled_by_user = true
      WHERE id = $1::bigint AND user_id = $2 AND status = 'WAIT_CODE' AND code_text IS NULL AND created_at <= $4
      RETURNING ${ORDER_FIELDS}`,
    [orderId, userId, now, earliestCreatedAt],
  );
  return rows[0];
}

/**
 * The user's own cancellations since `since`, and when the oldest of them was; serialised per
 * user for this transaction so parallel cancels cannot all pass the hourly cap.
 */
export async function recentCancels(
  q: Queryable,
  userId: string,
  since: Date,
): Promise<{ n: number; oldest: Date | null }> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('cancel:' || $1::text))`, [userId]);
  const rows = await q.query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(finished_at) AS oldest FROM orders
      WHERE user_id = $1 AND cancelled_by_user AND finished_at > $2`,
    [userId, since],
  );
  return rows[0]!;
}

/**
 * Cancels overdue orders still waiting for a code, in one statement; the caller refunds them in
 * the same transaction. SKIP LOCKED lets several sweepers run at once without taking the same
 * order; the status guard and the ledger's unique (kind, ref) make the refund happen exactly once.
 */
export async function cancelExpired(q: Queryable, now: Date, batch: number): Promise<OrderRow[]> {
  return q.query<OrderRow>(
    `WITH due AS (
       SELECT id FROM orders WHERE status = 'WAIT_CODE' AND expires_at <= $1
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE orders o SET status = 'CANCEL', finished_at = $1
       FROM due WHERE o.id = due.id AND o.status = 'WAIT_CODE'
     RETURNING ${ORDER_FIELDS}`,
    [now, batch],
  );
}

/** An order that may take an arriving SMS, as the matching needs it, locked for its transaction. */
export interface OpenOrderForSms extends OrderRow {
  finished_at: Date | null;
  pattern: string;
  text_contains: string;
  is_repeatable: boolean;
}

/**
 * The input rows of a statement that takes a list (one row per item, numbered `n` from 1): for
 * several items `unnest` of one array parameter per column (`many`), for one item one row of scalar
 * parameters (`one`). The statement around them is the same text. Why two shapes: PostgreSQL's
 * generic plan of an `unnest` of array parameters assumes 10 rows, so with one item PostgreSQL kept
 * planning the statement on every call (the open orders of one SMS took about 0.8 ms a call instead
 * of 0.4 ms, measured on PostgreSQL 15 with 30,000 orders); one row of scalars has a generic plan as
 * cheap as its custom ones, so the single case costs what its own statement did. The texts are built
 * once: a statement's text is the key of its prepared statement, and building it for each SMS
 * showed in the server's CPU profile.
 */
function inputTable<T>(
  alias: string,
  columns: readonly (readonly [name: string, type: string, value: (item: T) => unknown])[],
  firstParam = 1,
) {
  const names = `${alias} (${columns.map(([name]) => name).join(', ')}, n)`;
  const param = (i: number) => `$${firstParam + i}`;
  return {
    /** How many parameters it takes: a statement's next input numbers its parameters after them. */
    paramCount: columns.length,
    one: `(SELECT ${columns.map(([, type], i) => `${param(i)}::${type}`).join(', ')}, 1::bigint) AS ${names}`,
    many: `unnest(${columns.map(([, type], i) => `${param(i)}::${type}[]`).join(', ')}) WITH ORDINALITY AS ${names}`,
    params: (items: readonly T[]): unknown[] =>
      items.length === 1
        ? columns.map(([, , value]) => value(items[0]!))
        : columns.map(([, , value]) => items.map(value)),
  };
}

/** The text of a statement over `items`: its one-row form for one item, else its `unnest` form. */
const forCount = <T>(texts: { one: T; many: T }, items: readonly unknown[]): T =>
  items.length === 1 ? texts.one : texts.many;

type SmsAtPort = { gatewayId: string; port: string; receivedAt: Date };

const SMS_AT_PORT = inputTable<SmsAtPort>('t', [
  ['gateway_id', 'uuid', (m) => m.gatewayId],
  ['port', 'text', (m) => m.port],
  ['at', 'timestamptz', (m) => m.receivedAt],
]);

const openOrdersSql = (from: string) =>
  `SELECT t.n::int - 1 AS n, ${ORDER_FIELDS}, o.finished_at, s.pattern, s.text_contains, s.is_repeatable
       FROM ${from}
       JOIN orders o ON o.gateway_id = t.gateway_id AND o.port = t.port
        AND o.status IN ('WAIT_CODE', 'SUCCESS') AND o.closed_at IS NULL
        AND o.created_at <= t.at AND o.expires_at > t.at
       JOIN services s ON s.id = o.service_id
      WHERE o.status = 'WAIT_CODE' OR s.is_repeatable
      ORDER BY o.id, t.n
      FOR UPDATE OF o`;
const OPEN_ORDERS_SQL = { one: openOrdersSql(SMS_AT_PORT.one), many: openOrdersSql(SMS_AT_PORT.many) };

/**
 * Orders on each SMS's gateway port that can still take a code, locked for the matching
 * transaction, in one statement for any number of SMS: each row says which SMS (`n`, its index in
 * `sms`) it is open for. Locked in order id order. The SIM's number is not asked for: this read
 * goes out with the SMS's insert, before the SIM is known, and the matching checks the number (a
 * SIM swapped in the port since the rental must not give its SMS to the renter).
 */
export async function openOrdersForSms(
  q: Queryable,
  sms: readonly SmsAtPort[],
): Promise<(OpenOrderForSms & { n: number })[]> {
  return q.query<OpenOrderForSms & { n: number }>(forCount(OPEN_ORDERS_SQL, sms), SMS_AT_PORT.params(sms));
}

/** An SMS given to an order: kept in order_codes (one row per order and SMS). */
export type CodeToRecord = {
  orderId: string;
  smsId: string;
  code: string | undefined;
  text: string;
  at: Date;
};
/** An order's fields after the SMS it took (the matching already knows them; this writes them). */
export type OrderAfterSms = Pick<OpenOrderForSms, 'id' | 'code_text' | 'sms_text' | 'status' | 'finished_at'>;

const CODES_GIVEN = inputTable<CodeToRecord>('i', [
  ['order_id', 'bigint', (c) => c.orderId],
  ['sms_id', 'uuid', (c) => c.smsId],
  ['code', 'text', (c) => c.code ?? null],
  ['text', 'text', (c) => c.text],
  ['at', 'timestamptz', (c) => c.at],
]);
const ORDERS_AFTER = inputTable<OrderAfterSms>(
  'u',
  [
    ['id', 'bigint', (o) => o.id],
    ['code_text', 'text', (o) => o.code_text],
    ['sms_text', 'text', (o) => o.sms_text],
    ['status', 'text', (o) => o.status],
    ['finished_at', 'timestamptz', (o) => o.finished_at],
  ],
  CODES_GIVEN.paramCount + 1,
);

const recordCodesSql = (given: string, after: string) =>
  `WITH c AS (
       INSERT INTO order_codes (order_id, sms_id, code_text, sms_text, received_at)
       SELECT order_id, sms_id, code, text, at FROM ${given} ORDER BY n
       ON CONFLICT DO NOTHING
     )
     UPDATE orders SET code_text = u.code_text, sms_text = u.sms_text, status = u.status,
            finished_at = u.finished_at
       FROM ${after}
      WHERE orders.id = u.id`;
const RECORD_CODES_SQL = {
  one: {
    one: recordCodesSql(CODES_GIVEN.one, ORDERS_AFTER.one),
    many: recordCodesSql(CODES_GIVEN.one, ORDERS_AFTER.many),
  },
  many: {
    one: recordCodesSql(CODES_GIVEN.many, ORDERS_AFTER.one),
    many: recordCodesSql(CODES_GIVEN.many, ORDERS_AFTER.many),
  },
};

/**
 * Records the SMS orders took and the orders as they are after them, in one statement written
 * with the transaction's next statement or its commit (the matching already knows the orders' new
 * values: they are locked and it worked them out, so nothing waits for an answer). Each order once.
 */
export async function recordCodes(
  q: Queryable,
  codes: readonly CodeToRecord[],
  orders: readonly OrderAfterSms[],
): Promise<void> {
  await q.defer(forCount(forCount(RECORD_CODES_SQL, codes), orders), [
    ...CODES_GIVEN.params(codes),
    ...ORDERS_AFTER.params(orders),
  ]);
}

// ---- the rental API: finish, another SMS, details and pages ----

/** Finishes an order that has a code (idempotent); undefined when it is not the user's or has none. */
export async function closeOrder(
  q: Queryable,
  orderId: string,
  userId: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const rows = await q.query<OrderRow>(
    `UPDATE orders o SET closed_at = COALESCE(o.closed_at, $3)
      WHERE o.id = $1::bigint AND o.user_id = $2 AND o.status = 'SUCCESS'
      RETURNING ${ORDER_FIELDS}`,
    [orderId, userId, now],
  );
  return rows[0];
}

/** Marks "another SMS asked for" on an open order of a repeatable service that has a code. */
export async function markRetry(
  q: Queryable,
  orderId: string,
  userId: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const rows = await q.query<OrderRow>(
    `UPDATE orders o SET retry_requested_at = $3
       FROM services s
      WHERE s.id = o.service_id AND o.id = $1::bigint AND o.user_id = $2 AND o.status = 'SUCCESS'
        AND s.is_repeatable AND o.closed_at IS NULL AND o.expires_at > $3
      RETURNING ${ORDER_FIELDS}`,
    [orderId, userId, now],
  );
  return rows[0];
}

export interface OrderDetailRow extends OrderRow {
  is_repeatable: boolean;
  /** When the last code arrived. */
  last_code_at: Date | null;
  codes: { code: string | null; text: string; receivedAt: string }[];
}

const DETAIL_SELECT = `SELECT ${ORDER_FIELDS}, s.is_repeatable,
    (SELECT max(c.received_at) FROM order_codes c WHERE c.order_id = o.id AND c.code_text IS NOT NULL) AS last_code_at,
    COALESCE((SELECT json_agg(json_build_object('code', c.code_text, 'text', c.sms_text,
                'receivedAt', to_char(c.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
              ORDER BY c.id)
                FROM order_codes c WHERE c.order_id = o.id), '[]'::json) AS codes
  FROM orders o JOIN services s ON s.id = o.service_id`;

export async function findOrderDetail(q: Queryable, id: string): Promise<OrderDetailRow | undefined> {
  return (await q.query<OrderDetailRow>(`${DETAIL_SELECT} WHERE o.id = $1::bigint`, [id]))[0];
}

export interface OrderPageFilter {
  status?: Order['status'];
  /** Only open orders: waiting for a code, or with a code but not finished and within their time. */
  active?: { now: Date };
  from?: Date;
  to?: Date;
}

/**
 * One page of a user's orders, newest first, with the total: only the filters given, the count exact
 * up to the cap when an index gives it cheaply (docs/architecture.md#paged-lists), else estimated.
 */
export async function orderDetailsPage(
  q: Queryable,
  userId: string,
  f: OrderPageFilter,
  limit: number,
  offset: number,
): Promise<{ rows: OrderDetailRow[]; total: number; totalEstimated: boolean }> {
  const params: unknown[] = [userId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where = ['o.user_id = $1'];
  if (f.status) where.push(`o.status = ${p(f.status)}`);
  if (f.active) {
    where.push(
      `(o.status = 'WAIT_CODE' OR (o.status = 'SUCCESS' AND o.closed_at IS NULL AND o.expires_at > ${p(f.active.now)}))`,
    );
  }
  if (f.from) where.push(`o.created_at >= ${p(f.from)}`);
  if (f.to) where.push(`o.created_at <= ${p(f.to)}`);
  const cond = where.join(' AND ');
  const [rows, count] = await Promise.all([
    q.query<OrderDetailRow>(
      `${DETAIL_SELECT} WHERE ${cond} ORDER BY o.id DESC LIMIT ${p(limit)} OFFSET ${p(offset)}`,
      params,
    ),
    // Every order has its service (a foreign key): the count needs no join.
    cappedCount(q, `FROM orders o WHERE ${cond}`, params.slice(0, params.length - 2)),
  ]);
  return { rows, total: count.total, totalEstimated: count.estimated };
}

// ---- admin views ----

export interface AdminOrderFilter {
  status?: string;
  gateway?: string;
  phoneNumber?: string;
}

/**
 * Order Manager's list, newest first, paged by key (docs/architecture.md#paged-lists). Only the filters
 * given become conditions, so each combination is planned on its own: status and gateway by their
 * (column, id) indexes, the phone number's substring by its trigram index.
 */
export async function adminOrdersPage(
  q: Queryable,
  f: AdminOrderFilter,
  req: PageRequest,
): Promise<ListPage<Omit<AdminOrder, 'username'> & { userId: string }>> {
  const params: unknown[] = [];
  const where: string[] = [];
  const status = f.status?.trim();
  const gateway = f.gateway?.trim();
  const phone = f.phoneNumber?.trim();
  if (status) {
    params.push(status);
    where.push(`o.status = $${params.length}`);
  }
  if (gateway) {
    params.push(gateway);
    where.push(`o.gateway_name = $${params.length}`);
  }
  if (phone) {
    params.push(`%${likeEscape(phone)}%`);
    where.push(`o.phone_number LIKE $${params.length}`);
  }
  const page = await keysetPage<Omit<AdminOrder, 'username'> & { userId: string; created_at: Date }>(
    q,
    {
      select: `o.id::text AS id, o.gateway_name AS gateway, o.port, o.user_id AS "userId",
            o.phone_number AS "phoneNumber", o.service_code AS "serviceCode",
            o.service_name AS "serviceName", o.code_text AS "codeText", o.status,
            o.created_at`,
      from: 'FROM orders o',
      where,
      params,
      keys: [{ expr: 'o.id', type: 'bigint' }],
      desc: true,
    },
    req,
  );
  return {
    ...page,
    rows: page.rows.map(({ created_at, ...o }) => ({ ...o, createdAt: created_at.toISOString() })),
  };
}

/** A LIKE pattern's wildcards taken literally. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Order Manager's per-gateway statistics, from the maintained tallies (migration 030): about one row
 * per gateway name, whatever the number of orders.
 */
export async function gatewayOrderStats(
  q: Queryable,
): Promise<{ gateway: string; totalOrders: number; successOrders: number }[]> {
  return q.query(
    `SELECT gateway_name AS gateway, sum(orders)::int AS "totalOrders", sum(success)::int AS "successOrders"
       FROM order_gateway_tallies GROUP BY gateway_name HAVING sum(orders) > 0 ORDER BY gateway_name`,
  );
}

/** Gateway names orders were placed on (deleted gateways included). */
export async function orderGatewayNames(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    'SELECT gateway_name AS name FROM order_gateway_tallies GROUP BY 1 HAVING sum(orders) > 0 ORDER BY 1',
  );
  return rows.map((r) => r.name);
}

export async function userOrderStats(
  q: Queryable,
  userId: string,
  dayStart: Date,
  now: Date,
): Promise<{ active: number; today: number }> {
  const rows = await q.query<{ active: number; today: number }>(
    // Active: still waiting for a code, or a repeatable rental that can receive more before it expires
    // and is not finished (Finish closes it). Each part reads a partial index of the user's open or
    // unexpired orders (migration 030).
    `SELECT ((SELECT count(*) FROM orders WHERE user_id = $1 AND status = 'WAIT_CODE')
           + (SELECT count(*) FROM orders o JOIN services s ON s.id = o.service_id
               WHERE o.user_id = $1 AND o.status = 'SUCCESS' AND o.expires_at > $3 AND o.closed_at IS NULL
                 AND s.is_repeatable))::int
              AS active,
            (SELECT count(*) FROM orders WHERE user_id = $1 AND created_at >= $2)::int AS today`,
    [userId, dayStart, now],
  );
  return rows[0]!;
}

export async function openOrdersOnGateway(q: Queryable, gatewayId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders WHERE gateway_id = $1 AND status = 'WAIT_CODE'`,
    [gatewayId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Device Statistics: orders on one gateway per service: open (WAIT_CODE, from the open orders),
 * all and SUCCESS (from the tallies, migration 030).
 */
export async function serviceStatsOnGateway(
  q: Queryable,
  gatewayId: string,
): Promise<{ name: string; using: number; used: number; success: number }[]> {
  return q.query(
    `WITH t AS (
       SELECT service_id, sum(orders)::int AS used, sum(success)::int AS success
         FROM order_tallies WHERE gateway_id = $1 GROUP BY service_id HAVING sum(orders) > 0
     ), w AS (
       SELECT service_id, count(*)::int AS using FROM orders
        WHERE gateway_id = $1 AND status = 'WAIT_CODE' GROUP BY service_id
     )
     SELECT sv.name, coalesce(w.using, 0) AS using, t.used, t.success
       FROM t JOIN services sv ON sv.id = t.service_id LEFT JOIN w ON w.service_id = t.service_id
      ORDER BY t.used DESC, sv.name`,
    [gatewayId],
  );
}

// ---- idempotent rents ---------------------------------------------------------------------------

/** Serialises requests carrying the same key for this transaction, across processes. */
export async function lockRequestKey(q: Queryable, userId: string, key: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(hashtext('rent-key:' || $1 || ':' || $2))`, [userId, key]);
}

export async function findRequest(
  q: Queryable,
  userId: string,
  key: string,
): Promise<{ order_id: string; service_code: string } | undefined> {
  const rows = await q.query<{ order_id: string; service_code: string }>(
    'SELECT order_id::text AS order_id, service_code FROM order_requests WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  return rows[0];
}

export async function saveRequest(
  q: Queryable,
  r: { userId: string; key: string; serviceCode: string; orderId: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO order_requests (user_id, key, service_code, order_id, created_at)
     VALUES ($1, $2, $3, $4::bigint, $5)`,
    [r.userId, r.key, r.serviceCode, r.orderId, r.at],
  );
}

/**
 * The admin overview's rental figures: rentals since dayStart, a UTC midnight (and how many got a
 * code), from the daily tallies (migration 030); waiting now, from the open orders' index.
 */
export async function orderFigures(
  q: Queryable,
  dayStart: Date,
): Promise<{ ordersToday: number; ordersTodaySuccess: number; ordersWaiting: number }> {
  const rows = await q.query<{ ordersToday: number; ordersTodaySuccess: number; ordersWaiting: number }>(
    `SELECT coalesce(sum(orders), 0)::int AS "ordersToday", coalesce(sum(success), 0)::int AS "ordersTodaySuccess",
            (SELECT count(*) FROM orders WHERE status = 'WAIT_CODE')::int AS "ordersWaiting"
       FROM order_days WHERE day >= $1::date`,
    [dayStart.toISOString().slice(0, 10)],
  );
  return rows[0]!;
}

/** Whether the user ever rented a number (such a user is deactivated rather than erased). */
export async function userHasOrders(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ yes: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM orders WHERE user_id = $1) AS yes',
    [userId],
  );
  return rows[0]?.yes === true;
}

/**
 * SIMs holding a rental that can still receive a code (waiting, or a repeatable one not finished
 * before it expires): bulk sending leaves them alone so the renter's code is the only traffic they
 * get. Two small reads: the waiting orders (orders_open) and the unfinished ones with a code
 * (orders_success_unclosed, which stays small because they close at the end of their time:
 * closeLapsed), each estimated well by the planner, so the cost follows the open rentals, not the
 * order history (bench/RESULTS.md).
 */
export async function simsInOpenRentals(q: Queryable, now: Date): Promise<string[]> {
  const rows = await q.query<{ sim_id: string }>(
    `SELECT o.sim_id FROM orders o WHERE o.status = 'WAIT_CODE' AND o.sim_id IS NOT NULL
     UNION
     SELECT o.sim_id FROM orders o JOIN services s ON s.id = o.service_id
      WHERE o.status = 'SUCCESS' AND o.closed_at IS NULL AND o.expires_at > $1 AND s.is_repeatable
        AND o.sim_id IS NOT NULL`,
    [now],
  );
  return rows.map((r) => r.sim_id);
}

/**
 * Closes rentals with a code whose time is over (docs/operations.md, "Data retention"), as a
 * Finish at that moment would: closed_at = expires_at, the status stays SUCCESS, no money moves.
 * SKIP LOCKED: an order an arriving SMS is matching is taken by the next sweep.
 */
export async function closeLapsed(q: Queryable, now: Date, batch: number): Promise<OrderRow[]> {
  return q.query<OrderRow>(
    `WITH due AS (
       SELECT id FROM orders WHERE status = 'SUCCESS' AND closed_at IS NULL AND expires_at <= $1
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE orders o SET closed_at = o.expires_at
       FROM due WHERE o.id = due.id AND o.status = 'SUCCESS' AND o.closed_at IS NULL
     RETURNING ${ORDER_FIELDS}`,
    [now, batch],
  );
}
/** The order tallies (migration 030), folded by the rental-tallies job. */
export const ORDER_TALLIES: TallyTable[] = [
  {
    table: 'order_tallies',
    keys: ['gateway_name', 'service_id'],
    nullableKeys: ['gateway_id'],
    values: ['orders', 'success'],
  },
  { table: 'order_gateway_tallies', keys: ['gateway_name'], values: ['orders', 'success'] },
  { table: 'order_days', keys: ['day'], values: ['orders', 'success'] },
];
