-- USSD from a SIM (a balance check, its own number): the last code an admin sent from it and the
-- network's reply are kept on the SIM. A request for a device whose traffic one server process
-- holds (a GoIP box's UDP port) waits in gateway_ussd until that process has run it.
ALTER TABLE sims ADD COLUMN ussd_code text, ADD COLUMN ussd_reply text, ADD COLUMN ussd_at timestamptz;

CREATE TABLE gateway_ussd (
  id bigserial PRIMARY KEY,
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  port text NOT NULL,
  code text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'answered', 'failed')),
  reply text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX gateway_ussd_queued ON gateway_ussd (id) WHERE state = 'queued';
CREATE INDEX gateway_ussd_created ON gateway_ussd (created_at);
