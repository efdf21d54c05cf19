import { type SimRole, type SimState, USABLE_SIM_STATES } from '@simdock/contract';
import type { Queryable, Reader } from '../../db/db.ts';
import { deleteOlderThan } from '../../db/retention.ts';
import type { DeviceStatus, SimEntry } from './driver/driver.ts';
import { healthSql, periods } from './health.queries.ts';

/** A gateway as the API needs it; the sealed password stays out (see findGatewayCredentials). */
export interface GatewayRow {
  id: string;
  name: string;
  url: string;
  /** A box's MAC; null for a phone. */
  mac: string | null;
  user_name: string;
  is_enable: boolean;
  push_secret: string;
  total_sim: number;
  last_update: Date | null;
  max_ports: number | null;
  max_slots: number | null;
  driver: string;
  mode: string | null;
  /** The device's own id in its protocol (a box's MAC, a phone's SMSGate id); null until known. */
  external_id: string | null;
  model: string | null;
  has_signing_key: boolean;
  /** A GoIP box's web account (its password stays sealed: has_web_password says whether one is stored). */
  web_user: string | null;
  has_web_password: boolean;
}

const GATEWAY_COLUMNS =
  'id, name, url, mac, user_name, is_enable, push_secret, total_sim, last_update, max_ports, max_slots, ' +
  'driver, mode, external_id, model, signing_key_enc IS NOT NULL AS has_signing_key, web_user, ' +
  'web_password_enc IS NOT NULL AS has_web_password';

export interface GatewayCredentials {
  id: string;
  url: string;
  user_name: string;
  password_enc: string;
  driver: string;
  mode: string | null;
  external_id: string | null;
  signing_key_enc: string | null;
  web_user: string | null;
  web_password_enc: string | null;
  max_slots: number | null;
  sms_ssrc: string | null;
  sms_next_id: number;
}

const CREDENTIAL_COLUMNS =
  'id, url, user_name, password_enc, driver, mode, external_id, signing_key_enc, web_user, web_password_enc, ' +
  'max_slots, sms_ssrc, sms_next_id';

export async function listGatewayRows(q: Queryable): Promise<GatewayRow[]> {
  return q.query<GatewayRow>(`SELECT ${GATEWAY_COLUMNS} FROM gateways ORDER BY created_at, name`);
}

export async function findGatewayRow(q: Queryable, id: string): Promise<GatewayRow | undefined> {
  return (await q.query<GatewayRow>(`SELECT ${GATEWAY_COLUMNS} FROM gateways WHERE id = $1`, [id]))[0];
}

export async function findGatewayRowByMac(q: Queryable, mac: string): Promise<GatewayRow | undefined> {
  return (await q.query<GatewayRow>(`SELECT ${GATEWAY_COLUMNS} FROM gateways WHERE mac = $1`, [mac]))[0];
}

export async function findGatewayRowByDevice(
  q: Queryable,
  driver: string,
  externalId: string,
): Promise<GatewayRow | undefined> {
  return (
    await q.query<GatewayRow>(
      `SELECT ${GATEWAY_COLUMNS} FROM gateways WHERE driver = $1 AND external_id = $2`,
      [driver, externalId],
    )
  )[0];
}

export async function findGatewayCredentials(
  q: Queryable,
  id: string,
): Promise<GatewayCredentials | undefined> {
  return (
    await q.query<GatewayCredentials>(`SELECT ${CREDENTIAL_COLUMNS} FROM gateways WHERE id = $1`, [id])
  )[0];
}

export interface GatewayFields {
  name: string;
  url: string;
  mac: string | null;
  userName: string;
  isEnable: boolean;
  /** Null keeps the stored one (or, for a box, follows the MAC). */
  externalId: string | null;
  mode: string | null;
  /** A GoIP box's web login (null or absent: none). */
  webUser?: string | null;
}

