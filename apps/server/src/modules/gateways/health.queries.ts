import type { SimLockKind, SimRole } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

// SIM health: per-SIM counters (UTC day and month), locks, roles and the SIM settings.

/** The UTC day and the first day of its month, as the date columns hold them. */
export function periods(at: Date): { day: string; month: string } {
  const day = at.toISOString().slice(0, 10);
  return { day, month: `${day.slice(0, 7)}-01` };
}

/**
 * SQL of a SIM's health, for a query that joins `sim_health h` (left) and `sim_settings st` and
 * passes the UTC day, its month and now as the parameters named here.
 */
export function healthSql(p: { day: string; month: string; now: string }) {
  const sentToday = `CASE WHEN h.sent_day = ${p.day}::date THEN h.sent_today ELSE 0 END`;
  const sentMonth = `CASE WHEN h.sent_month = ${p.month}::date THEN h.sent_this_month ELSE 0 END`;
  const locked = `coalesce(h.locked_at IS NOT NULL AND (h.locked_until IS NULL OR h.locked_until > ${p.now}::timestamptz), false)`;
  const atDayCap = `(st.max_sms_per_day > 0 AND coalesce(${sentToday}, 0) >= st.max_sms_per_day)`;
  const atMonthCap = `(st.max_sms_per_month > 0 AND coalesce(${sentMonth}, 0) >= st.max_sms_per_month)`;
  return {
    sentToday: `coalesce(${sentToday}, 0)`,
    sentMonth: `coalesce(${sentMonth}, 0)`,
    locked,
    atCap: `CASE WHEN ${atDayCap} THEN 'day' WHEN ${atMonthCap} THEN 'month' END`,
    /** Messages the SIM may still send in this day and month; null without caps. */
    remaining: `least(
      CASE WHEN st.max_sms_per_day > 0 THEN st.max_sms_per_day - coalesce(${sentToday}, 0) END,
      CASE WHEN st.max_sms_per_month > 0 THEN st.max_sms_per_month - coalesce(${sentMonth}, 0) END)`,
    rentalsToday: `coalesce(CASE WHEN h.rentals_day = ${p.day}::date THEN h.rentals_today ELSE 0 END, 0)`,
  };
}

// ---- settings -----------------------------------------------------------------------------------

export interface SimSettingsRow {
  max_sms_per_day: number;
  max_sms_per_month: number;
  lock_after_failures: number;
  cooldown_minutes: number;
  kept_for_sending_percent: number;
}

const SETTINGS_COLUMNS =
  'max_sms_per_day, max_sms_per_month, lock_after_failures, cooldown_minutes, kept_for_sending_percent';

export async function readSimSettings(q: Queryable): Promise<SimSettingsRow> {
  const rows = await q.query<SimSettingsRow>(`SELECT ${SETTINGS_COLUMNS} FROM sim_settings WHERE id`);
  return (
    rows[0] ?? {
      max_sms_per_day: 0,
      max_sms_per_month: 0,
      lock_after_failures: 5,
      cooldown_minutes: 60,
      kept_for_sending_percent: 20,
    }
  );
}

/** Locks the row for the caller's transaction (an audited change reads "before" consistently). */
export async function readSimSettingsForUpdate(q: Queryable): Promise<SimSettingsRow> {
  const rows = await q.query<SimSettingsRow>(
    `SELECT ${SETTINGS_COLUMNS} FROM sim_settings WHERE id FOR UPDATE`,
  );
  return rows[0]!;
}

export async function writeSimSettings(q: Queryable, s: SimSettingsRow): Promise<SimSettingsRow> {
  const rows = await q.query<SimSettingsRow>(
    `UPDATE sim_settings SET max_sms_per_day = $1, max_sms_per_month = $2, lock_after_failures = $3,
            cooldown_minutes = $4, kept_for_sending_percent = $5
      WHERE id RETURNING ${SETTINGS_COLUMNS}`,
    [
      s.max_sms_per_day,
      s.max_sms_per_month,
      s.lock_after_failures,
      s.cooldown_minutes,
      s.kept_for_sending_percent,
    ],
  );
  return rows[0]!;
}

