-- Chat as a reply inbox: conversations with unread replies first, then the rest newest first, and
-- the filters Unread and Replied (at least one incoming reply). A campaign makes thousands of
-- conversations that never get an answer; the few that do must not sink under them.

-- When the latest incoming reply arrived; null while the recipient never answered.
ALTER TABLE conversations ADD COLUMN last_reply_at timestamptz;
UPDATE conversations c SET last_reply_at = r.at
  FROM (SELECT conversation_id, max(received_at) AS at FROM conversation_replies GROUP BY conversation_id) r
 WHERE r.conversation_id = c.id;

-- The list's order, read off the index (All; Unread is its leading part). It replaces the plain
-- newest-first index, which only that list used.
DROP INDEX conversations_user_latest;
CREATE INDEX conversations_user_inbox
  ON conversations (user_id, (unread_count > 0) DESC, latest_time DESC, id DESC);
-- Replied: the same order over the conversations that got an answer, a small part of the rows.
CREATE INDEX conversations_user_replied
  ON conversations (user_id, (unread_count > 0) DESC, latest_time DESC, id DESC)
  WHERE last_reply_at IS NOT NULL;
