-- A TOTP second factor (RFC 6238) per user (auth module). The secret is sealed with APP_SECRET
-- like other secrets at rest. A row with enabled_at NULL is an enrolment that was started and not
-- yet confirmed with a code; starting again replaces it.
CREATE TABLE user_second_factors (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_enc text NOT NULL,
  enabled_at timestamptz,
  -- The last TOTP time step a code was accepted for: a code (and any older one) is accepted once.
  last_step bigint NOT NULL DEFAULT 0
);

-- Single-use recovery codes, only their SHA-256 kept (they are long random values, so a fast hash
-- is enough). A regeneration deletes every old one.
CREATE TABLE second_factor_recovery_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- The second sign-in step: issued after a correct password, kept as a hash, valid a few minutes,
-- void after a number of wrong codes (counted here, so parallel guesses are counted too).
CREATE TABLE second_factor_challenges (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  attempts int NOT NULL DEFAULT 0
);
CREATE INDEX second_factor_challenges_expiry ON second_factor_challenges (expires_at);