// ---- counters -------------------------------------------------------------------------------------

/** What happened to one SIM's sends in one batch of results. */
export interface SimOutcome {
  simId: string;
  /** Accepted by the device. */
  sent: number;
  /** Reported delivered by the device: resets the consecutive failures. */
  delivered: number;
  /** Failed for any reason. */
  failed: number;
  /** Failures that mean this SIM cannot send (they count towards the lock). */
  simFailures: number;
}

/**
 * Adds a batch of outcomes (one row per SIM), then locks the SIMs whose consecutive failures
 * reached SimLockAfterFailures with this batch; returns those locked now. A success resets the
 * count (a batch with both counts as ending in success).
 */
export async function recordOutcomes(
  q: Queryable,
  outcomes: SimOutcome[],
  at: Date,
): Promise<{ sim_id: string; lock_reason: string }[]> {
  if (outcomes.length === 0) return [];
  const { day, month } = periods(at);
  const rows = outcomes
    .map((o) => ({
      sim_id: o.simId,
      sent: o.sent,
      delivered: o.delivered,
      failed: o.failed,
      sim_failures: o.simFailures,
    }))
    .sort((a, b) => (a.sim_id < b.sim_id ? -1 : a.sim_id > b.sim_id ? 1 : 0));
  await q.query(
    `INSERT INTO sim_health AS h
       (sim_id, sent_day, sent_today, sent_month, sent_this_month, failed_total, consecutive_failures, last_success_at)
     SELECT a.sim_id, $2::date, a.sent, $3::date, a.sent, a.failed,
            CASE WHEN a.delivered > 0 THEN 0 ELSE a.sim_failures END,
            CASE WHEN a.delivered > 0 THEN $4::timestamptz END
       FROM jsonb_to_recordset($1::jsonb) AS a(sim_id uuid, sent int, delivered int, failed int, sim_failures int)
      WHERE EXISTS (SELECT 1 FROM sims WHERE sims.id = a.sim_id)
      ORDER BY a.sim_id
     ON CONFLICT (sim_id) DO UPDATE SET
       sent_today = CASE WHEN h.sent_day = EXCLUDED.sent_day THEN h.sent_today ELSE 0 END + EXCLUDED.sent_today,
       sent_day = EXCLUDED.sent_day,
       sent_this_month = CASE WHEN h.sent_month = EXCLUDED.sent_month THEN h.sent_this_month ELSE 0 END
                         + EXCLUDED.sent_this_month,
       sent_month = EXCLUDED.sent_month,
       failed_total = h.failed_total + EXCLUDED.failed_total,
       consecutive_failures = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN 0
                                   ELSE h.consecutive_failures + EXCLUDED.consecutive_failures END,
       last_success_at = coalesce(EXCLUDED.last_success_at, h.last_success_at)`,
    [JSON.stringify(rows), day, month, at],
  );
  const failing = rows.filter((r) => r.sim_failures > 0 && r.delivered === 0).map((r) => r.sim_id);
  if (failing.length === 0) return [];
  return q.query<{ sim_id: string; lock_reason: string }>(
    `UPDATE sim_health h SET locked_at = $2, lock_kind = 'auto',
            lock_reason = h.consecutive_failures || ' failed sends in a row',
            locked_until = CASE WHEN st.cooldown_minutes > 0
                                THEN $2::timestamptz + st.cooldown_minutes * interval '1 minute' END,
            locked_by = NULL
       FROM sim_settings st
      WHERE st.id AND h.sim_id = ANY($1::uuid[]) AND st.lock_after_failures > 0
        AND h.consecutive_failures >= st.lock_after_failures
        AND NOT (h.locked_at IS NOT NULL AND (h.locked_until IS NULL OR h.locked_until > $2::timestamptz))
      RETURNING h.sim_id::text AS sim_id, h.lock_reason`,
    [failing, at],
  );
}

