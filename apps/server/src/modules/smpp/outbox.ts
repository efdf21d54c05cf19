import { randomBytes } from 'node:crypto';
import type { AppContext, MessageEvent, MessageEventListener } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { publish } from '../../events.ts';
import { EXPIRED_REASON } from '../messaging/index.ts';
import { cstring, MESSAGE_STATE, TLV, tlv, writeDeliver } from './pdu.ts';
import { encodeText, isGsm } from './text.ts';

// Receipts and replies owed to SMPP accounts: rows written by messaging's events in their own
// transaction, sent as deliver_sm by a receiving bind and deleted once the client acknowledged them.

/** Rows kept per account at most, and for how long: the job drops the rest. */
export const OUTBOX_MAX_ROWS = 10_000;
export const OUTBOX_MAX_AGE_MS = 72 * 3600_000;
/** How long query_sm knows a message, and a conversation routes replies to its SMPP account. */
export const SMPP_MESSAGES_MAX_AGE_MS = 30 * 24 * 3600_000;

/**
 * What a submit tells messaging's events, as the send's client_ref (they carry it): the account,
 * whether a receipt was asked, the submit time and the client's source_addr (last: it may hold ':').
 * Events carry it from the transaction that recorded the message, so none can come before it.
 */
export interface SmppMarker {
  apiKeyId: string;
  receipt: boolean;
  submitMs: number;
  sourceAddr: string;
}

export const smppMarker = (m: SmppMarker) =>
  `smpp:${m.apiKeyId}:${m.receipt ? 1 : 0}:${m.submitMs}:${randomBytes(6).toString('hex')}:${m.sourceAddr}`;

export function parseMarker(ref: string | null | undefined): SmppMarker | undefined {
  if (!ref?.startsWith('smpp:')) return undefined;
  const parts = ref.split(':');
  if (parts.length < 6) return undefined;
  return {
    apiKeyId: parts[1]!,
    receipt: parts[2] === '1',
    submitMs: Number(parts[3]),
    sourceAddr: parts.slice(5).join(':'),
  };
}

export interface ReceiptBody {
  /** The handset, and the client's source_addr of the submit. */
  from: string;
  to: string;
  stat: 'DELIVRD' | 'UNDELIV' | 'EXPIRED';
  err: string;
  submitMs: number;
  doneMs: number;
  text: string;
}

export interface MoBody {
  from: string;
  to: string;
  text: string;
}

export interface OutboxRow {
  id: string;
  kind: 'receipt' | 'mo';
  message_id: string;
  body: ReceiptBody | MoBody;
}

