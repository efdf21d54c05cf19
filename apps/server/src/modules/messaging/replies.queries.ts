import type { Queryable } from '../../db/db.ts';

/** The latest message to `recipient` that this SIM handed to its device before `before`. */
export async function latestMessageFromSimTo(
  q: Queryable,
  recipient: string,
  simId: string,
  before: Date,
): Promise<{ id: string; user_id: string; conversation_id: string } | undefined> {
  const rows = await q.query<{ id: string; user_id: string; conversation_id: string }>(
    `SELECT id::text AS id, user_id, conversation_id::text AS conversation_id
       FROM messages
      WHERE recipient = $1 AND sim_id = $2 AND status IN ('sent', 'delivered') AND sent_at <= $3
      ORDER BY messages.id DESC LIMIT 1`,
    [recipient, simId, before],
  );
  return rows[0];
}

/** Stores a reply once per incoming SMS; its id, or undefined when it was stored already. */
export async function insertReply(
  q: Queryable,
  r: {
    conversationId: string;
    userId: string;
    messageId: string;
    smsId: string;
    sender: string;
    body: string;
    simId: string;
    gatewayId: string | null;
    port: string;
    at: Date;
  },
): Promise<string | undefined> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO conversation_replies
       (conversation_id, user_id, message_id, sms_id, sender, body, sim_id, gateway_id, port, received_at)
     VALUES ($1::bigint, $2, $3::bigint, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (sms_id) DO NOTHING RETURNING id::text AS id`,
    [r.conversationId, r.userId, r.messageId, r.smsId, r.sender, r.body, r.simId, r.gatewayId, r.port, r.at],
  );
  return rows[0]?.id;
}

/** The picture or video of an incoming MMS, shown with the reply. */
export async function setReplyMedia(q: Queryable, replyId: string, name: string): Promise<void> {
  await q.query('UPDATE conversation_replies SET mms_file = $2 WHERE id = $1::bigint', [replyId, name]);
}

/** The conversation shows the reply as its latest message, unread, and counts as replied. */
export async function noteIncoming(
  q: Queryable,
  conversationId: string,
  text: string,
  at: Date,
): Promise<void> {
  await q.query(
    `UPDATE conversations SET latest_sms = $2, latest_time = greatest(latest_time, $3), unread_count = unread_count + 1,
            last_reply_at = greatest(last_reply_at, $3)
      WHERE id = $1::bigint`,
    [conversationId, text, at],
  );
}

export async function markReplied(q: Queryable, messageId: string, at: Date): Promise<void> {
  await q.query('UPDATE messages SET replied_at = coalesce(replied_at, $2) WHERE id = $1::bigint', [
    messageId,
    at,
  ]);
}

/** After a STOP: the user's messages to that number that no device has taken are cancelled. */
export async function cancelQueuedTo(
  q: Queryable,
  userId: string,
  recipient: string,
  at: Date,
): Promise<string[]> {
  const rows = await q.query<{ campaign_id: string | null }>(
    `UPDATE messages SET status = 'cancelled', done_at = $3, status_reason = 'The recipient opted out (STOP).'
      WHERE user_id = $1 AND recipient = $2 AND status = 'queued'
      RETURNING campaign_id::text AS campaign_id`,
    [userId, recipient, at],
  );
  return [...new Set(rows.map((r) => r.campaign_id).filter((c): c is string => c !== null))];
}

export interface ConversationRow {
  id: string;
  user_id: string;
  receiver: string;
  contact_name: string;
  note: string;
  latest_sms: string;
  latest_time: Date;
  unread_count: number;
}

export async function findConversation(q: Queryable, id: string): Promise<ConversationRow | undefined> {
  const rows = await q.query<ConversationRow>(
    `SELECT id::text AS id, user_id, receiver, contact_name, note, latest_sms, latest_time, unread_count
       FROM conversations WHERE id = $1::bigint`,
    [id],
  );
  return rows[0];
}
