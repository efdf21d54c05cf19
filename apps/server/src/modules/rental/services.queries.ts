import type { Service } from '@simdock/contract';
import type { Queryable, Reader } from '../../db/db.ts';
import type { UsableSim } from '../gateways/index.ts';

export interface ServiceRow {
  id: string;
  name: string;
  code: string;
  description: string;
  /** Exact decimal text. */
  price: string;
  stock: number;
  pattern: string;
  text_contains: string;
  rent_time_minutes: number;
  is_repeatable: boolean;
  is_enable: boolean;
}

const SERVICE_COLUMNS = `s.id, s.name, s.code, s.description, s.price::text AS price, s.stock, s.pattern,
  s.text_contains, s.rent_time_minutes, s.is_repeatable, s.is_enable`;

/**
 * Over the orders `o` of one (number, service) pair LEFT JOINed to its number_returns row `nr`:
 * whether an order came after the admin last returned the number to the pool (orders before do not
 * count toward the limit, nor does their SMS without a code).
 */
export const SINCE_RETURN = '(nr.after_order_id IS NULL OR o.id > nr.after_order_id)';

/**
 * The empty rentals of a pair that count toward NUMBER_REUSE_LIMIT (since the last return): every
 * expired one, and at most one cancellation per user. A renter's own cancellations cannot spend a
 * number for everyone (renting and cancelling it again and again counts once), while a number that
 * several people found useless and cancelled still leaves the pool.
 */
export const COUNTED_EMPTY_RENTALS = `(
  count(*) FILTER (WHERE ${SINCE_RETURN} AND o.status = 'CANCEL' AND NOT o.cancelled_by_user)
  + count(DISTINCT o.user_id) FILTER (WHERE ${SINCE_RETURN} AND o.status = 'CANCEL' AND o.cancelled_by_user))`;

/**
 * Whether SIM `$X` (a row with id and role) has role Both and holds no rental now: such a SIM counts
 * toward the SIMs kept for sending; a SIM that holds one (for any service) sends nothing anyway
 * (simsInOpenRentals: the same "open"), so renting it for another service costs the share nothing.
 * Reads through orders_sim_open. Without SIMs kept it is false at once (nothing to count).
 */
const FREE_BOTH = `($KEPT > 0 AND $X.role = 'both' AND NOT EXISTS (
    SELECT 1 FROM orders h JOIN services hs ON hs.id = h.service_id
     WHERE h.sim_id = $X.id AND h.status IN ('WAIT_CODE', 'SUCCESS') AND h.closed_at IS NULL
       AND (h.status = 'WAIT_CODE' OR (hs.is_repeatable AND h.expires_at > $NOW))))`;

/**
 * The SIMs a rent may pick for a service: from the gateways' usable SIMs (passed in as JSON), those
 * whose number is not spent for this service and has no open order for it. Shared by the
 * availability count and by the rent itself so they can never disagree. `$SIMS` is the jsonb
 * parameter, `$SERVICE` the service id, `$LIMIT` NUMBER_REUSE_LIMIT.
 *
 * The number reuse rule: a number is rentable for a service while no order of it for that service
 * is open or got a code (status other than CANCEL), no order since the admin last returned it
 * (number_returns) received the service's SMS, at most `$LIMIT` empty rentals since then count
 * (COUNTED_EMPTY_RENTALS: expired ones, one cancellation per user), the newest order ended before
 * `$FREE_BEFORE` (now minus NUMBER_REUSE_COOLDOWN_MINUTES: a service's SMS that comes late for the
 * earlier rental must not reach the next renter), and no admin marked it spent (number_spent).
 * The orders of a pair are read through orders_number_service; number_spent and number_returns by
 * their primary keys. `free_both` says whether taking the SIM uses up one of the free SIMs with role
 * Both (FREE_BOTH): the sending share (SPARE_BOTH_SQL) limits those.
 */