/** Undefined when (driver, external id) is taken (a box's MAC, a phone's device id). */
export async function insertGateway(
  q: Queryable,
  g: GatewayFields & {
    driver: string;
    passwordEnc: string;
    signingKeyEnc: string | null;
    webPasswordEnc?: string | null;
    pushSecret: string;
    createdAt: Date;
  },
): Promise<GatewayRow | undefined> {
  const rows = await q.query<GatewayRow>(
    `INSERT INTO gateways (name, url, mac, user_name, password_enc, is_enable, push_secret, created_at,
                           driver, external_id, mode, signing_key_enc, web_user, web_password_enc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (driver, external_id) DO NOTHING RETURNING ${GATEWAY_COLUMNS}`,
    [
      g.name,
      g.url,
      g.mac,
      g.userName,
      g.passwordEnc,
      g.isEnable,
      g.pushSecret,
      g.createdAt,
      g.driver,
      g.externalId,
      g.mode,
      g.signingKeyEnc,
      g.webUser ?? null,
      g.webPasswordEnc ?? null,
    ],
  );
  return rows[0];
}

/** Null secrets keep the stored ones. Throws the unique violation on a taken device id. */
export async function updateGatewayRow(
  q: Queryable,
  id: string,
  g: GatewayFields & {
    passwordEnc: string | null;
    signingKeyEnc: string | null;
    webPasswordEnc: string | null;
  },
): Promise<GatewayRow | undefined> {
  const rows = await q.query<GatewayRow>(
    `UPDATE gateways SET name = $2, url = $3, mac = $4, user_name = $5, is_enable = $6,
            password_enc = coalesce($7, password_enc), external_id = coalesce($8, external_id),
            mode = $9, signing_key_enc = coalesce($10, signing_key_enc), web_user = $11,
            web_password_enc = coalesce($12, web_password_enc)
      WHERE id = $1 RETURNING ${GATEWAY_COLUMNS}`,
    [
      id,
      g.name,
      g.url,
      g.mac,
      g.userName,
      g.isEnable,
      g.passwordEnc,
      g.externalId,
      g.mode,
      g.signingKeyEnc,
      g.webUser ?? null,
      g.webPasswordEnc ?? null,
    ],
  );
  return rows[0];
}

/** Whether another gateway of this driver is the device `externalId`. */
export async function deviceTakenByOther(
  q: Queryable,
  driver: string,
  externalId: string,
  id: string | null,
): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM gateways WHERE driver = $1 AND external_id = $2 AND id IS DISTINCT FROM $3',
    [driver, externalId, id],
  );
  return rows.length > 0;
}

