-- Number reuse (rental): a rental that ended without any SMS gives its number back to the service's
-- pool, up to NUMBER_REUSE_LIMIT times; a number is spent for a service once one of its orders for
-- that service received an SMS, after too many empty rentals, or when an admin marks it.
--
-- The old index allowed one order per number and service, ever. Now several (ended, empty) orders
-- may exist for a pair, but never two open ones: the partial unique index below keeps at most one
-- order per pair waiting for a code or holding one (WAIT_CODE, or SUCCESS: a repeatable rental
-- that still takes codes; a number whose order got a code is spent, so a second SUCCESS cannot
-- come either). The rent's reuse check reads the pair's orders through the plain index.
DROP INDEX orders_number_once_per_service;
CREATE UNIQUE INDEX orders_number_open_per_service ON orders (phone_number, service_id)
  WHERE status IN ('WAIT_CODE', 'SUCCESS');
CREATE INDEX orders_number_service ON orders (phone_number, service_id);

-- Numbers an admin marked spent for a service (e.g. the service banned them). Numbers spent by a
-- code or by the reuse limit are not stored: they follow from the orders.
CREATE TABLE number_spent (
  phone_number text NOT NULL,
  service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
  reason text NOT NULL,
  marked_by uuid REFERENCES users (id) ON DELETE SET NULL,
  marked_by_name text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (service_id, phone_number)
);
