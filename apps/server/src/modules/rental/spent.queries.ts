import type { SpentNumber, SpentReason } from '@simdock/contract';
import type { Queryable, Reader } from '../../db/db.ts';
import { COUNTED_EMPTY_RENTALS, SINCE_RETURN } from './services.queries.ts';

// Spent numbers (the number reuse rule, see RENTABLE_SIMS_SQL): a number is spent for a service by
// its orders for that service (an SMS, or more empty rentals than NUMBER_REUSE_LIMIT allows: derived
// from orders, never stored) or by an admin's mark (number_spent).

/**
 * Per (service, number) with orders: why its orders spent it (`code`, `sms`, `limit`), or null while
 * they did not (still rentable, or open now). The same conditions as RENTABLE_SIMS_SQL, less "open".
 * `$LIMIT` is NUMBER_REUSE_LIMIT. `counted` is how many empty rentals count toward it.
 */
const SPENT_BY_ORDERS = `
  SELECT o.service_id, o.phone_number, count(*)::int AS rentals, max(o.id) AS last_id,
         max(COALESCE(o.finished_at, o.created_at)) AS last_at,
         ${COUNTED_EMPTY_RENTALS}::int AS counted,
         CASE WHEN bool_or(o.code_text IS NOT NULL) THEN 'code'
              WHEN bool_or(o.sms_text IS NOT NULL AND ${SINCE_RETURN}) THEN 'sms'
              WHEN bool_and(o.status = 'CANCEL') AND ${COUNTED_EMPTY_RENTALS} > $LIMIT::int THEN 'limit' END AS reason
    FROM orders o
    LEFT JOIN number_returns nr ON nr.service_id = o.service_id AND nr.phone_number = o.phone_number`;

interface SpentRow {
  phone_number: string;
  reason: SpentReason;
  at: Date;
  rentals: number;
  mark_reason: string | null;
  marked_by: string | null;
  marked_at: Date | null;
  total: number;
}

/**
 * One service's spent numbers, newest first (at most `max`), with the total; `search` keeps numbers
 * containing it, `exact` the one number.
 */
export async function spentNumbers(
  q: Queryable,
  serviceId: string,
  reuseLimit: number,
  f: { search?: string; exact?: string; max: number },
): Promise<{ numbers: SpentNumber[]; total: number }> {
  const rows = await q.query<SpentRow>(
    `WITH derived AS (
       ${SPENT_BY_ORDERS.replace('$LIMIT', '$2')}
        WHERE o.service_id = $1 AND ($3::text IS NULL OR o.phone_number = $3)
          AND ($4::text IS NULL OR strpos(o.phone_number, $4) > 0)
        GROUP BY o.service_id, o.phone_number
     ), marks AS (
       SELECT * FROM number_spent m
        WHERE m.service_id = $1 AND ($3::text IS NULL OR m.phone_number = $3)
          AND ($4::text IS NULL OR strpos(m.phone_number, $4) > 0)
     )
     SELECT COALESCE(d.phone_number, m.phone_number) AS phone_number,
            COALESCE(d.reason, 'admin') AS reason,
            COALESCE(d.last_at, m.created_at) AS at,
            COALESCE(d.rentals, 0) AS rentals,
            m.reason AS mark_reason, m.marked_by_name AS marked_by, m.created_at AS marked_at,
            count(*) OVER ()::int AS total
       FROM (SELECT * FROM derived WHERE reason IS NOT NULL) d
       FULL JOIN marks m ON m.phone_number = d.phone_number
      WHERE d.phone_number IS NOT NULL OR m.phone_number IS NOT NULL
      ORDER BY 3 DESC, 1
      LIMIT $5`,
    [serviceId, reuseLimit, f.exact ?? null, f.search || null, f.max],
  );
  return {
    total: rows[0]?.total ?? 0,
    numbers: rows.map((r) => ({
      phoneNumber: r.phone_number,
      reason: r.reason,
      at: r.at.toISOString(),
      rentals: r.rentals,
      mark:
        r.mark_reason === null
          ? null
          : { reason: r.mark_reason, markedBy: r.marked_by ?? '', markedAt: r.marked_at!.toISOString() },
    })),
  };
}

/**
 * How many numbers are spent, per service that has any, from the pairs' kept state
 * (number_service_state, the same rule as SPENT_BY_ORDERS): those spent whatever the reuse limit
 * are counted ahead (number_spent_counts: a few rows per service), those the limit spends are few
 * (their partial index), and admins' marks add the numbers their orders did not spend.
 */
export async function spentCounts(
  q: Reader,
  reuseLimit: number,
): Promise<{ serviceId: string; spent: number }[]> {
  return q.query(
    `WITH counts AS (
       SELECT service_id, sum(n) AS n FROM number_spent_counts GROUP BY service_id
       UNION ALL
       SELECT service_id, count(*) FROM number_service_state
        WHERE NOT held AND NOT coded AND NOT sms_since_return AND counted > $1::int GROUP BY service_id
       UNION ALL
       SELECT m.service_id, count(*) FROM number_spent m
        WHERE NOT EXISTS (
          SELECT 1 FROM number_service_state st
           WHERE st.service_id = m.service_id AND st.phone_number = m.phone_number
             AND (st.coded OR st.sms_since_return OR (NOT st.held AND st.counted > $1::int)))
        GROUP BY m.service_id
     )
     SELECT c.service_id AS "serviceId", sum(c.n)::int AS spent
       FROM counts c JOIN services s ON s.id = c.service_id
      GROUP BY c.service_id HAVING sum(c.n) > 0`,
    [reuseLimit],
  );
}

