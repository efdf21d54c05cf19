CREATE TABLE services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  code text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  price numeric(14, 2) NOT NULL CHECK (price > 0),
  -- The admin's cap on numbers rented at once for this service.
  stock integer NOT NULL DEFAULT 100 CHECK (stock >= 0),
  pattern text NOT NULL,
  text_contains text NOT NULL DEFAULT '',
  rent_time_minutes integer NOT NULL DEFAULT 20 CHECK (rent_time_minutes >= 0),
  is_repeatable boolean NOT NULL DEFAULT false,
  is_enable boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services (id) ON DELETE RESTRICT,
  gateway_id uuid REFERENCES gateways (id) ON DELETE SET NULL,
  gateway_name text NOT NULL,
  sim_id uuid REFERENCES sims (id) ON DELETE SET NULL,
  port text NOT NULL,
  phone_number text NOT NULL,
  price numeric(14, 2) NOT NULL,
  status text NOT NULL CHECK (status IN ('WAIT_CODE', 'SUCCESS', 'CANCEL')),
  code_text text,
  sms_text text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  finished_at timestamptz
);
-- A number serves a service once, ever: the service would reject a reused number.
CREATE UNIQUE INDEX orders_number_once_per_service ON orders (phone_number, service_id);
CREATE INDEX orders_user ON orders (user_id, created_at DESC);
CREATE INDEX orders_open ON orders (expires_at) WHERE status = 'WAIT_CODE';
CREATE INDEX orders_sim_open ON orders (sim_id) WHERE status IN ('WAIT_CODE', 'SUCCESS');

-- Every code an order received (repeatable services receive several).
CREATE TABLE order_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  sms_id uuid NOT NULL REFERENCES incoming_sms (id) ON DELETE CASCADE,
  code_text text,
  sms_text text NOT NULL,
  received_at timestamptz NOT NULL,
  UNIQUE (order_id, sms_id)
);

-- Gateway online history, sampled by the workers, for an honest Uptime figure.
CREATE TABLE gateway_uptime (
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  online boolean NOT NULL,
  PRIMARY KEY (gateway_id, minute)
);
