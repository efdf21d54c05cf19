-- An admin's SMPP limits for a user: they replace the defaults of each of the user's credentials
-- (smpp_accounts.rate_per_second and bind_limit). No row: the credential's own values apply.
CREATE TABLE smpp_user_limits (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  rate_per_second integer NOT NULL CHECK (rate_per_second BETWEEN 1 AND 1000),
  bind_limit integer NOT NULL CHECK (bind_limit BETWEEN 1 AND 10),
  updated_at timestamptz NOT NULL DEFAULT now()
);
