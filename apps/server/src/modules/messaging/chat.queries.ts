import type { Queryable } from '../../db/db.ts';
import type { ConversationRow } from './replies.queries.ts';

// The chat's SQL: a user's conversations, one thread (outgoing messages and incoming replies
// merged), read state, the contact, and a reply queued pinned to the conversation's SIM.

const CONVERSATION = `id::text AS id, user_id, receiver, contact_name, note, latest_sms, latest_time, unread_count`;

/** Most threads a conversation list shows (newest first). */
export const CONVERSATION_LIST_MAX = 1000;
/** Most messages one thread returns (the newest ones, oldest first). */
export const THREAD_MAX = 1000;

export async function listConversations(q: Queryable, userId: string): Promise<ConversationRow[]> {
  return q.query<ConversationRow>(
    `SELECT ${CONVERSATION} FROM conversations WHERE user_id = $1
      ORDER BY latest_time DESC, id DESC LIMIT ${CONVERSATION_LIST_MAX}`,
    [userId],
  );
}

export interface ConversationSimRow extends ConversationRow {
  sim_id: string | null;
  gateway_id: string | null;
  port: string | null;
}

/** The conversation with its SIM, locked for this transaction (a reply and its counters). */
export async function lockConversation(q: Queryable, id: string): Promise<ConversationSimRow | undefined> {
  const rows = await q.query<ConversationSimRow>(
    `SELECT ${CONVERSATION}, sim_id, gateway_id, port FROM conversations WHERE id = $1::bigint FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function conversationWithSim(q: Queryable, id: string): Promise<ConversationSimRow | undefined> {
  const rows = await q.query<ConversationSimRow>(
    `SELECT ${CONVERSATION}, sim_id, gateway_id, port FROM conversations WHERE id = $1::bigint`,
    [id],
  );
  return rows[0];
}

export interface ThreadRow {
  id: string;
  outgoing: boolean;
  body: string;
  at: Date;
  mms_file: string | null;
  status: string | null;
  status_reason: string | null;
}

const OUTGOING = `SELECT 'o' || id AS id, id AS n, true AS outgoing, body, created_at AS at, mms_file, status, status_reason
   FROM messages WHERE conversation_id = $1::bigint`;
const INCOMING = `SELECT 'i' || id AS id, id AS n, false AS outgoing, body, received_at AS at, mms_file,
        NULL::text AS status, NULL::text AS status_reason
   FROM conversation_replies WHERE conversation_id = $1::bigint`;

/** The newest THREAD_MAX messages of a conversation, oldest first (at one instant, ours first). */
export async function thread(q: Queryable, conversationId: string): Promise<ThreadRow[]> {
  const rows = await q.query<ThreadRow>(
    `SELECT * FROM (${OUTGOING} UNION ALL ${INCOMING}) t ORDER BY at DESC, outgoing, n DESC LIMIT ${THREAD_MAX}`,
    [conversationId],
  );
  return rows.reverse();
}

/** Marks every incoming message read; true when something was unread. */
export async function markRead(q: Queryable, conversationId: string): Promise<boolean> {
  const rows = await q.query(
    'UPDATE conversations SET unread_count = 0 WHERE id = $1::bigint AND unread_count > 0 RETURNING id',
    [conversationId],
  );
  await q.query(
    'UPDATE conversation_replies SET is_read = true WHERE conversation_id = $1::bigint AND NOT is_read',
    [conversationId],
  );
  return rows.length > 0;
}

export async function updateContact(
  q: Queryable,
  conversationId: string,
  contactName: string,
  note: string,
): Promise<ConversationRow | undefined> {
  const rows = await q.query<ConversationRow>(
    `UPDATE conversations SET contact_name = $2, note = $3 WHERE id = $1::bigint RETURNING ${CONVERSATION}`,
    [conversationId, contactName, note],
  );
  return rows[0];
}

/** A reply, queued for the dispatcher, pinned to the conversation's SIM; the conversation shows it. */
export async function insertReplyMessage(
  q: Queryable,
  m: {
    userId: string;
    conversationId: string;
    recipient: string;
    body: string;
    simId: string;
    mmsFile: string | null;
    mmsTitle: string | null;
    latest: string;
    at: Date;
  },
): Promise<ThreadRow> {
  const rows = await q.query<ThreadRow>(
    `INSERT INTO messages (user_id, conversation_id, recipient, body, status, created_at, pinned_sim_id, mms_file, mms_title)
     VALUES ($1, $2::bigint, $3, $4, 'queued', $5, $6, $7, $8)
     RETURNING 'o' || id AS id, true AS outgoing, body, created_at AS at, mms_file, status, status_reason`,
    [m.userId, m.conversationId, m.recipient, m.body, m.at, m.simId, m.mmsFile, m.mmsTitle],
  );
  await q.query(
    'UPDATE conversations SET latest_sms = $2, latest_time = greatest(latest_time, $3) WHERE id = $1::bigint',
    [m.conversationId, m.latest, m.at],
  );
  return rows[0]!;
}
