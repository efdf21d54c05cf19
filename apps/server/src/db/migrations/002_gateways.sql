CREATE TABLE gateways (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  url text NOT NULL,
  -- Normalised lower-case colon form, aa:bb:cc:dd:ee:ff.
  mac text NOT NULL UNIQUE,
  user_name text NOT NULL,
  -- Encrypted with the server secret (AES-256-GCM); never returned by the API.
  password_enc text NOT NULL,
  is_enable boolean NOT NULL DEFAULT true,
  -- Pushes carry no credentials: the secret in the push URL identifies the device.
  push_secret text NOT NULL,
  total_sim integer NOT NULL DEFAULT 0,
  last_update timestamptz,
  max_ports integer,
  max_slots integer,
  ip text,
  firmware text,
  -- Pull catch-up position in the device inbox (goip_get_sms), reset when its ssrc changes.
  sms_ssrc text,
  sms_next_id integer NOT NULL DEFAULT 1,
  -- When the next pull catch-up is due; claiming it (UPDATE ... RETURNING) moves it forward, so
  -- with several server processes only one pulls a gateway per period.
  sms_pull_due timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- SIM inventory, one row per gateway port and slot ("N.SS").
CREATE TABLE sims (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  port text NOT NULL,
  iccid text,
  imsi text,
  imei text,
  number text,
  number_source text CHECK (number_source IN ('device', 'manual')),
  operator text,
  signal integer,
  state integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gateway_id, port)
);
CREATE INDEX sims_number ON sims (number) WHERE number IS NOT NULL;

-- Numbers an admin entered by hand, keyed by ICCID: they follow the card across removal,
-- re-insertion and moves between ports, and win over the device's `sn`.
CREATE TABLE sim_numbers (
  iccid text PRIMARY KEY,
  number text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Every incoming SMS, stored exactly once (dedupe_key), then handed to its consumers.
CREATE TABLE incoming_sms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  gateway_id uuid REFERENCES gateways (id) ON DELETE SET NULL,
  port text NOT NULL,
  -- The card in the port when the SMS arrived (ports are re-used by other SIMs later).
  iccid text,
  sender text NOT NULL,
  recipient text,
  body text NOT NULL,
  -- Carrier delivery receipts (recv-sms flag 1): stored, never handed to consumers.
  is_report boolean NOT NULL DEFAULT false,
  device_ts bigint,
  received_at timestamptz NOT NULL,
  dedupe_key text NOT NULL UNIQUE,
  -- Set when a consumer (rental order, chat) took it; unmatched SMS stay visible to admins.
  matched boolean NOT NULL DEFAULT false
);
CREATE INDEX incoming_sms_received ON incoming_sms (received_at DESC);
CREATE INDEX incoming_sms_gateway_port ON incoming_sms (gateway_id, port, received_at DESC);
