import type { InboxSms } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';

export interface InsertSms {
  gatewayId: string;
  port: string;
  iccid: string | null;
  sender: string;
  recipient: string | null;
  body: string;
  isReport: boolean;
  deviceTs: number | null;
  receivedAt: Date;
  dedupeKey: string;
}

export interface InsertedSms {
  id: string;
  iccid: string | null;
  sim_id: string | null;
  sim_number: string | null;
}

/** Stores one SMS unless its dedupe key is known; returns the new row with its port's SIM, else undefined. */
export async function insertIncomingSms(q: Queryable, m: InsertSms): Promise<InsertedSms | undefined> {
  const rows = await q.query<InsertedSms>(
    `WITH s AS (SELECT id, number, iccid FROM sims WHERE gateway_id = $1 AND port = $2),
     ins AS (
       INSERT INTO incoming_sms
         (gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at, dedupe_key)
       SELECT $1, $2, coalesce($3, (SELECT iccid FROM s)), $4, $5, $6, $7, $8, $9, $10
       ON CONFLICT (dedupe_key) DO NOTHING
       RETURNING id, iccid
     )
     SELECT ins.id, ins.iccid, (SELECT id FROM s) AS sim_id, (SELECT number FROM s) AS sim_number FROM ins`,
    [
      m.gatewayId,
      m.port,
      m.iccid,
      m.sender,
      m.recipient,
      m.body,
      m.isReport,
      m.deviceTs,
      m.receivedAt,
      m.dedupeKey,
    ],
  );
  return rows[0];
}

/**
 * Stores several SMS in one statement, each unless its dedupe key is known (within the batch too:
 * the first of two equal keys is stored). Returns the new rows with their port's SIM, by dedupe key.
 */
export async function insertIncomingSmsMany(
  q: Queryable,
  ms: InsertSms[],
): Promise<Map<string, InsertedSms>> {
  const col = <K extends keyof InsertSms>(k: K) => ms.map((m) => m[k]);
  const rows = await q.query<InsertedSms & { dedupe_key: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[],
                            $8::bigint[], $9::timestamptz[], $10::text[])
         WITH ORDINALITY AS i (gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at,
                               dedupe_key, n)
     ),
     ins AS (
       INSERT INTO incoming_sms
         (gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at, dedupe_key)
       SELECT i.gateway_id, i.port, coalesce(i.iccid, s.iccid), i.sender, i.recipient, i.body, i.is_report,
              i.device_ts, i.received_at, i.dedupe_key
         FROM input i LEFT JOIN sims s ON s.gateway_id = i.gateway_id AND s.port = i.port
        ORDER BY i.n
       ON CONFLICT (dedupe_key) DO NOTHING
       RETURNING id, iccid, gateway_id, port, dedupe_key
     )
     SELECT ins.id, ins.iccid, ins.dedupe_key, s.id AS sim_id, s.number AS sim_number
       FROM ins LEFT JOIN sims s ON s.gateway_id = ins.gateway_id AND s.port = ins.port`,
    [
      col('gatewayId'),
      col('port'),
      col('iccid'),
      col('sender'),
      col('recipient'),
      col('body'),
      col('isReport'),
      col('deviceTs'),
      col('receivedAt'),
      col('dedupeKey'),
    ],
  );
  return new Map(rows.map(({ dedupe_key, ...row }) => [dedupe_key, row]));
}

/** An identical SMS (gateway, port, sender, text, report flag) stored since `since`: a device's repeat. */
export async function findRecentRepeat(
  q: Queryable,
  m: { gatewayId: string; port: string; sender: string; text: string; isReport: boolean },
  since: Date,
): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM incoming_sms
      WHERE gateway_id = $1 AND port = $2 AND received_at > $3 AND sender = $4 AND body = $5 AND is_report = $6
      LIMIT 1`,
    [m.gatewayId, m.port, since, m.sender, m.text, m.isReport],
  );
  return rows.length > 0;
}

/** Deferred (`q.defer`): no round trip of its own. */
export async function markMatched(q: Queryable, id: string): Promise<void> {
  await q.defer('UPDATE incoming_sms SET matched = true WHERE id = $1', [id]);
}

/**
 * A page of stored SMS (delivery receipts excluded), newest first, paged by key
 * (docs/architecture.md#paged-lists); the unmatched ones by their own partial index.
 */
export async function listIncomingSms(
  q: Queryable,
  matched: boolean | undefined,
  req: PageRequest,
): Promise<ListPage<InboxSms>> {
  const where = ['NOT m.is_report'];
  const params: unknown[] = [];
  if (matched !== undefined) {
    params.push(matched);
    where.push(`m.matched = $${params.length}`);
  }
  const page = await keysetPage<InboxSms & { received_at: Date }>(
    q,
    {
      select: `m.id, COALESCE(g.name, '-') AS gateway, m.port, m.sender, m.body AS text, m.received_at, m.matched`,
      from: 'FROM incoming_sms m LEFT JOIN gateways g ON g.id = m.gateway_id',
      countFrom: 'FROM incoming_sms m',
      where,
      params,
      keys: [
        { expr: 'm.received_at', type: 'timestamptz' },
        { expr: 'm.id', type: 'uuid' },
      ],
      desc: true,
    },
    req,
  );
  return {
    ...page,
    rows: page.rows.map(({ received_at, ...r }) => ({ ...r, receivedAt: received_at.toISOString() })),
  };
}

/**
 * Deletes at most `batch` SMS received before `before` that no consumer took (unmatched SMS and
 * delivery reports), oldest first, through incoming_sms_unmatched_received. SMS a rental or the
 * chat took stay: an order's codes point at their SMS, and a chat reply keeps its own copy. Each
 * delete checks order_codes through order_codes_sms (migration 031).
 */
export async function pruneUnmatchedSms(q: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM incoming_sms
        WHERE id = ANY (ARRAY(
                SELECT id FROM incoming_sms WHERE NOT matched AND received_at < $1 ORDER BY received_at LIMIT $2))
          AND NOT matched
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}
