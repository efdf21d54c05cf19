-- Calls a device reported on a SIM (a GoIP line's RECORD): kept for later use (a call as a rental's
-- code, call statistics), nothing reads them yet. Kept as long as the incoming SMS no one took.
CREATE TABLE device_calls (
  id bigserial PRIMARY KEY,
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  port text NOT NULL,
  direction text CHECK (direction IN ('incoming', 'outgoing')),
  number text,
  at timestamptz NOT NULL
);
CREATE INDEX device_calls_gateway_at ON device_calls (gateway_id, at);
CREATE INDEX device_calls_at ON device_calls (at);
