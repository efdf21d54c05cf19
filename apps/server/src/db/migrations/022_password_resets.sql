-- Password recovery (auth module): one row per emailed reset link. Only a SHA-256 of the link's
-- token is kept, so a copy of the database opens no account. A new request deletes the user's
-- older rows (the newest link alone works); a used link keeps its row with used_at set.
CREATE TABLE password_resets (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);