/**
 * Folds the appended rows of number_spent_counts into one per service (rows appended meanwhile
 * stay for the next fold; those of deleted services go). Returns how many rows it folded.
 */
export async function foldSpentCounts(q: Queryable): Promise<number> {
  const rows = await q.query<{ folded: number }>(
    `WITH gone AS (
            DELETE FROM number_spent_counts
             WHERE service_id IN (SELECT service_id FROM number_spent_counts GROUP BY 1 HAVING count(*) > 1)
                OR NOT EXISTS (SELECT 1 FROM services s WHERE s.id = number_spent_counts.service_id)
            RETURNING service_id, n),
          kept AS (
            INSERT INTO number_spent_counts (service_id, n)
            SELECT g.service_id, sum(g.n)::int FROM gone g
             WHERE EXISTS (SELECT 1 FROM services s WHERE s.id = g.service_id)
             GROUP BY g.service_id HAVING sum(g.n) <> 0
            RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int - (SELECT count(*) FROM kept)::int AS folded`,
  );
  return rows[0]?.folded ?? 0;
}

export interface SpentMark {
  reason: string;
  marked_by_name: string;
  created_at: Date;
}

export async function findMark(
  q: Queryable,
  serviceId: string,
  phoneNumber: string,
): Promise<SpentMark | undefined> {
  const rows = await q.query<SpentMark>(
    `SELECT reason, marked_by_name, created_at FROM number_spent WHERE service_id = $1 AND phone_number = $2`,
    [serviceId, phoneNumber],
  );
  return rows[0];
}

/** Marks (or marks again, with the new reason, admin and time) a number spent for a service. */
export async function upsertMark(
  q: Queryable,
  m: { serviceId: string; phoneNumber: string; reason: string; byId: string; byName: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO number_spent (service_id, phone_number, reason, marked_by, marked_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (service_id, phone_number) DO UPDATE
       SET reason = EXCLUDED.reason, marked_by = EXCLUDED.marked_by,
           marked_by_name = EXCLUDED.marked_by_name, created_at = EXCLUDED.created_at`,
    [m.serviceId, m.phoneNumber, m.reason, m.byId, m.byName, m.at],
  );
}

/** Removes an admin's mark; returns it, or undefined when there was none. */
export async function deleteMark(
  q: Queryable,
  serviceId: string,
  phoneNumber: string,
): Promise<SpentMark | undefined> {
  const rows = await q.query<SpentMark>(
    `DELETE FROM number_spent WHERE service_id = $1 AND phone_number = $2
     RETURNING reason, marked_by_name, created_at`,
    [serviceId, phoneNumber],
  );
  return rows[0];
}

const RETURN_UPSERT = `ON CONFLICT (service_id, phone_number) DO UPDATE
       SET after_order_id = EXCLUDED.after_order_id, returned_by = EXCLUDED.returned_by,
           returned_by_name = EXCLUDED.returned_by_name, returned_at = EXCLUDED.returned_at`;

/**
 * Returns one number to a service's pool: its orders so far no longer count (the reuse limit, an SMS
 * without a code). The caller checked that none of them got a code.
 */
export async function returnNumber(
  q: Queryable,
  r: { serviceId: string; phoneNumber: string; byId: string; byName: string; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO number_returns (service_id, phone_number, after_order_id, returned_by, returned_by_name, returned_at)
     SELECT $1, $2, COALESCE(max(o.id), 0), $3, $4, $5
       FROM orders o WHERE o.service_id = $1 AND o.phone_number = $2
     ${RETURN_UPSERT}`,
    [r.serviceId, r.phoneNumber, r.byId, r.byName, r.at],
  );
}

/** Returns every number the reuse limit spent for a service to its pool; the numbers, sorted. */
export async function returnNumbersSpentByLimit(
  q: Queryable,
  r: { serviceId: string; reuseLimit: number; byId: string; byName: string; at: Date },
): Promise<string[]> {
  const rows = await q.query<{ phone_number: string }>(
    `WITH derived AS (
       ${SPENT_BY_ORDERS.replace('$LIMIT', '$2')}
        WHERE o.service_id = $1
        GROUP BY o.service_id, o.phone_number
     )
     INSERT INTO number_returns (service_id, phone_number, after_order_id, returned_by, returned_by_name, returned_at)
     SELECT service_id, phone_number, last_id, $3, $4, $5 FROM derived WHERE reason = 'limit'
     ${RETURN_UPSERT}
     RETURNING phone_number`,
    [r.serviceId, r.reuseLimit, r.byId, r.byName, r.at],
  );
  return rows.map((x) => x.phone_number).sort();
}