/** One more rental of this SIM today (called by rental inside the renting transaction). */
export async function countRental(q: Queryable, simId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO sim_health AS h (sim_id, rentals_day, rentals_today) VALUES ($1, $2::date, 1)
     ON CONFLICT (sim_id) DO UPDATE SET
       rentals_today = CASE WHEN h.rentals_day = EXCLUDED.rentals_day THEN h.rentals_today + 1 ELSE 1 END,
       rentals_day = EXCLUDED.rentals_day`,
    [simId, periods(at).day],
  );
}

// ---- locks ------------------------------------------------------------------------------------------

/**
 * The device's view: SIMs it reports blocked are locked (kind `device`, until it recovers; a
 * manual lock is left as it is); a device lock whose SIM is usable again ends after the cooldown
 * (with cooldown 0 it stays until an admin unlocks it). Returns the SIMs locked by this report.
 */
export async function applyDeviceStates(
  q: Queryable,
  gatewayId: string,
  blocked: { port: string; reason: string }[],
  usablePorts: string[],
  at: Date,
): Promise<{ sim_id: string; port: string }[]> {
  let locked: { sim_id: string; port: string }[] = [];
  if (blocked.length > 0) {
    locked = await q.query<{ sim_id: string; port: string }>(
      `WITH b AS (
         SELECT s.id, s.port, e.reason FROM jsonb_to_recordset($2::jsonb) AS e(port text, reason text)
           JOIN sims s ON s.gateway_id = $1 AND s.port = e.port ORDER BY s.id
       ), up AS (
         INSERT INTO sim_health AS h (sim_id, locked_at, lock_kind, lock_reason)
         SELECT id, $3, 'device', reason FROM b
         ON CONFLICT (sim_id) DO UPDATE SET
           locked_at = CASE WHEN h.lock_kind = 'device' AND h.locked_at IS NOT NULL THEN h.locked_at
                            ELSE EXCLUDED.locked_at END,
           lock_kind = 'device', lock_reason = EXCLUDED.lock_reason, locked_until = NULL, locked_by = NULL
         WHERE NOT (h.lock_kind = 'manual' AND h.locked_at IS NOT NULL
                    AND (h.locked_until IS NULL OR h.locked_until > EXCLUDED.locked_at))
           AND NOT (h.lock_kind = 'device' AND h.locked_at IS NOT NULL AND h.locked_until IS NULL
                    AND h.lock_reason = EXCLUDED.lock_reason)
         RETURNING h.sim_id
       )
       SELECT up.sim_id::text AS sim_id, b.port FROM up JOIN b ON b.id = up.sim_id`,
      [gatewayId, JSON.stringify(blocked), at],
    );
  }
  if (usablePorts.length > 0) {
    await q.query(
      `UPDATE sim_health h SET locked_until = CASE WHEN st.cooldown_minutes > 0
                 THEN $3::timestamptz + st.cooldown_minutes * interval '1 minute' END,
              lock_reason = h.lock_reason || ' (recovered; cooling down)'
         FROM sims s, sim_settings st
        WHERE st.id AND s.id = h.sim_id AND s.gateway_id = $1 AND s.port = ANY($2::text[])
          AND h.lock_kind = 'device' AND h.locked_at IS NOT NULL AND h.locked_until IS NULL
          AND st.cooldown_minutes > 0`,
      [gatewayId, usablePorts, at],
    );
  }
  return locked;
}

export async function lockSim(
  q: Queryable,
  simId: string,
  lock: { kind: SimLockKind; reason: string; until: Date | null; by: string | null; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO sim_health AS h (sim_id, locked_at, lock_kind, lock_reason, locked_until, locked_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (sim_id) DO UPDATE SET locked_at = EXCLUDED.locked_at, lock_kind = EXCLUDED.lock_kind,
       lock_reason = EXCLUDED.lock_reason, locked_until = EXCLUDED.locked_until, locked_by = EXCLUDED.locked_by`,
    [simId, lock.at, lock.kind, lock.reason, lock.until, lock.by],
  );
}

/** Ends any lock; the failure count restarts so the SIM gets SimLockAfterFailures fresh tries. */
export async function unlockSim(q: Queryable, simId: string): Promise<void> {
  await q.query(
    `UPDATE sim_health SET locked_at = NULL, lock_kind = NULL, lock_reason = NULL, locked_until = NULL,
            locked_by = NULL, consecutive_failures = 0
      WHERE sim_id = $1`,
    [simId],
  );
}