export const RENTABLE_SIMS_SQL = `
  SELECT sim.id, sim.gateway_id, sim.port, sim.number, sim.gateway_name, sim.role,
         ${FREE_BOTH.replaceAll('$X', 'sim')} AS free_both
    FROM jsonb_to_recordset($SIMS::jsonb)
         AS sim(id uuid, gateway_id uuid, port text, number text, gateway_name text, role text)
   WHERE NOT EXISTS (
     SELECT 1 FROM orders o
       LEFT JOIN number_returns nr ON nr.service_id = $SERVICE AND nr.phone_number = sim.number
      WHERE o.phone_number = sim.number AND o.service_id = $SERVICE
     HAVING bool_or(o.status <> 'CANCEL')
         OR bool_or(o.sms_text IS NOT NULL AND ${SINCE_RETURN})
         OR ${COUNTED_EMPTY_RENTALS} > $LIMIT
         OR max(o.finished_at) > $FREE_BEFORE
   )
     AND NOT EXISTS (
     SELECT 1 FROM number_spent ns WHERE ns.service_id = $SERVICE AND ns.phone_number = sim.number
   )`;

/**
 * How many more free SIMs with role Both rents may take now, over the usable SIMs `$SIMS`: those
 * free beyond the SIMs kept for sending (`$KEPT`), never below 0.
 */
export const SPARE_BOTH_SQL = `(SELECT GREATEST(0, count(*) - $KEPT)
    FROM jsonb_to_recordset($SIMS::jsonb) AS s(id uuid, role text) WHERE ${FREE_BOTH.replaceAll('$X', 's')})`;

/** The reuse rule's settings (and the sending share) at the moment of a rent or count. */
export interface ReuseRule {
  /** NUMBER_REUSE_LIMIT. */
  limit: number;
  /** Empty rentals that ended after this still hold their number (now − the cooldown). */
  freeBefore: Date;
  now: Date;
  /** SIMs kept for sending: free SIMs with role Both rents leave alone. */
  keptForSending: number;
}

/** The positions of a ReuseRule's parameters in a statement. */
export interface RuleParams {
  limit: string;
  freeBefore: string;
  now: string;
  kept: string;
}

const withRule = (sql: string, simsParam: string, p: RuleParams) =>
  sql
    .replaceAll('$SIMS', simsParam)
    .replaceAll('$LIMIT', `${p.limit}::int`)
    .replaceAll('$FREE_BEFORE', `${p.freeBefore}::timestamptz`)
    .replaceAll('$NOW', `${p.now}::timestamptz`)
    .replaceAll('$KEPT', `${p.kept}::int`);

/** RENTABLE_SIMS_SQL with its parameters. */
export function rentableSql(serviceRef: string, simsParam: string, p: RuleParams) {
  return withRule(RENTABLE_SIMS_SQL.replaceAll('$SERVICE', serviceRef), simsParam, p);
}

/** SPARE_BOTH_SQL with its parameters. */
export function spareBothSql(simsParam: string, p: RuleParams) {
  return withRule(SPARE_BOTH_SQL, simsParam, p);
}

/** The rule's values in RuleParams order: limit, freeBefore, now, kept. */
export const ruleValues = (rule: ReuseRule) => [rule.limit, rule.freeBefore, rule.now, rule.keptForSending];

/** Whether a pair's kept state `$P` keeps its number from a rent (RENTABLE_SIMS_SQL's HAVING). */
const HELD = '($P.held OR $P.sms_since_return OR $P.counted > $LIMIT OR $P.free_after > $FREE_BEFORE)';

/** Rule parameters from $4 on. */
const P4: RuleParams = { limit: '$4', freeBefore: '$5', now: '$6', kept: '$7' };

