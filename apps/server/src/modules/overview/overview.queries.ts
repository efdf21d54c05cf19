import { GATEWAY_ONLINE_MS } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

export interface OverviewRow {
  users: number;
  balance_held: string;
  gateways_total: number;
  gateways_online: number;
  sims: number;
  sims_usable: number;
  orders_today: number;
  orders_today_success: number;
  orders_waiting: number;
  unmatched_sms_24h: number;
}

/** The admin overview's figures in one round trip. SIM states 3, 4 and 15 are usable (isUsableSimState). */
export async function overviewFigures(q: Queryable, now: Date, dayStart: Date): Promise<OverviewRow> {
  const rows = await q.query<OverviewRow>(
    `SELECT (SELECT count(*) FROM users)::int AS users,
            (SELECT COALESCE(sum(balance), 0) FROM users)::text AS balance_held,
            (SELECT count(*) FROM gateways)::int AS gateways_total,
            (SELECT count(*) FROM gateways WHERE last_update >= $1)::int AS gateways_online,
            (SELECT count(*) FROM sims WHERE active AND state <> 0)::int AS sims,
            (SELECT count(*) FROM sims WHERE active AND state IN (3, 4, 15))::int AS sims_usable,
            (SELECT count(*) FROM orders WHERE created_at >= $2)::int AS orders_today,
            (SELECT count(*) FROM orders WHERE created_at >= $2 AND status = 'SUCCESS')::int AS orders_today_success,
            (SELECT count(*) FROM orders WHERE status = 'WAIT_CODE')::int AS orders_waiting,
            (SELECT count(*) FROM incoming_sms WHERE NOT matched AND NOT is_report AND received_at >= $3)::int
              AS unmatched_sms_24h`,
    [new Date(now.getTime() - GATEWAY_ONLINE_MS), dayStart, new Date(now.getTime() - 24 * 3600_000)],
  );
  return rows[0]!;
}
