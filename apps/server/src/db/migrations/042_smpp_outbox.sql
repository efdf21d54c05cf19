-- What SMPP customers are owed as deliver_sm: receipts of their SMPP messages and replies to them,
-- kept until the client acknowledges each (deliver_sm_resp), so a disconnect loses nothing.
CREATE TABLE smpp_outbox (
  id bigserial PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES smpp_accounts (api_key_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('receipt', 'mo')),
  message_id text NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX smpp_outbox_account ON smpp_outbox (api_key_id, id);
CREATE INDEX smpp_outbox_created ON smpp_outbox (created_at);

-- The messages an account submitted over SMPP (query_sm answers only these).
CREATE TABLE smpp_messages (
  message_id bigint PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES smpp_accounts (api_key_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);
CREATE INDEX smpp_messages_created ON smpp_messages (created_at);

-- Conversations an SMPP message went out in: a reply in one becomes an MO deliver_sm to the account
-- that wrote last, addressed to the source_addr it used.
CREATE TABLE smpp_conversations (
  conversation_id text PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES smpp_accounts (api_key_id) ON DELETE CASCADE,
  source_addr text NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX smpp_conversations_updated ON smpp_conversations (updated_at);