/** A Scan learned the device's id (a phone added without one); false when another gateway has it. */
export async function learnExternalId(q: Queryable, id: string, externalId: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE gateways SET external_id = $2
      WHERE id = $1 AND NOT EXISTS (
        SELECT 1 FROM gateways o WHERE o.driver = gateways.driver AND o.external_id = $2 AND o.id <> $1)
      RETURNING id`,
    [id, externalId],
  );
  return rows.length > 0;
}

export async function deleteGatewayRow(q: Queryable, id: string): Promise<boolean> {
  return (await q.query('DELETE FROM gateways WHERE id = $1 RETURNING id', [id])).length > 0;
}

const TOUCH = 'UPDATE gateways SET last_update = $2 WHERE id = $1';

export async function touchGateway(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query(TOUCH, [id, at]);
}

/** lastUpdate set with the transaction's COMMIT (an SMS push's sign of life, stored with its SMS). */
export async function touchGatewayOnCommit(q: Queryable, id: string, at: Date): Promise<void> {
  await q.defer(TOUCH, [id, at]);
}

/** The usable platform states as an SQL list, `('ready', 'busy')`: fixed words, never input. */
const USABLE = `(${USABLE_SIM_STATES.map((s) => `'${s}'`).join(', ')})`;

// ---- SIM inventory --------------------------------------------------------------------------

export interface SimRow {
  id: string;
  port: string;
  iccid: string | null;
  imsi: string | null;
  number: string | null;
  number_source: 'device' | 'manual' | null;
  operator: string | null;
  signal: number | null;
  state: SimState;
  device_state: string | null;
  role: SimRole;
  /** An admin's correction of the SIM's country and operator (dropped when another card is seen). */
  country_override: string | null;
  operator_override: string | null;
}

/** A SIM with its health (counters of the UTC day and month, lock, cap) for the admin's table. */
export interface SimViewRow extends SimRow {
  ussd_code: string | null;
  ussd_reply: string | null;
  ussd_at: Date | null;
  sent_today: number;
  sent_this_month: number;
  failed_total: number;
  consecutive_failures: number;
  received: number;
  rentals_today: number;
  last_success_at: Date | null;
  locked: boolean;
  lock_kind: 'auto' | 'device' | 'manual' | null;
  lock_reason: string | null;
  locked_at: Date | null;
  locked_until: Date | null;
  locked_by: string | null;
  at_cap: 'day' | 'month' | null;
}

/**
 * Upserts the reported slots. The number: a manual one for the same ICCID wins; otherwise the
 * device's `sn`. A changed ICCID or an empty slot drops the old number; the same card with
 * a blank `sn` keeps what was known.
 */
export async function upsertSims(
  q: Queryable,
  gatewayId: string,
  entries: SimEntry[],
  at: Date,
): Promise<void> {
  const known = entries.filter((e) => !e.cardUnknown);
  await upsertPartialSims(
    q,
    gatewayId,
    entries.filter((e) => e.cardUnknown),
    at,
  );
  if (known.length === 0) return;
  const payload = known.map((e) => ({
    port: e.slot,
    iccid: e.iccid,
    imsi: e.imsi,
    imei: e.imei,
    number: e.number,
    operator: e.operator,
    signal: e.signal,
    state: e.state,
    device_state: e.deviceState,
    active: e.active,
  }));
  await q.query(
    `INSERT INTO sims AS s
       (gateway_id, port, iccid, imsi, imei, number, number_source, operator, signal, state, device_state, active,
        updated_at)
     SELECT $1, e.port,
            CASE WHEN e.state = 'empty' THEN NULL ELSE e.iccid END,
            CASE WHEN e.state = 'empty' THEN NULL ELSE e.imsi END,
            e.imei,
            CASE WHEN e.state = 'empty' THEN NULL ELSE coalesce(m.number, e.number) END,
            CASE WHEN e.state = 'empty' THEN NULL WHEN m.number IS NOT NULL THEN 'manual'
                 WHEN e.number IS NOT NULL THEN 'device' END,
            e.operator, e.signal, e.state, e.device_state, coalesce(e.active, true), $3
       FROM jsonb_to_recordset($2::jsonb) AS e(port text, iccid text, imsi text, imei text, number text,
                                               operator text, signal int, state text, device_state text,
                                               active boolean)
       -- A masked ICCID (a phone's cloud shows the last 4 digits) is no key.
       LEFT JOIN sim_numbers m ON m.iccid = e.iccid AND strpos(e.iccid, '*') = 0
      ORDER BY e.port
     ON CONFLICT (gateway_id, port) DO UPDATE SET
       iccid = EXCLUDED.iccid,
       imsi = EXCLUDED.imsi,
       imei = coalesce(EXCLUDED.imei, s.imei),
       number = CASE
         WHEN EXCLUDED.state = 'empty' THEN NULL
         WHEN EXCLUDED.number_source = 'manual' OR EXCLUDED.iccid IS DISTINCT FROM s.iccid THEN EXCLUDED.number
         ELSE coalesce(EXCLUDED.number, s.number) END,
       number_source = CASE
         WHEN EXCLUDED.state = 'empty' THEN NULL
         WHEN EXCLUDED.number_source = 'manual' OR EXCLUDED.iccid IS DISTINCT FROM s.iccid
           THEN EXCLUDED.number_source
         WHEN EXCLUDED.number IS NOT NULL THEN EXCLUDED.number_source
         ELSE s.number_source END,
       operator = EXCLUDED.operator,
       signal = EXCLUDED.signal,
       state = EXCLUDED.state,
       device_state = EXCLUDED.device_state,
       active = EXCLUDED.active,
       -- An admin's correction belongs to the card it was made for.
       country_override = CASE WHEN EXCLUDED.state = 'empty' OR EXCLUDED.iccid IS DISTINCT FROM s.iccid
                               THEN NULL ELSE s.country_override END,
       operator_override = CASE WHEN EXCLUDED.state = 'empty' OR EXCLUDED.iccid IS DISTINCT FROM s.iccid
                                THEN NULL ELSE s.operator_override END,
       updated_at = EXCLUDED.updated_at`,
    [gatewayId, JSON.stringify(payload), at],
  );
}

/**
 * Slots whose report does not say which card they hold (SimEntry.cardUnknown): the state, signal,
 * operator and IMEI are taken; the card's ICCID, IMSI and number are kept unless the slot is empty.
 */
async function upsertPartialSims(
  q: Queryable,
  gatewayId: string,
  entries: SimEntry[],
  at: Date,
): Promise<void> {
  if (entries.length === 0) return;
  const payload = entries.map((e) => ({
    port: e.slot,
    imei: e.imei,
    operator: e.operator,
    signal: e.signal,
    state: e.state,
    device_state: e.deviceState,
    active: e.active,
  }));
  await q.query(
    `INSERT INTO sims AS s (gateway_id, port, imei, operator, signal, state, device_state, active, updated_at)
     SELECT $1, e.port, e.imei, e.operator, e.signal, e.state, e.device_state, coalesce(e.active, true), $3
       FROM jsonb_to_recordset($2::jsonb) AS e(port text, imei text, operator text, signal int, state text,
                                               device_state text, active boolean)
      ORDER BY e.port
     ON CONFLICT (gateway_id, port) DO UPDATE SET
       iccid = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.iccid END,
       imsi = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.imsi END,
       number = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.number END,
       number_source = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.number_source END,
       country_override = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.country_override END,
       operator_override = CASE WHEN EXCLUDED.state = 'empty' THEN NULL ELSE s.operator_override END,
       imei = coalesce(EXCLUDED.imei, s.imei),
       operator = EXCLUDED.operator,
       signal = EXCLUDED.signal,
       state = EXCLUDED.state,
       device_state = EXCLUDED.device_state,
       active = EXCLUDED.active,
       updated_at = EXCLUDED.updated_at`,
    [gatewayId, JSON.stringify(payload), at],
  );
}

/** A complete report lists every slot: rows for slots it no longer has are stale. */
export async function deleteSimsNotIn(q: Queryable, gatewayId: string, ports: string[]): Promise<void> {
  await q.query('DELETE FROM sims WHERE gateway_id = $1 AND NOT (port = ANY($2::text[]))', [
    gatewayId,
    ports,
  ]);
}

/** After an inventory change: device facts, totalSIM (SIMs present), and lastUpdate. */
export async function refreshGatewayAfterReport(
  q: Queryable,
  id: string,
  at: Date,
  dev: Pick<DeviceStatus, 'ip' | 'firmware' | 'maxPorts' | 'maxSlots' | 'model'> | null,
): Promise<void> {
  await q.query(
    `UPDATE gateways SET
       total_sim = (SELECT count(*)::int FROM sims WHERE gateway_id = $1 AND state <> 'empty'),
       last_update = $2,
       ip = coalesce($3, ip), firmware = coalesce($4, firmware),
       max_ports = coalesce($5, max_ports), max_slots = coalesce($6, max_slots), model = coalesce($7, model)
     WHERE id = $1`,
    [
      id,
      at,
      dev?.ip ?? null,
      dev?.firmware ?? null,
      dev?.maxPorts ?? null,
      dev?.maxSlots ?? null,
      dev?.model ?? null,
    ],
  );
}

/**
 * SIMs in their device's order whatever the driver's slot format: shorter keys first, then by text
 * ("2.01" before "10.01", "1" before "2"), which is the numeric order of number-like keys.
 */
const SLOT_ORDER = 'length(sim.port), sim.port';

const SIM_COLUMNS =
  'id, port, iccid, imsi, number, number_source, operator, signal, state, device_state, role, country_override, operator_override';

/** The SIMs of a gateway (all, or the one on `port`) with their health at `now`. */
function simViewSql(onePort: boolean): string {
  const h = healthSql({ day: '$2', month: '$3', now: '$4' });
  return `SELECT sim.id, sim.port, sim.iccid, sim.imsi, sim.number, sim.number_source, sim.operator, sim.signal,
            sim.state, sim.device_state, sim.role, sim.country_override, sim.operator_override,
            sim.ussd_code, sim.ussd_reply, sim.ussd_at,
            ${h.sentToday} AS sent_today, ${h.sentMonth} AS sent_this_month,
            coalesce(h.failed_total, 0) AS failed_total, coalesce(h.consecutive_failures, 0) AS consecutive_failures,
            (SELECT count(*)::int FROM incoming_sms i
              WHERE i.gateway_id = sim.gateway_id AND i.port = sim.port AND NOT i.is_report) AS received,
            ${h.rentalsToday} AS rentals_today, h.last_success_at, ${h.locked} AS locked,
            h.lock_kind, h.lock_reason, h.locked_at, h.locked_until, h.locked_by, ${h.atCap} AS at_cap
       FROM sims sim LEFT JOIN sim_health h ON h.sim_id = sim.id CROSS JOIN sim_settings st
      WHERE st.id AND sim.gateway_id = $1 ${onePort ? 'AND sim.port = $5' : ''}
      ORDER BY ${SLOT_ORDER}`;
}

export async function listSimRows(q: Queryable, gatewayId: string, now: Date): Promise<SimViewRow[]> {
  const { day, month } = periods(now);
  return q.query<SimViewRow>(simViewSql(false), [gatewayId, day, month, now]);
}

export async function findSimRow(
  q: Queryable,
  gatewayId: string,
  port: string,
  now: Date,
): Promise<SimViewRow | undefined> {
  const { day, month } = periods(now);
  return (await q.query<SimViewRow>(simViewSql(true), [gatewayId, day, month, now, port]))[0];
}

/** An admin's correction of the SIM's country and operator (null: none). */
export async function setSimOrigin(
  q: Queryable,
  simId: string,
  country: string | null,
  operator: string | null,
): Promise<void> {
  await q.query('UPDATE sims SET country_override = $2, operator_override = $3 WHERE id = $1', [
    simId,
    country,
    operator,
  ]);
}

/** Keeps the network's reply to a USSD code sent from the SIM (the last one). */
export async function setSimUssd(
  q: Queryable,
  simId: string,
  code: string,
  reply: string,
  at: Date,
): Promise<void> {
  await q.query('UPDATE sims SET ussd_code = $2, ussd_reply = $3, ussd_at = $4 WHERE id = $1', [
    simId,
    code,
    reply,
    at,
  ]);
}

/** The admin's number: remembered by ICCID (when the card reports one) and set on the slot. */
export async function setManualNumber(
  q: Queryable,
  simId: string,
  iccid: string | null,
  number: string,
  at: Date,
): Promise<SimRow | undefined> {
  // Only a real ICCID keys a number (a masked one is the last digits of many cards).
  if (iccid && !iccid.includes('*')) {
    await q.query(
      `INSERT INTO sim_numbers (iccid, number, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (iccid) DO UPDATE SET number = EXCLUDED.number, updated_at = EXCLUDED.updated_at`,
      [iccid, number, at],
    );
  }
  const rows = await q.query<SimRow>(
    `UPDATE sims SET number = $2, number_source = 'manual', updated_at = $3 WHERE id = $1 RETURNING ${SIM_COLUMNS}`,
    [simId, number, at],
  );
  return rows[0];
}

// ---- read by other modules (through index.ts) ---------------------------------------------------

/** A SIM that can take a rental now: number known, usable state, enabled gateway online. */
export interface UsableSimRow {
  id: string;
  gateway_id: string;
  gateway_name: string;
  port: string;
  number: string;
  /** `both` or `rental` (SIMs kept for sending are taken from the `both` ones). */
  role: SimRole;
  /** The SIM setting SimsKeptForSendingPercent, on every row: a rent reads SIMs and share at once. */
  kept_percent: number;
  /** What tells the SIM's country and operator (the catalogue reads them). */
  imsi: string | null;
  iccid: string | null;
  operator: string | null;
  country_override: string | null;
  operator_override: string | null;
}

/** Also: not locked, and not reserved for messaging. Caps do not apply (they limit sending only). */
export async function usableSims(q: Reader, onlineSince: Date, now: Date): Promise<UsableSimRow[]> {
  return q.query<UsableSimRow>(
    `SELECT sim.id, sim.gateway_id, g.name AS gateway_name, sim.port, sim.number, sim.role,
            st.kept_for_sending_percent AS kept_percent, sim.imsi, sim.iccid, sim.operator,
            sim.country_override, sim.operator_override
       FROM sims sim JOIN gateways g ON g.id = sim.gateway_id LEFT JOIN sim_health h ON h.sim_id = sim.id
            CROSS JOIN sim_settings st
      WHERE st.id AND g.is_enable AND g.last_update >= $1 AND sim.number IS NOT NULL AND sim.state IN ${USABLE}
        AND sim.role <> 'messaging' AND NOT ${healthSql({ day: '', month: '', now: '$2' }).locked}`,
    [onlineSince, now],
  );
}

export async function gatewayNames(q: Queryable): Promise<string[]> {
  return (await q.query<{ name: string }>('SELECT name FROM gateways ORDER BY name')).map((r) => r.name);
}

/** What a device push needs: the secret to check, the MAC to compare, the driver to read it. */
export interface PushTarget extends GatewayCredentials {
  push_secret: string;
}

export async function findPushTarget(q: Queryable, id: string): Promise<PushTarget | undefined> {
  return (await findPushTargets(q, [id]))[0];
}

/** The enabled gateways of one kind of device and their user names (datagram devices' logins). */
export async function findGatewayLogins(
  q: Queryable,
  driver: string,
): Promise<{ id: string; userName: string }[]> {
  return q.query<{ id: string; userName: string }>(
    'SELECT id, user_name AS "userName" FROM gateways WHERE driver = $1 AND is_enable',
    [driver],
  );
}

/** The push targets among `ids` (uuids), in one statement. */
export async function findPushTargets(q: Queryable, ids: string[]): Promise<PushTarget[]> {
  return q.query<PushTarget>(
    `SELECT ${CREDENTIAL_COLUMNS}, push_secret FROM gateways WHERE id = ANY($1::uuid[])`,
    [ids],
  );
}

// ---- pull catch-up ----------------------------------------------------------------------------

/**
 * Claims every enabled gateway whose catch-up is due by moving its due time forward; concurrent
 * claimers (other processes) re-check the row after the first commits and skip it.
 */
export async function claimDuePulls(q: Queryable, now: Date, nextDue: Date): Promise<GatewayCredentials[]> {
  return q.query<GatewayCredentials>(
    `UPDATE gateways SET sms_pull_due = $2
      WHERE is_enable AND (sms_pull_due IS NULL OR sms_pull_due <= $1)
      RETURNING ${CREDENTIAL_COLUMNS}`,
    [now, nextDue],
  );
}

/** Moves the inbox position forward (or onto a new ssrc); never back within the same ssrc. */
export async function savePullPosition(
  q: Queryable,
  id: string,
  ssrc: string | null,
  nextId: number,
): Promise<void> {
  await q.query(
    `UPDATE gateways SET sms_ssrc = $2, sms_next_id = $3
      WHERE id = $1 AND (sms_ssrc IS DISTINCT FROM $2 OR sms_next_id < $3)`,
    [id, ssrc, nextId],
  );
}

/** Enabled gateways not heard from since `onlineSince` (the metrics gauge; the same rule as uptime). */
export async function offlineGatewayCount(q: Queryable, onlineSince: Date): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM gateways WHERE is_enable AND NOT coalesce(last_update >= $1, false)`,
    [onlineSince],
  );
  return rows[0]?.n ?? 0;
}

/** The admin overview's device figures in one round trip (usable: states 3, 4, 15 and not locked). */
export async function gatewayFigures(
  q: Queryable,
  onlineSince: Date,
  unmatchedSince: Date,
  now: Date,
): Promise<{
  gatewaysTotal: number;
  gatewaysOnline: number;
  sims: number;
  simsUsable: number;
  simsLocked: number;
  unmatchedSms24h: number;
}> {
  const rows = await q.query<{
    gatewaysTotal: number;
    gatewaysOnline: number;
    sims: number;
    simsUsable: number;
    simsLocked: number;
    unmatchedSms24h: number;
  }>(
    `SELECT (SELECT count(*) FROM gateways)::int AS "gatewaysTotal",
            (SELECT count(*) FROM gateways WHERE last_update >= $1)::int AS "gatewaysOnline",
            (SELECT count(*) FROM sims WHERE active AND state <> 'empty')::int AS sims,
            -- Usable: a usable state and not locked (a locked SIM takes no rental and sends nothing).
            (SELECT count(*) FROM sims sim LEFT JOIN sim_health h ON h.sim_id = sim.id
              WHERE sim.active AND sim.state IN ${USABLE}
                AND NOT ${healthSql({ day: '', month: '', now: '$3' }).locked})::int AS "simsUsable",
            (SELECT count(*) FROM sim_health
              WHERE locked_at IS NOT NULL AND (locked_until IS NULL OR locked_until > $3))::int AS "simsLocked",
            (SELECT count(*) FROM incoming_sms WHERE NOT matched AND NOT is_report AND received_at >= $2)::int
              AS "unmatchedSms24h"`,
    [onlineSince, unmatchedSince, now],
  );
  return rows[0]!;
}

/**
 * A SIM that can send now: usable state, the port's active slot, on an enabled online gateway; not
 * locked, not reserved for rentals, not at its day or month cap.
 */
export interface SendableSim {
  id: string;
  gateway_id: string;
  gateway_name: string;
  port: string;
  /** Messages it may still send before its day or month cap; null without caps. */
  remaining: number | null;
}

export async function sendableSims(q: Queryable, onlineSince: Date, now: Date): Promise<SendableSim[]> {
  const { day, month } = periods(now);
  const h = healthSql({ day: '$2', month: '$3', now: '$4' });
  return q.query<SendableSim>(
    `SELECT sim.id, sim.gateway_id, g.name AS gateway_name, sim.port, ${h.remaining} AS remaining
       FROM sims sim JOIN gateways g ON g.id = sim.gateway_id LEFT JOIN sim_health h ON h.sim_id = sim.id
            CROSS JOIN sim_settings st
      WHERE st.id AND g.is_enable AND g.last_update >= $1 AND sim.active AND sim.state IN ${USABLE}
        AND sim.role <> 'rental' AND NOT ${h.locked} AND ${h.atCap} IS NULL
      ORDER BY g.created_at, sim.gateway_id, ${SLOT_ORDER}`,
    [onlineSince, day, month, now],
  );
}

/** One SIM with what decides whether it can send (chat replies name the reason when it cannot). */
export interface SimSendState {
  id: string;
  gateway_id: string;
  gateway_name: string;
  port: string;
  number: string | null;
  usable: boolean;
  active: boolean;
  gateway_enabled: boolean;
  online: boolean;
  role: SimRole;
  locked: boolean;
  lock_reason: string | null;
  at_cap: 'day' | 'month' | null;
  /** The gateway's driver kind. */
  driver: string;
}

export async function simSendState(
  q: Queryable,
  simId: string,
  onlineSince: Date,
  now: Date,
): Promise<SimSendState | undefined> {
  const { day, month } = periods(now);
  const h = healthSql({ day: '$3', month: '$4', now: '$5' });
  const rows = await q.query<SimSendState>(
    `SELECT sim.id, sim.gateway_id, g.name AS gateway_name, sim.port, sim.number,
            sim.state IN ${USABLE} AS usable, sim.active, g.is_enable AS gateway_enabled,
            coalesce(g.last_update >= $2, false) AS online, sim.role, ${h.locked} AS locked, h.lock_reason,
            ${h.atCap} AS at_cap, g.driver
       FROM sims sim JOIN gateways g ON g.id = sim.gateway_id LEFT JOIN sim_health h ON h.sim_id = sim.id
            CROSS JOIN sim_settings st
      WHERE st.id AND sim.id = $1`,
    [simId, onlineSince, day, month, now],
  );
  return rows[0];
}

/** A SIM a user may choose to send from (the API's GET /api/v1/sims), and whether it can send now. */
export interface MessagingSim {
  id: string;
  number: string | null;
  operator: string | null;
  gateway_name: string;
  driver: string;
  ready: boolean;
}

/** Every present SIM whose role allows messaging, with its readiness at `now`. */
export async function messagingSims(q: Queryable, onlineSince: Date, now: Date): Promise<MessagingSim[]> {
  const { day, month } = periods(now);
  const h = healthSql({ day: '$2', month: '$3', now: '$4' });
  return q.query<MessagingSim>(
    `SELECT sim.id::text AS id, sim.number, sim.operator, g.name AS gateway_name, g.driver,
            (g.is_enable AND coalesce(g.last_update >= $1, false) AND sim.active AND sim.state IN ${USABLE}
             AND NOT ${h.locked} AND ${h.atCap} IS NULL) AS ready
       FROM sims sim JOIN gateways g ON g.id = sim.gateway_id LEFT JOIN sim_health h ON h.sim_id = sim.id
            CROSS JOIN sim_settings st
      WHERE st.id AND sim.role <> 'rental' AND sim.state <> 'empty'
      ORDER BY g.created_at, sim.gateway_id, ${SLOT_ORDER}`,
    [onlineSince, day, month, now],
  );
}

/** The port of the gateway's SIM with this number (digits compared, country code optional). */
export async function portOfNumber(
  q: Queryable,
  gatewayId: string,
  number: string,
): Promise<string | undefined> {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 6) return undefined;
  const rows = await q.query<{ port: string }>(
    `SELECT port FROM sims
      WHERE gateway_id = $1 AND number IS NOT NULL
        AND right(regexp_replace(number, '\\D', '', 'g'), 10) = right($2, 10)
      ORDER BY active DESC, updated_at DESC LIMIT 1`,
    [gatewayId, digits],
  );
  return rows[0]?.port;
}