/** An outbox row; nothing when the account went away meanwhile (never fails the event's transaction). */
async function insertOutbox(
  q: Queryable,
  apiKeyId: string,
  kind: OutboxRow['kind'],
  messageId: string,
  body: ReceiptBody | MoBody,
  at: Date,
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO smpp_outbox (api_key_id, kind, message_id, body, created_at)
     SELECT api_key_id, $2, $3, $4::jsonb, $5 FROM smpp_accounts WHERE api_key_id = $1::uuid
     RETURNING id`,
    [apiKeyId, kind, messageId, JSON.stringify(body), at],
  );
  return rows.length > 0;
}

/** The device's error number of a failure (its reason starts with it), three digits. */
const errOf = (reason: string | null | undefined) => {
  const n = /\d+/.exec(reason ?? '')?.[0];
  return (n && Number(n) <= 999 ? n : '1').padStart(3, '0');
};

async function onEvents(q: Queryable, events: readonly MessageEvent[], ctx: AppContext): Promise<void> {
  const touched = new Set<string>();
  for (const e of events) {
    if (!e.messageId) continue;
    if (e.type === 'message.received') {
      if (!e.conversationId) continue;
      const [c] = await q.query<{ api_key_id: string; source_addr: string }>(
        `SELECT api_key_id::text AS api_key_id, source_addr FROM smpp_conversations WHERE conversation_id = $1`,
        [e.conversationId],
      );
      if (!c) continue;
      const body: MoBody = {
        from: e.phoneNumber ?? '',
        to: c.source_addr || e.simNumber || '',
        text: e.text ?? '',
      };
      if (await insertOutbox(q, c.api_key_id, 'mo', e.messageId, body, e.at)) touched.add(c.api_key_id);
      continue;
    }
    const m = parseMarker(e.campaignRef);
    if (!m) continue;
    if (e.type === 'message.sent' && e.conversationId) {
      await q.query(
        `INSERT INTO smpp_conversations (conversation_id, api_key_id, source_addr, updated_at)
         SELECT $1, api_key_id, $3, $4 FROM smpp_accounts WHERE api_key_id = $2::uuid
         ON CONFLICT (conversation_id) DO UPDATE SET api_key_id = EXCLUDED.api_key_id,
           source_addr = EXCLUDED.source_addr, updated_at = EXCLUDED.updated_at`,
        [e.conversationId, m.apiKeyId, m.sourceAddr, e.at],
      );
    }
    if (m.receipt && (e.type === 'message.delivered' || e.type === 'message.failed')) {
      const delivered = e.type === 'message.delivered';
      // Failed unsent when its validity_period ended.
      const expired = !delivered && e.reason === EXPIRED_REASON;
      const body: ReceiptBody = {
        from: e.phoneNumber ?? '',
        to: m.sourceAddr,
        stat: delivered ? 'DELIVRD' : expired ? 'EXPIRED' : 'UNDELIV',
        err: delivered ? '000' : errOf(e.reason),
        submitMs: m.submitMs,
        doneMs: e.at.getTime(),
        text: e.text ?? '',
      };
      if (await insertOutbox(q, m.apiKeyId, 'receipt', e.messageId, body, e.at)) {
        touched.add(m.apiKeyId);
        ctx.metrics.smppReceipts.inc({ stage: 'queued' });
      }
    }
  }
  // After commit, the process holding a receiving bind of the account sends them.
  for (const apiKeyId of touched) await publish(q, { type: 'smpp', apiKeyId });
}

/** Messaging's events → the outbox, in the transaction that recorded them. */
export const smppMessageEvents: MessageEventListener = Object.assign(
  (q: Queryable, e: MessageEvent, ctx: AppContext) => onEvents(q, [e], ctx),
  { many: onEvents },
);

export async function recordSmppMessage(q: Queryable, apiKeyId: string, messageId: string, at: Date) {
  await q.query(
    `INSERT INTO smpp_messages (message_id, api_key_id, created_at) VALUES ($1::bigint, $2::uuid, $3)
     ON CONFLICT (message_id) DO NOTHING`,
    [messageId.slice(1), apiKeyId, at],
  );
}

export async function isSmppMessage(q: Queryable, apiKeyId: string, messageId: string): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM smpp_messages WHERE message_id = $1::bigint AND api_key_id = $2::uuid',
    [messageId.slice(1), apiKeyId],
  );
  return rows.length > 0;
}

/** The account's oldest row not yet acknowledged. */
export async function nextOutbox(q: Queryable, apiKeyId: string): Promise<OutboxRow | undefined> {
  const rows = await q.query<OutboxRow>(
    `SELECT id::text AS id, kind, message_id, body FROM smpp_outbox WHERE api_key_id = $1::uuid
      ORDER BY id LIMIT 1`,
    [apiKeyId],
  );
  const row = rows[0];
  if (row && typeof row.body === 'string') row.body = JSON.parse(row.body);
  return row;
}

export async function deleteOutbox(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM smpp_outbox WHERE id = $1::bigint', [id]);
}

/** YYMMDDhhmm in UTC. */
const shortDate = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(2, 12);

/** A receipt's short_message (the de facto format of SMPP 3.4's Appendix B). */
export function receiptText(id: string, b: ReceiptBody): string {
  const dlvrd = b.stat === 'DELIVRD' ? '001' : '000';
  return `id:${id} sub:001 dlvrd:${dlvrd} submit date:${shortDate(b.submitMs)} done date:${shortDate(
    b.doneMs,
  )} stat:${b.stat} err:${b.err} text:${b.text.slice(0, 20)}`;
}

const RECEIPT_STATE: Record<ReceiptBody['stat'], number> = {
  DELIVRD: MESSAGE_STATE.DELIVERED,
  UNDELIV: MESSAGE_STATE.UNDELIVERABLE,
  EXPIRED: MESSAGE_STATE.EXPIRED,
};

/** The deliver_sm body of an outbox row. */
export function deliverOf(row: OutboxRow): Buffer {
  if (row.kind === 'receipt') {
    const b = row.body as ReceiptBody;
    // data_coding 0: the message's own characters outside the GSM alphabet read '?'.
    const text = [...receiptText(row.message_id, b)].map((ch) => (isGsm(ch) ? ch : '?')).join('');
    return writeDeliver({
      sourceAddr: b.from,
      destinationAddr: b.to,
      esmClass: 0x04,
      dataCoding: 0,
      message: encodeText(text).bytes,
      tlvs: [
        tlv(TLV.receipted_message_id, cstring(row.message_id)),
        tlv(TLV.message_state, Buffer.from([RECEIPT_STATE[b.stat]])),
      ],
    });
  }
  const b = row.body as MoBody;
  const { dataCoding, bytes } = encodeText(b.text);
  return writeDeliver({ sourceAddr: b.from, destinationAddr: b.to, esmClass: 0, dataCoding, message: bytes });
}

/** The job: rows past the age limit, then each account's oldest beyond the count limit, dropped and logged. */
export async function pruneOutbox(
  ctx: AppContext,
  limits = { maxRows: OUTBOX_MAX_ROWS, maxAgeMs: OUTBOX_MAX_AGE_MS },
): Promise<number> {
  const now = ctx.clock.now().getTime();
  const old = await ctx.db.query<{ api_key_id: string; n: number }>(
    `WITH gone AS (DELETE FROM smpp_outbox WHERE created_at < $1 RETURNING api_key_id)
     SELECT api_key_id::text AS api_key_id, count(*)::int AS n FROM gone GROUP BY api_key_id`,
    [new Date(now - limits.maxAgeMs)],
  );
  const extra = await ctx.db.query<{ api_key_id: string; n: number }>(
    `WITH ranked AS (
       SELECT id, row_number() OVER (PARTITION BY api_key_id ORDER BY id DESC) AS r FROM smpp_outbox),
     gone AS (DELETE FROM smpp_outbox o USING ranked WHERE o.id = ranked.id AND ranked.r > $1
              RETURNING o.api_key_id)
     SELECT api_key_id::text AS api_key_id, count(*)::int AS n FROM gone GROUP BY api_key_id`,
    [limits.maxRows],
  );
  for (const r of old)
    ctx.log.warn({ apiKeyId: r.api_key_id, dropped: r.n }, 'smpp outbox: rows too old dropped');
  for (const r of extra)
    ctx.log.warn({ apiKeyId: r.api_key_id, dropped: r.n }, 'smpp outbox: rows beyond the limit dropped');
  const before = new Date(now - SMPP_MESSAGES_MAX_AGE_MS);
  await ctx.db.query('DELETE FROM smpp_messages WHERE created_at < $1', [before]);
  await ctx.db.query('DELETE FROM smpp_conversations WHERE updated_at < $1', [before]);
  return [...old, ...extra].reduce((n, r) => n + r.n, 0);
}
