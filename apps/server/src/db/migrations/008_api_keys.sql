-- API keys (apikey module): one per user, sealed with APP_SECRET (AES-256-GCM) so its owner can
-- read it again, and found by its SHA-256 hash. A reset replaces the row: the old hash is gone at once.
CREATE TABLE api_keys (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  key_enc text NOT NULL,
  created_at timestamptz NOT NULL
);
-- The first design kept the key on users; nothing ever wrote these columns.
ALTER TABLE users DROP COLUMN IF EXISTS api_key_hash;
ALTER TABLE users DROP COLUMN IF EXISTS api_key_enc;

-- Calls made with a user's API key per fixed window, shared by every server process (like
-- auth_throttle). Keyed by user, so a key reset does not reset the count.
CREATE TABLE api_rate_limits (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);

-- Rental: "another SMS" (SMS-Activate setStatus 3) and "finish" (setStatus 6) on an order.
ALTER TABLE orders ADD COLUMN retry_requested_at timestamptz;
ALTER TABLE orders ADD COLUMN closed_at timestamptz;

-- Webhooks (webhooks module): up to 3 URLs per user, each with its own signing secret (sealed).
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret_enc text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, url)
);

-- One row per event and URL, created in the transaction that saw the event; a job claims due rows
-- (FOR UPDATE SKIP LOCKED plus a lease) and POSTs them, retrying with backoff.
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event text NOT NULL,
  -- What the event is about (e.g. `order_code:42:<sms id>`): one delivery per event and URL.
  ref text NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  UNIQUE (webhook_id, ref)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id, id DESC);

-- Every try of a delivery: the delivery log.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  ok boolean NOT NULL,
  http_status integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);
