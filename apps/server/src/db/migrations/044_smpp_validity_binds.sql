-- Messaging: a queued message not sent by this time fails as expired (SMPP's validity_period).
ALTER TABLE messages ADD COLUMN valid_until timestamptz;
CREATE INDEX messages_valid_until ON messages (valid_until) WHERE status = 'queued' AND valid_until IS NOT NULL;

-- SMPP: one row per live bind, in whichever process, so the bind limit counts them all. Each
-- process refreshes seen_at of its rows; rows of a crashed process go stale and are ignored.
CREATE TABLE smpp_binds (
  id uuid PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES smpp_accounts (api_key_id) ON DELETE CASCADE,
  process_id text NOT NULL,
  host text NOT NULL,
  bound_at timestamptz NOT NULL,
  seen_at timestamptz NOT NULL
);
CREATE INDEX smpp_binds_account ON smpp_binds (api_key_id, seen_at);
CREATE INDEX smpp_binds_process ON smpp_binds (process_id);
