import type { Queryable } from '../../db/db.ts';

// The messaging API's reads: a user's messages (sent ones from `messages`, received ones from
// `conversation_replies`, under the chat's ids `o<n>` and `i<n>`), and their conversations.

export interface ApiMessageRow {
  id: string;
  direction: 'in' | 'out';
  status: string;
  phone_number: string;
  text: string;
  mms_file: string | null;
  cost: string | null;
  refunded: boolean;
  campaign_id: string | null;
  conversation_id: string;
  sim_id: string | null;
  reason: string | null;
  created_at: Date;
  sent_at: Date | null;
  done_at: Date | null;
  send_at: Date | null;
}

const OUT = `SELECT 'o' || m.id AS id, 'out' AS direction, m.status, m.recipient AS phone_number, m.body AS text,
        m.mms_file, m.cost::text AS cost, m.refunded_at IS NOT NULL AS refunded, m.campaign_id::text AS campaign_id,
        m.conversation_id::text AS conversation_id, m.sim_id::text AS sim_id, m.status_reason AS reason,
        m.created_at, m.sent_at, m.done_at, CASE WHEN m.status = 'queued' THEN m.not_before END AS send_at,
        m.id AS n
   FROM messages m WHERE m.user_id = $1`;
const IN = `SELECT 'i' || r.id AS id, 'in' AS direction, 'received' AS status, r.sender AS phone_number,
        r.body AS text, r.mms_file, NULL::text AS cost, false AS refunded, NULL::text AS campaign_id,
        r.conversation_id::text AS conversation_id, r.sim_id::text AS sim_id, NULL::text AS reason,
        r.received_at AS created_at, NULL::timestamptz AS sent_at, NULL::timestamptz AS done_at,
        NULL::timestamptz AS send_at, r.id AS n
   FROM conversation_replies r WHERE r.user_id = $1`;

/** One of the user's messages by its API id; undefined when it is not theirs (or not one). */
export async function apiMessage(
  q: Queryable,
  userId: string,
  id: string,
): Promise<ApiMessageRow | undefined> {
  const n = id.slice(1);
  const sql = id.startsWith('o') ? `${OUT} AND m.id = $2::bigint` : `${IN} AND r.id = $2::bigint`;
  return (await q.query<ApiMessageRow>(sql, [userId, n]))[0];
}

/** The messages of one send, in the order they were queued. */
export async function campaignApiMessages(
  q: Queryable,
  userId: string,
  campaignId: string,
): Promise<ApiMessageRow[]> {
  return q.query<ApiMessageRow>(`${OUT} AND m.campaign_id = $2::bigint ORDER BY m.id`, [userId, campaignId]);
}

/** A page of the user's messages, newest first; one more row than `limit` says a next page has more. */
export async function apiMessages(
  q: Queryable,
  userId: string,
  f: { direction?: 'in' | 'out' | undefined; since?: Date | undefined; conversation?: string | undefined },
  limit: number,
  offset: number,
): Promise<ApiMessageRow[]> {
  const params: unknown[] = [userId];
  const out: string[] = [];
  const inc: string[] = [];
  if (f.since) {
    params.push(f.since);
    out.push(`m.created_at >= $${params.length}`);
    inc.push(`r.received_at >= $${params.length}`);
  }
  if (f.conversation) {
    params.push(f.conversation);
    out.push(`m.conversation_id = $${params.length}::bigint`);
    inc.push(`r.conversation_id = $${params.length}::bigint`);
  }
  const where = (base: string, extra: string[]) =>
    extra.length ? `${base} AND ${extra.join(' AND ')}` : base;
  const sides = [
    ...(f.direction !== 'in' ? [where(OUT, out)] : []),
    ...(f.direction !== 'out' ? [where(IN, inc)] : []),
  ];
  params.push(limit + 1, offset);
  return q.query<ApiMessageRow>(
    `SELECT * FROM (${sides.join(' UNION ALL ')}) t ORDER BY created_at DESC, n DESC
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}

export interface ApiConversationRow {
  id: string;
  receiver: string;
  contact_name: string;
  latest_sms: string;
  latest_time: Date;
  unread_count: number;
  sim_id: string | null;
}

/** A page of the user's conversations, newest first (one more row than `limit`). */
export async function apiConversations(
  q: Queryable,
  userId: string,
  limit: number,
  offset: number,
): Promise<ApiConversationRow[]> {
  return q.query<ApiConversationRow>(
    `SELECT id::text AS id, receiver, contact_name, latest_sms, latest_time, unread_count, sim_id::text AS sim_id
       FROM conversations WHERE user_id = $1 ORDER BY latest_time DESC, id DESC LIMIT $2 OFFSET $3`,
    [userId, limit + 1, offset],
  );
}
