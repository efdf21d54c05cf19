-- Messaging: bulk SMS settings, campaigns, one row per outgoing message, conversations with their
-- replies, opt-outs, the per-user daily counter and the per-SIM send pace.

-- The admin's limits (spec §3): one row, both 0 until an admin sets them (0 = nothing can be sent).
CREATE TABLE messaging_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  max_batch_send_sms integer NOT NULL DEFAULT 0 CHECK (max_batch_send_sms >= 0),
  max_msg_per_day integer NOT NULL DEFAULT 0 CHECK (max_msg_per_day >= 0),
  updated_at timestamptz,
  updated_by text
);
INSERT INTO messaging_settings (id) VALUES (true);

CREATE TABLE campaigns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Messages stored (recipients after duplicates and opt-outs).
  total integer NOT NULL,
  duplicates_removed integer NOT NULL DEFAULT 0,
  skipped_opt_out integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  cancelled_at timestamptz
);
CREATE INDEX campaigns_user ON campaigns (user_id, id DESC);

-- One conversation per (user, recipient): every outgoing message belongs to one; it remembers the
-- SIM that wrote last (replies from the recipient to a SIM that wrote to them land here).
CREATE TABLE conversations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  receiver text NOT NULL,
  contact_name text NOT NULL DEFAULT '',
  note text NOT NULL DEFAULT '',
  sim_id uuid,
  gateway_id uuid,
  port text,
  latest_sms text NOT NULL DEFAULT '',
  latest_time timestamptz NOT NULL,
  -- Incoming messages not read yet (the chat badge).
  unread_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, receiver)
);
CREATE INDEX conversations_user_latest ON conversations (user_id, latest_time DESC);

-- Outgoing messages. status: queued → sending (claimed by a dispatcher, under a lease) → sent
-- (accepted by the device) → delivered | failed; queued/sending → cancelled. A failure that means
-- "this SIM cannot send" goes back to queued with attempt + 1 and the SIM in tried_sims.
CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  campaign_id bigint REFERENCES campaigns (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  recipient text NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled')),
  attempt smallint NOT NULL DEFAULT 0,
  tried_sims uuid[] NOT NULL DEFAULT '{}',
  not_before timestamptz,
  -- The claim: which dispatcher batch holds it and until when.
  claim_id uuid,
  lease_until timestamptz,
  -- Where it went (kept after the gateway or SIM is gone: no foreign keys).
  sim_id uuid,
  gateway_id uuid,
  gateway_name text,
  port text,
  -- The device task id of the current attempt, derived from (id, attempt).
  tid integer,
  status_reason text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  done_at timestamptz,
  -- First reply from the recipient after this message.
  replied_at timestamptz
);
-- The dispatcher's queue, its expired leases, device results and the result timeout.
CREATE INDEX messages_queued ON messages (id) WHERE status = 'queued';
CREATE INDEX messages_leased ON messages (lease_until) WHERE status = 'sending';
CREATE INDEX messages_in_flight ON messages (gateway_id, tid) WHERE status IN ('sending', 'sent');
CREATE INDEX messages_awaiting_result ON messages (sent_at) WHERE status = 'sent';
-- History: a user's messages by time, everyone's by time (Admin9); campaign progress.
CREATE INDEX messages_user_time ON messages (user_id, created_at DESC, id DESC);
CREATE INDEX messages_time ON messages (created_at DESC, id DESC);
CREATE INDEX messages_campaign ON messages (campaign_id, status);
-- A conversation's messages (the chat thread; deleting a user's conversations).
CREATE INDEX messages_conversation ON messages (conversation_id, id);
-- Reply attribution: the latest message to this number from this SIM.
CREATE INDEX messages_recipient_sim ON messages (recipient, sim_id, id DESC);
CREATE INDEX messages_replied ON messages (user_id, created_at) WHERE replied_at IS NOT NULL;

-- Incoming messages of a conversation (replies), one per stored incoming SMS.
CREATE TABLE conversation_replies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The outgoing message it answers.
  message_id bigint REFERENCES messages (id) ON DELETE SET NULL,
  sms_id uuid NOT NULL UNIQUE,
  sender text NOT NULL,
  body text NOT NULL,
  sim_id uuid,
  gateway_id uuid,
  port text,
  is_read boolean NOT NULL DEFAULT false,
  received_at timestamptz NOT NULL
);
CREATE INDEX conversation_replies_conversation ON conversation_replies (conversation_id, id);
CREATE INDEX conversation_replies_message ON conversation_replies (message_id);
CREATE INDEX conversation_replies_user_time ON conversation_replies (user_id, received_at);
CREATE INDEX conversation_replies_time ON conversation_replies (received_at);

-- Recipients who asked a user not to message them again (STOP); START removes the row.
CREATE TABLE opt_outs (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  number text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, number)
);

-- Messages a user queued per UTC day (MaxMsgPerDay); the row lock serialises concurrent sends.
CREATE TABLE messaging_daily_usage (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day date NOT NULL,
  used integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (user_id, day)
);

-- When each SIM may take its next message (the per-SIM rate limit, shared by every dispatcher).
CREATE TABLE messaging_sim_pace (
  sim_id uuid PRIMARY KEY,
  next_at timestamptz NOT NULL
);