export async function setSimRole(q: Queryable, simId: string, role: SimRole): Promise<void> {
  await q.query('UPDATE sims SET role = $2 WHERE id = $1', [simId, role]);
}

/** SIMs locked at `now` (the overview and the metrics gauge). */
export async function lockedSimCount(q: Queryable, now: Date): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sim_health
      WHERE locked_at IS NOT NULL AND (locked_until IS NULL OR locked_until > $1)`,
    [now],
  );
  return rows[0]?.n ?? 0;
}

// ---- uptime -----------------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;

/**
 * One sample per enabled gateway for this minute, and the same samples added to the gateway's
 * hour in gateway_uptime_hourly, in one statement: a second sampler in the same minute inserts
 * nothing and so adds nothing to the hour. Rows are taken in gateway order (no deadlock between
 * samplers of several processes).
 */
export async function recordUptime(q: Queryable, minute: Date, onlineSince: Date): Promise<number> {
  const hour = new Date(Math.floor(minute.getTime() / HOUR_MS) * HOUR_MS);
  const rows = await q.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO gateway_uptime (gateway_id, minute, online)
       SELECT id, $1, coalesce(last_update >= $2, false) FROM gateways WHERE is_enable ORDER BY id
       ON CONFLICT DO NOTHING RETURNING gateway_id, online
     ), roll AS (
       INSERT INTO gateway_uptime_hourly AS h (gateway_id, hour, samples, online)
       SELECT gateway_id, $3, count(*), count(*) FILTER (WHERE online) FROM ins GROUP BY gateway_id
        ORDER BY gateway_id
       ON CONFLICT (gateway_id, hour) DO UPDATE
         SET samples = h.samples + EXCLUDED.samples, online = h.online + EXCLUDED.online
     )
     SELECT count(*)::int AS n FROM ins`,
    [minute, onlineSince, hour],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Share of sampled gateway-minutes that were online since `since`; null without samples. Whole
 * hours come from gateway_uptime_hourly, the partial first hour from the samples themselves
 * (gateway_uptime_minute), so the figure is the one the samples give and its cost does not grow
 * with the history kept.
 */
export async function uptimeShare(q: Queryable, since: Date): Promise<number | null> {
  const firstWhole = new Date(Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS);
  const rows = await q.query<{ samples: string; online: string }>(
    `SELECT coalesce(sum(samples), 0)::text AS samples, coalesce(sum(online), 0)::text AS online FROM (
       SELECT samples, online FROM gateway_uptime_hourly WHERE hour >= $2
       UNION ALL
       SELECT count(*), count(*) FILTER (WHERE online) FROM gateway_uptime WHERE minute >= $1 AND minute < $2
     ) parts`,
    [since, firstWhole],
  );
  const samples = Number(rows[0]?.samples ?? 0);
  return samples === 0 ? null : Number(rows[0]!.online) / samples;
}

/**
 * Deletes at most `batch` uptime samples older than `before`, the oldest of each gateway first
 * (read through the primary key per gateway: no index on the minute alone, which every sample
 * would have to update).
 */
export async function pruneUptimeSamples(q: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH old AS (
       SELECT g.id AS gateway_id, x.minute FROM gateways g
        CROSS JOIN LATERAL (
          SELECT minute FROM gateway_uptime u WHERE u.gateway_id = g.id AND u.minute < $1
           ORDER BY minute LIMIT $2
        ) x
        LIMIT $2
     ), gone AS (
       DELETE FROM gateway_uptime u USING old
        WHERE u.gateway_id = old.gateway_id AND u.minute = old.minute RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes at most `batch` hourly uptime rows of hours before `before`. */
export async function pruneUptimeHours(q: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH old AS (
       SELECT gateway_id, hour FROM gateway_uptime_hourly WHERE hour < $1 ORDER BY hour LIMIT $2
     ), gone AS (
       DELETE FROM gateway_uptime_hourly h USING old
        WHERE h.gateway_id = old.gateway_id AND h.hour = old.hour RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}
