-- A SIM's state is the platform's word (SimState in the contract), mapped by each driver from its
-- device's code; the device's own words are kept beside it for people. Until now `state` held the
-- box's `st` code (docs/devices.md, "SIM states"), which the other drivers imitated: existing rows
-- map with the box's table. Only a box gave words of its own, so only its rows get them.
ALTER TABLE sims ADD COLUMN device_state text;

UPDATE sims s
   SET device_state = CASE s.state
         WHEN 0 THEN 'No SIM' WHEN 1 THEN 'Idle SIM' WHEN 2 THEN 'Registering' WHEN 3 THEN 'Registered'
         WHEN 4 THEN 'Call connected' WHEN 5 THEN 'No balance / alarm' WHEN 6 THEN 'Registration failed'
         WHEN 7 THEN 'Locked by device' WHEN 8 THEN 'Locked by operator' WHEN 9 THEN 'SIM error'
         WHEN 11 THEN 'Card detected' WHEN 12 THEN 'User locked' WHEN 13 THEN 'Inter-calling'
         WHEN 14 THEN 'Inter-calling hold' WHEN 15 THEN 'Accessing mobile network' WHEN 16 THEN 'Module timeout'
         ELSE 'State ' || s.state END
  FROM gateways g
 WHERE g.id = s.gateway_id AND g.driver = 'ejoin';

ALTER TABLE sims ALTER COLUMN state DROP DEFAULT;
-- Usable were 3, 4 and 15 (now ready and busy); blocked, locking the SIM, were 5–9 and 12.
ALTER TABLE sims ALTER COLUMN state TYPE text USING CASE
  WHEN state = 0 THEN 'empty'
  WHEN state IN (1, 2, 11) THEN 'starting'
  WHEN state = 3 THEN 'ready'
  WHEN state IN (4, 15) THEN 'busy'
  WHEN state IN (5, 6, 7, 8, 9, 12) THEN 'blocked'
  ELSE 'unknown' END;
ALTER TABLE sims ALTER COLUMN state SET DEFAULT 'empty';
ALTER TABLE sims ADD CONSTRAINT sims_state_known
  CHECK (state IN ('empty', 'starting', 'ready', 'busy', 'blocked', 'unknown'));
