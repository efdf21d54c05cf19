-- Renters must not empty a service's pool for free (number reuse) and sending keeps a share of the
-- SIMs nobody can rent away.

-- Whether the renter cancelled the order (an expired one is cancelled by the sweep: false). Only
-- expired empty rentals, and one cancellation per user, count toward NUMBER_REUSE_LIMIT; the
-- cancellations of the last hour are capped per user (RENTAL_CANCELS_PER_HOUR). Existing cancelled
-- orders cannot be told apart: they stay counted as before (false), and an admin can return the
-- numbers they spent.
ALTER TABLE orders ADD COLUMN cancelled_by_user boolean NOT NULL DEFAULT false;
CREATE INDEX orders_user_cancels ON orders (user_id, finished_at) WHERE cancelled_by_user;

-- An admin returned a spent number to a service's pool: the pair's orders up to after_order_id no
-- longer count (the reuse limit, an SMS without a code); an order with a code always keeps it out.
CREATE TABLE number_returns (
  service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  after_order_id bigint NOT NULL,
  returned_by uuid REFERENCES users (id) ON DELETE SET NULL,
  returned_by_name text NOT NULL,
  returned_at timestamptz NOT NULL,
  PRIMARY KEY (service_id, phone_number)
);

-- SIMs kept for sending: the share (percent, rounded down) of the online SIMs with role Both that
-- rentals may not take; bulk SMS and chat always have them (roles still reserve SIMs outright).
ALTER TABLE sim_settings ADD COLUMN kept_for_sending_percent integer NOT NULL DEFAULT 20
  CHECK (kept_for_sending_percent BETWEEN 0 AND 100);
