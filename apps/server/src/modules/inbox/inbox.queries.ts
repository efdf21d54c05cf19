import type { Queryable } from '../../db/db.ts';

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

export async function markMatched(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE incoming_sms SET matched = true WHERE id = $1', [id]);
}