/**
 * Services (all, or the one with `onlyId`) with live `available` = min(stock − open orders, rentable
 * SIMs), where the rentable SIMs that are free with role Both count at most up to the spare ones
 * beyond the SIMs kept for sending: exactly what rents could take. The rentable SIMs of a service
 * are the usable ones less those whose number its pair state (number_service_state: the same rule
 * as RENTABLE_SIMS_SQL, kept from the orders) or an admin's mark holds: one read of the usable
 * numbers' pairs for every service, instead of every pair's orders per service and SIM.
 */
export async function listServices(
  q: Reader,
  sims: UsableSim[],
  onlyEnabled: boolean,
  rule: ReuseRule,
  onlyId?: string,
  allSims?: UsableSim[],
): Promise<Service[]> {
  const rows = await q.query<ServiceRow & { available: number }>(
    withRule(
      `WITH busy AS MATERIALIZED (
         -- The SIMs that hold a rental now (FREE_BOTH's "open"), found once for all SIMs, only when
         -- SIMs are kept for sending: waiting orders, and repeatable ones with a code in their window.
         SELECT h.sim_id FROM orders h WHERE $KEPT > 0 AND h.status = 'WAIT_CODE'
         UNION
         SELECT h.sim_id FROM orders h JOIN services hs ON hs.id = h.service_id
          WHERE $KEPT > 0 AND h.status = 'SUCCESS' AND h.expires_at > $NOW AND hs.is_repeatable
       ), sim AS MATERIALIZED (
         SELECT sim.id, sim.number,
                ($KEPT > 0 AND sim.role = 'both' AND sim.id NOT IN (SELECT sim_id FROM busy WHERE sim_id IS NOT NULL))
                  AS free_both
           FROM jsonb_to_recordset($SIMS::jsonb) AS sim(id uuid, number text, role text)
       ), every_sim AS MATERIALIZED (
         -- The share kept for sending is the whole pool's: SIMs of one country take what is spare
         -- among all of them (the same SIMs as above when no country is asked for).
         SELECT ($KEPT > 0 AND s.role = 'both' AND s.id NOT IN (SELECT sim_id FROM busy WHERE sim_id IS NOT NULL))
                  AS free_both
           FROM jsonb_to_recordset(coalesce($8::jsonb, $1::jsonb)) AS s(id uuid, role text)
       ), totals AS (
         SELECT count(*) FILTER (WHERE NOT free_both) AS plain,
                count(*) FILTER (WHERE free_both) AS both,
                (SELECT GREATEST(0, count(*) FILTER (WHERE free_both) - $KEPT) FROM every_sim) AS spare
           FROM sim
       ), held AS (
         SELECT st.service_id, st.phone_number FROM number_service_state st
          WHERE st.phone_number IN (SELECT number FROM sim) AND ${HELD.replaceAll('$P', 'st')}
         UNION ALL
         SELECT ns.service_id, ns.phone_number FROM number_spent ns
          WHERE ns.phone_number IN (SELECT number FROM sim)
            AND NOT EXISTS (
              SELECT 1 FROM number_service_state st
               WHERE st.service_id = ns.service_id AND st.phone_number = ns.phone_number
                 AND ${HELD.replaceAll('$P', 'st')})
       ), held_sims AS (
         SELECT h.service_id, count(*) FILTER (WHERE NOT sim.free_both) AS plain,
                count(*) FILTER (WHERE sim.free_both) AS both
           FROM held h JOIN sim ON sim.number = h.phone_number
          GROUP BY h.service_id
       )
       SELECT ${SERVICE_COLUMNS},
              GREATEST(0, LEAST(
                s.stock - (SELECT count(*) FROM orders o WHERE o.service_id = s.id AND o.status = 'WAIT_CODE'),
                (t.plain - COALESCE(h.plain, 0)) + LEAST(t.both - COALESCE(h.both, 0), t.spare)
              ))::int AS available
         FROM services s CROSS JOIN totals t LEFT JOIN held_sims h ON h.service_id = s.id
        WHERE ($2::boolean = false OR s.is_enable) AND ($3::uuid IS NULL OR s.id = $3::uuid)
        ORDER BY s.name`,
      '$1',
      P4,
    ),
    [
      JSON.stringify(sims),
      onlyEnabled,
      onlyId ?? null,
      ...ruleValues(rule),
      allSims ? JSON.stringify(allSims.map((x) => ({ id: x.id, role: x.role }))) : null,
    ],
  );
  return rows.map((r) => ({ ...toService(r), available: r.available }));
}

