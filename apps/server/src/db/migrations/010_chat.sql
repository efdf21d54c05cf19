-- Chat (issue 10). A reply is an outgoing message pinned to the SIM its conversation wrote from
-- (the number the recipient knows): the dispatcher never gives it to another SIM. MMS media live
-- in the database (every server process reads the same), under random names.
ALTER TABLE messages ADD COLUMN pinned_sim_id uuid;
ALTER TABLE messages ADD COLUMN mms_file text;
ALTER TABLE messages ADD COLUMN mms_title text;
ALTER TABLE conversation_replies ADD COLUMN mms_file text;
-- Pinned messages waiting for their SIM (failed when it does not come back in time).
CREATE INDEX messages_pinned_queued ON messages (created_at) WHERE status = 'queued' AND pinned_sim_id IS NOT NULL;

CREATE TABLE messaging_media (
  -- "<random>.<ext>": the only handle a client ever sees.
  name text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  content_type text NOT NULL,
  size integer NOT NULL CHECK (size >= 0),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX messaging_media_user ON messaging_media (user_id);
CREATE INDEX messaging_media_created ON messaging_media (created_at);
-- Which files messages use (uploads never sent are removed by a job).
CREATE INDEX messages_mms_file ON messages (mms_file) WHERE mms_file IS NOT NULL;
CREATE INDEX conversation_replies_mms_file ON conversation_replies (mms_file) WHERE mms_file IS NOT NULL;
