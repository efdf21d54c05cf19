import type { Queryable } from '../../db/db.ts';
import { deleteOlderThan } from '../../db/retention.ts';

/** A send the platform holds for a device (held-sends.ts). */
export interface OutboxRow {
  id: string;
  gateway_id: string;
  tid: string;
  port: string;
  recipient: string;
  body: string;
  attempts: number;
  /** The gateway's mode (whether its lines report themselves: DeviceKindSpec.linesReport). */
  mode?: string | null;
}

export interface HoldSend {
  tid: number;
  port: string;
  recipient: string;
  body: string;
}

/** Holds sends for a gateway; a task held already (a retried request) is left as it is. */
export async function holdSends(
  q: Queryable,
  gatewayId: string,
  sends: HoldSend[],
  now: Date,
): Promise<void> {
  if (sends.length === 0) return;
  await q.query(
    `INSERT INTO gateway_outbox (gateway_id, tid, port, recipient, body, not_before, created_at, updated_at)
     SELECT $1, t.tid, t.port, t.recipient, t.body, $6, $6, $6
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) AS t (tid, port, recipient, body)
     ON CONFLICT (gateway_id, tid) DO NOTHING`,
    [
      gatewayId,
      sends.map((s) => s.tid),
      sends.map((s) => s.port),
      sends.map((s) => s.recipient),
      sends.map((s) => s.body),
      now,
    ],
  );
}

/** Sends of a kind's enabled gateways due now, oldest first. */
export async function dueSends(q: Queryable, driver: string, now: Date, limit: number): Promise<OutboxRow[]> {
  return q.query<OutboxRow>(
    `SELECT o.id::text, o.gateway_id, o.tid::text, o.port, o.recipient, o.body, o.attempts, g.mode
       FROM gateway_outbox o JOIN gateways g ON g.id = o.gateway_id
      WHERE o.state = 'queued' AND o.not_before <= $2 AND g.driver = $1
      ORDER BY o.id
      LIMIT $3`,
    [driver, now, limit],
  );
}

/** Takes queued sends for a session; answers the ids taken (all of them unless another took some). */
export async function claimSends(q: Queryable, ids: string[], now: Date): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `UPDATE gateway_outbox SET state = 'sending', attempts = attempts + 1, updated_at = $2
      WHERE id = ANY($1::bigint[]) AND state = 'queued'
      RETURNING id::text`,
    [ids, now],
  );
  return rows.map((r) => r.id);
}

export type OutboxEnd =
  | { id: string; state: 'sent'; deviceRef: string | null; deviceText: string }
  | { id: string; state: 'failed'; deviceText: string }
  | { id: string; state: 'queued'; notBefore: Date; deviceText: string };

/** Records how held sends ended (or puts them back in the queue), in one statement. */
export async function endSends(q: Queryable, ends: OutboxEnd[], now: Date): Promise<void> {
  if (ends.length === 0) return;
  await q.query(
    `UPDATE gateway_outbox o
        SET state = e.state, device_ref = e.ref, device_text = e.text,
            not_before = coalesce(e.not_before, o.not_before), updated_at = $6
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
            AS e (id, state, ref, text, not_before)
      WHERE o.id = e.id AND o.state = 'sending'`,
    [
      ends.map((e) => e.id),
      ends.map((e) => e.state),
      ends.map((e) => (e.state === 'sent' ? e.deviceRef : null)),
      ends.map((e) => e.deviceText),
      ends.map((e) => (e.state === 'queued' ? e.notBefore : null)),
      now,
    ],
  );
}

/**
 * Sends a previous holder of the kind's socket had in a session when it stopped: they may have
 * gone out, so they count as sent, unconfirmed (never sent twice). Answers them.
 */
export async function settleOrphanSends(q: Queryable, driver: string, now: Date): Promise<OutboxRow[]> {
  return q.query<OutboxRow>(
    `UPDATE gateway_outbox o
        SET state = 'sent', device_text = 'the server stopped during the send', updated_at = $2
       FROM gateways g
      WHERE g.id = o.gateway_id AND g.driver = $1 AND o.state = 'sending'
      RETURNING o.id::text, o.gateway_id, o.tid::text, o.port, o.recipient, o.body, o.attempts`,
    [driver, now],
  );
}

/**
 * The held send a device's delivery report names (its own number of the SMS on that port), marked
 * delivered or not; the newest such send, as devices reuse their numbers. Undefined when none.
 */