// ---- push ids (replays) -------------------------------------------------------------------------

export async function pushIdSeen(q: Queryable, gatewayId: string, eventId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM device_push_ids WHERE gateway_id = $1 AND event_id = $2', [
    gatewayId,
    eventId,
  ]);
  return rows.length > 0;
}

export async function rememberPushId(
  q: Queryable,
  gatewayId: string,
  eventId: string,
  at: Date,
): Promise<void> {
  await q.query(
    'INSERT INTO device_push_ids (gateway_id, event_id, seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [gatewayId, eventId, at],
  );
}

export async function forgetPushIdsBefore(q: Queryable, before: Date): Promise<number> {
  return (await q.query('DELETE FROM device_push_ids WHERE seen_at < $1 RETURNING 1', [before])).length;
}

/** The gateways of these kinds and their modes (which of them have lines that report themselves). */
export async function gatewaysOfKinds(
  q: Queryable,
  drivers: string[],
): Promise<{ id: string; driver: string; mode: string | null }[]> {
  if (drivers.length === 0) return [];
  return q.query('SELECT id, driver, mode FROM gateways WHERE driver = ANY($1::text[])', [drivers]);
}

/**
 * SIMs of lines that report themselves (the gateways `gatewayIds`) silent since `before`: a usable
 * state becomes `unknown` with words for people, until the line's next report says what it is.
 */
