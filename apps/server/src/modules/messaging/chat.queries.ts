import type { ConversationFilter } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import type { ConversationRow } from './replies.queries.ts';

// The chat's SQL: a user's conversations, one thread (outgoing messages and incoming replies
// merged), read state, the contact, and a reply queued pinned to the conversation's SIM.

const CONVERSATION = `id::text AS id, user_id, receiver, contact_name, note, latest_sms, latest_time, unread_count`;

/** Most threads a conversation list shows (unread first, then newest first). */
export const CONVERSATION_LIST_MAX = 1000;
/** Most messages one thread returns (the newest ones, oldest first). */
export const THREAD_MAX = 1000;

/** What each filter keeps; fixed text (never input), so each one gets its own plan and index. */
const FILTER_WHERE: Record<ConversationFilter, string> = {
  all: '',
  unread: 'AND unread_count > 0',
  // last_reply_at is set with the first incoming reply (replies.queries.ts noteIncoming).
  replied: 'AND last_reply_at IS NOT NULL',
};

/**
 * A user's conversations as an inbox: those with unread replies first, then the rest, each part
 * newest first; read straight off conversations_user_inbox (or its replied-only twin), so a campaign's
 * thousands of silent recipients cost nothing to skip. (`conversations.id`: a bare `id` would be the
 * text column selected, sorted as text and by a sort step.)
 */
export async function listConversations(
  q: Queryable,
  userId: string,
  filter: ConversationFilter = 'all',
): Promise<ConversationRow[]> {
  return q.query<ConversationRow>(
    `SELECT ${CONVERSATION} FROM conversations WHERE user_id = $1 ${FILTER_WHERE[filter]}
      ORDER BY (unread_count > 0) DESC, latest_time DESC, conversations.id DESC
      LIMIT ${CONVERSATION_LIST_MAX}`,
    [userId],
  );
}

/** Conversations with unread replies, and those replies, over all of a user's conversations. */
export async function unreadTotals(
  q: Queryable,
  userId: string,
): Promise<{ conversations: number; replies: number }> {
  const rows = await q.query<{ conversations: number; replies: number }>(
    `SELECT count(*)::int AS conversations, coalesce(sum(unread_count), 0)::int AS replies
       FROM conversations WHERE user_id = $1 AND unread_count > 0`,
    [userId],
  );
  return rows[0]!;
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
    /** What it costs, decimal text. */
    cost: string;
    at: Date;
  },
): Promise<ThreadRow> {
  const rows = await q.query<ThreadRow>(
    `INSERT INTO messages (user_id, conversation_id, recipient, body, status, created_at, pinned_sim_id, mms_file, mms_title, cost)
     VALUES ($1, $2::bigint, $3, $4, 'queued', $5, $6, $7, $8, $9::numeric)
     RETURNING 'o' || id AS id, true AS outgoing, body, created_at AS at, mms_file, status, status_reason`,
    [m.userId, m.conversationId, m.recipient, m.body, m.at, m.simId, m.mmsFile, m.mmsTitle, m.cost],
  );
  await q.query(
    'UPDATE conversations SET latest_sms = $2, latest_time = greatest(latest_time, $3) WHERE id = $1::bigint',
    [m.conversationId, m.latest, m.at],
  );
  return rows[0]!;
}