export async function settleReceipt(
  q: Queryable,
  gatewayId: string,
  port: string,
  deviceRef: string,
  delivered: boolean,
  now: Date,
): Promise<{ tid: string; recipient: string } | undefined> {
  const [row] = await q.query<{ tid: string; recipient: string }>(
    `UPDATE gateway_outbox SET state = $4, updated_at = $5
      WHERE id = (SELECT id FROM gateway_outbox
                   WHERE gateway_id = $1 AND port = $2 AND device_ref = $3 AND state = 'sent'
                   ORDER BY id DESC LIMIT 1)
      RETURNING tid::text, recipient`,
    [gatewayId, port, deviceRef, delivered ? 'delivered' : 'undelivered', now],
  );
  return row;
}

/** Whether a held send on the port is in a session now (its result not recorded yet). */
export async function sendInFlight(q: Queryable, gatewayId: string, port: string): Promise<boolean> {
  const rows = await q.query(
    "SELECT 1 FROM gateway_outbox WHERE gateway_id = $1 AND port = $2 AND state = 'sending' LIMIT 1",
    [gatewayId, port],
  );
  return rows.length > 0;
}

/** Forgets held sends handed over before `before` (retention), at most `limit` of them. */
export const pruneOutbox = (q: Queryable, before: Date, limit: number): Promise<number> =>
  deleteOlderThan(
    q,
    { table: 'gateway_outbox', column: 'created_at', also: "state NOT IN ('queued', 'sending')" },
    before,
    limit,
  );

/** A USSD request held for the process that holds the device's socket (held-sends.ts). */
export interface UssdRow {
  id: string;
  gateway_id: string;
  port: string;
  code: string;
  /** The gateway's mode (whether its lines report themselves). */
  mode?: string | null;
}

export async function holdUssd(
  q: Queryable,
  gatewayId: string,
  port: string,
  code: string,
  now: Date,
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO gateway_ussd (gateway_id, port, code, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING id::text`,
    [gatewayId, port, code, now],
  );
  return row!.id;
}

/** USSD requests of a kind's enabled gateways waiting to run, oldest first. */
export async function dueUssd(q: Queryable, driver: string, limit: number): Promise<UssdRow[]> {
  return q.query<UssdRow>(
    `SELECT u.id::text, u.gateway_id, u.port, u.code, g.mode
       FROM gateway_ussd u JOIN gateways g ON g.id = u.gateway_id
      WHERE u.state = 'queued' AND g.driver = $1
      ORDER BY u.id LIMIT $2`,
    [driver, limit],
  );
}

/** Takes a queued USSD request to run; false when it was taken or given up already. */
export async function claimUssd(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    "UPDATE gateway_ussd SET state = 'running', updated_at = $2 WHERE id = $1 AND state = 'queued' RETURNING 1",
    [id, now],
  );
  return rows.length > 0;
}

/** The network's reply (answered) or why there is none (failed). */
export async function endUssd(
  q: Queryable,
  id: string,
  answered: boolean,
  text: string,
  now: Date,
): Promise<void> {
  await q.query('UPDATE gateway_ussd SET state = $2, reply = $3, updated_at = $4 WHERE id = $1', [
    id,
    answered ? 'answered' : 'failed',
    text,
    now,
  ]);
}

/** Where a USSD request stands. */
export async function readUssd(
  q: Queryable,
  id: string,
): Promise<{ state: 'queued' | 'running' | 'answered' | 'failed'; reply: string | null } | undefined> {
  const [row] = await q.query<{ state: 'queued' | 'running' | 'answered' | 'failed'; reply: string | null }>(
    'SELECT state, reply FROM gateway_ussd WHERE id = $1',
    [id],
  );
  return row;
}

/** A request nobody ran in time is given up (the admin was told); false when it ran meanwhile. */
export async function giveUpUssd(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    "UPDATE gateway_ussd SET state = 'failed', reply = 'not run in time', updated_at = $2 WHERE id = $1 AND state = 'queued' RETURNING 1",
    [id, now],
  );
  return rows.length > 0;
}

/** Forgets USSD requests created before `before`, at most `limit` of them. */
export const pruneUssd = (q: Queryable, before: Date, limit: number): Promise<number> =>
  deleteOlderThan(q, { table: 'gateway_ussd', column: 'created_at' }, before, limit);