export async function markSilentSims(q: Queryable, gatewayIds: string[], before: Date): Promise<number> {
  if (gatewayIds.length === 0) return 0;
  const rows = await q.query(
    `UPDATE sims s SET state = 'unknown', device_state = 'No report from the line for over 100 s'
      WHERE s.gateway_id = ANY($1::uuid[]) AND s.state IN ('ready', 'busy') AND s.updated_at < $2
      RETURNING 1`,
    [gatewayIds, before],
  );
  return rows.length;
}

/** The next catch-up of these gateways is due at `due` (a gateway read more often than the rest). */
export async function setPullDue(q: Queryable, ids: string[], due: Date): Promise<void> {
  if (ids.length === 0) return;
  await q.query('UPDATE gateways SET sms_pull_due = $2 WHERE id = ANY($1::uuid[])', [ids, due]);
}

/** A call a device reported on a SIM (kept for later use). */
export async function recordCall(
  q: Queryable,
  gatewayId: string,
  call: { port: string; direction: 'incoming' | 'outgoing' | null; number: string | null },
  at: Date,
): Promise<void> {
  await q.query(
    'INSERT INTO device_calls (gateway_id, port, direction, number, at) VALUES ($1, $2, $3, $4, $5)',
    [gatewayId, call.port, call.direction, call.number, at],
  );
}

/** Forgets reported calls from before `before`, at most `limit` of them. */
export const pruneCalls = (q: Queryable, before: Date, limit: number): Promise<number> =>
  deleteOlderThan(q, { table: 'device_calls', column: 'at' }, before, limit);
