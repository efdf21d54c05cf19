-- SIM health (gateways module): per-SIM counters, locks and roles, and the SIM limits the admin
-- sets on the Settings page (saved with the bulk SMS limits, stored here by the gateways module).

-- Which job a SIM may do: rental only, messaging (bulk SMS and chat) only, or both.
ALTER TABLE sims ADD COLUMN role text NOT NULL DEFAULT 'both' CHECK (role IN ('rental', 'messaging', 'both'));

-- One row per SIM (port slot) once something happened to it. Counters of a period (UTC day, month)
-- carry the period they count; a row of an older period reads as 0 and restarts at the next count.
CREATE TABLE sim_health (
  sim_id uuid PRIMARY KEY REFERENCES sims (id) ON DELETE CASCADE,
  sent_day date,
  sent_today integer NOT NULL DEFAULT 0,
  sent_month date,
  sent_this_month integer NOT NULL DEFAULT 0,
  failed_total integer NOT NULL DEFAULT 0,
  -- Send failures this SIM is to blame for since its last success.
  consecutive_failures integer NOT NULL DEFAULT 0,
  rentals_day date,
  rentals_today integer NOT NULL DEFAULT 0,
  last_success_at timestamptz,
  -- The lock: set while locked_at is not null and locked_until is null or later than now.
  -- lock_kind: auto (failed sends), device (the device reports it blocked), manual (an admin).
  locked_at timestamptz,
  lock_kind text CHECK (lock_kind IN ('auto', 'device', 'manual')),
  lock_reason text,
  locked_until timestamptz,
  locked_by text
);
CREATE INDEX sim_health_locked ON sim_health (locked_until) WHERE locked_at IS NOT NULL;

CREATE TABLE sim_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- 0 = no cap.
  max_sms_per_day integer NOT NULL DEFAULT 0 CHECK (max_sms_per_day >= 0),
  max_sms_per_month integer NOT NULL DEFAULT 0 CHECK (max_sms_per_month >= 0),
  -- 0 = never locked automatically.
  lock_after_failures integer NOT NULL DEFAULT 5 CHECK (lock_after_failures >= 0),
  -- 0 = an automatic lock stays until an admin unlocks the SIM.
  cooldown_minutes integer NOT NULL DEFAULT 60 CHECK (cooldown_minutes >= 0)
);
INSERT INTO sim_settings (id) VALUES (true);
