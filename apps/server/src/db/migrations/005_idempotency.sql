-- Rental: a retried rent with the same Idempotency-Key returns the first order instead of renting
-- again. Kept per user; old keys may be pruned after a day.
CREATE TABLE order_requests (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  service_code text NOT NULL,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
