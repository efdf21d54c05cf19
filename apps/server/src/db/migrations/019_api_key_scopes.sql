-- API keys (apikey module) become rows of their own: up to 10 per user, each with a name, the
-- scopes it may call, the addresses it may be used from and an optional expiry. The key a user
-- had becomes their default key (the one the spec's /api/user/apikey calls show and reset): name
-- 'Default', every scope, any address, no expiry. The rate limit stays per user (api_rate_limits).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey;
ALTER TABLE api_keys ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE api_keys ADD PRIMARY KEY (id);
ALTER TABLE api_keys ADD COLUMN name text NOT NULL DEFAULT 'Default';
-- The first characters of the key, to recognise it in a list. Filled for new keys; a migrated key's
-- is read from its sealed copy (SQL cannot unseal it).
ALTER TABLE api_keys ADD COLUMN prefix text;
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL
  DEFAULT ARRAY['rental', 'messaging:send', 'messaging:read']::text[];
-- Addresses and CIDR ranges in normal form (checked and normalised by the server); empty: any.
ALTER TABLE api_keys ADD COLUMN allowed_ips text[] NOT NULL DEFAULT '{}';
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN is_default boolean NOT NULL DEFAULT false;
-- Written at most once a minute per key.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
UPDATE api_keys SET is_default = true;
ALTER TABLE api_keys ALTER COLUMN name DROP DEFAULT;
ALTER TABLE api_keys ALTER COLUMN scopes DROP DEFAULT;
-- Only the default key is kept readable for its owner (the spec shows it again); a named key is
-- shown once and only its hash is kept.
ALTER TABLE api_keys ALTER COLUMN key_enc DROP NOT NULL;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_known CHECK (
  cardinality(scopes) >= 1 AND scopes <@ ARRAY['rental', 'messaging:send', 'messaging:read']::text[]
);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_default_readable CHECK (NOT is_default OR key_enc IS NOT NULL);
CREATE UNIQUE INDEX api_keys_one_default ON api_keys (user_id) WHERE is_default;
CREATE INDEX api_keys_user ON api_keys (user_id, created_at DESC);
