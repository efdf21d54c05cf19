-- Sends the platform holds for devices it cannot hand them to in one request: a GoIP box takes its
-- sends in a UDP session from the one server process that holds the kind's port. Any process
-- enqueues (the message's task id, its SIM's port, recipient and text); the holder runs them and
-- reports each outcome the way a device reports its sends. `device_ref` is the device's own number
-- of a sent SMS: its later delivery report names it.
CREATE TABLE gateway_outbox (
  id bigserial PRIMARY KEY,
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  tid bigint NOT NULL,
  port text NOT NULL,
  recipient text NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'delivered', 'undelivered')),
  attempts integer NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL,
  device_ref text,
  device_text text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- A task handed over twice (a retried request) is held once.
  UNIQUE (gateway_id, tid)
);
CREATE INDEX gateway_outbox_queued ON gateway_outbox (not_before, id) WHERE state = 'queued';
CREATE INDEX gateway_outbox_sending ON gateway_outbox (gateway_id) WHERE state = 'sending';
CREATE INDEX gateway_outbox_ref ON gateway_outbox (gateway_id, port, device_ref) WHERE device_ref IS NOT NULL;
CREATE INDEX gateway_outbox_created ON gateway_outbox (created_at);