export function toService(r: ServiceRow): Omit<Service, 'available'> {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    description: r.description,
    price: Number(r.price),
    stock: r.stock,
    pattern: r.pattern,
    textContains: r.text_contains,
    rentTimeMinutes: r.rent_time_minutes,
    isRepeatable: r.is_repeatable,
    isEnable: r.is_enable,
  };
}

export async function findServiceByCode(q: Queryable, code: string): Promise<ServiceRow | undefined> {
  return (
    await q.query<ServiceRow>(`SELECT ${SERVICE_COLUMNS} FROM services s WHERE s.code = $1`, [code])
  )[0];
}

export async function findServiceById(q: Queryable, id: string): Promise<ServiceRow | undefined> {
  return (await q.query<ServiceRow>(`SELECT ${SERVICE_COLUMNS} FROM services s WHERE s.id = $1`, [id]))[0];
}

export interface ServiceValues {
  name: string;
  code: string;
  description: string;
  price: number;
  stock: number;
  pattern: string;
  textContains: string;
  rentTimeMinutes: number;
  isRepeatable: boolean;
  isEnable: boolean;
}

const VALUES = (v: ServiceValues) => [
  v.name,
  v.code,
  v.description,
  String(v.price),
  v.stock,
  v.pattern,
  v.textContains,
  v.rentTimeMinutes,
  v.isRepeatable,
  v.isEnable,
];

/** Inserts; undefined when the code is taken. */
export async function insertService(q: Queryable, v: ServiceValues): Promise<ServiceRow | undefined> {
  const rows = await q.query<ServiceRow>(
    `INSERT INTO services AS s (name, code, description, price, stock, pattern, text_contains, rent_time_minutes,
                                is_repeatable, is_enable)
     VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (code) DO NOTHING RETURNING ${SERVICE_COLUMNS}`,
    VALUES(v),
  );
  return rows[0];
}

export async function updateService(
  q: Queryable,
  id: string,
  v: ServiceValues,
): Promise<ServiceRow | undefined> {
  const rows = await q.query<ServiceRow>(
    `UPDATE services s SET name = $1, code = $2, description = $3, price = $4::numeric, stock = $5, pattern = $6,
            text_contains = $7, rent_time_minutes = $8, is_repeatable = $9, is_enable = $10
      WHERE s.id = $11 RETURNING ${SERVICE_COLUMNS}`,
    [...VALUES(v), id],
  );
  return rows[0];
}

export async function codeTakenByOther(q: Queryable, code: string, id: string | undefined): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM services WHERE code = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)',
    [code, id ?? null],
  );
  return rows.length > 0;
}

/** Deletes a service that has no orders; returns 'deleted', 'missing' or 'has_orders'. */
export async function deleteService(q: Queryable, id: string): Promise<'deleted' | 'missing' | 'has_orders'> {
  const rows = await q.query<{ outcome: string }>(
    `WITH target AS (SELECT id FROM services WHERE id = $1),
          used AS (SELECT 1 FROM orders WHERE service_id = $1 LIMIT 1),
          gone AS (DELETE FROM services WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM used) RETURNING id)
     SELECT CASE WHEN EXISTS (SELECT 1 FROM gone) THEN 'deleted'
                 WHEN NOT EXISTS (SELECT 1 FROM target) THEN 'missing'
                 ELSE 'has_orders' END AS outcome`,
    [id],
  );
  return rows[0]!.outcome as 'deleted' | 'missing' | 'has_orders';
}
