-- Sign-in device tokens (auth module): a browser that signed in keeps a random token; sending it
-- back exempts its sign-ins from the per-account failure limit, so guessing from elsewhere cannot
-- lock the owner out. Only the SHA-256 hash is kept.
CREATE TABLE device_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL
);
CREATE INDEX device_tokens_user ON device_tokens (user_id, last_used_at);
