-- Devices of more than one family (the driver): a device is known by (driver, external id), its
-- own id in its protocol (the MAC of a box, the SMSGate id of a phone). The MAC stays the box's
-- column (the API's `mac`, the device-stats lookup); a phone has none.
ALTER TABLE gateways ALTER COLUMN mac DROP NOT NULL;
ALTER TABLE gateways ADD COLUMN external_id text;
UPDATE gateways SET external_id = mac;
CREATE UNIQUE INDEX gateways_driver_external_id ON gateways (driver, external_id);
ALTER TABLE gateways ADD CONSTRAINT gateways_box_has_mac CHECK (driver <> 'ejoin' OR mac IS NOT NULL);
-- A phone's mode (SMSGate: local, cloud, private); null for a box.
ALTER TABLE gateways ADD COLUMN mode text;
-- The key a phone signs its webhooks with, sealed like the password.
ALTER TABLE gateways ADD COLUMN signing_key_enc text;
-- The device's model as it reports it (a phone's "samsung/a52qnsxx").
ALTER TABLE gateways ADD COLUMN model text;

-- Pushes the device gave an id (a phone's webhook delivery id, kept by its retries): each is applied
-- once, so a replayed push changes nothing. Rows older than the signature window are forgotten.
CREATE TABLE device_push_ids (
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (gateway_id, event_id)
);
CREATE INDEX device_push_ids_seen ON device_push_ids (seen_at);
