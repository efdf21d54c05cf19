-- Data that grows with time stays bounded (docs/operations.md, "Data retention").

-- 1. Rentals with a code close by themselves at the end of their time (expires_at), as if the user
-- had pressed Finish then: status stays SUCCESS, closed_at = expires_at, no money moves. The "open"
-- indexes then hold only the rentals that can still take a code. closed_at is only ever set on
-- SUCCESS orders, so "status IN (...) AND closed_at IS NULL" is the same set as before for waiting
-- orders and drops the closed ones.
DROP INDEX orders_sim_open;
UPDATE orders SET closed_at = expires_at
 WHERE status = 'SUCCESS' AND closed_at IS NULL AND expires_at <= now();
CREATE INDEX orders_sim_open ON orders (sim_id) WHERE status IN ('WAIT_CODE', 'SUCCESS') AND closed_at IS NULL;
-- What the order-expiry job closes: rentals with a code whose time is over.
CREATE INDEX orders_success_unclosed ON orders (expires_at) WHERE status = 'SUCCESS' AND closed_at IS NULL;

-- 2. Gateway uptime: one row per gateway and hour, kept by the sampler in the statement that
-- writes the minute's samples (only samples it actually inserted are counted), so the figures read
-- whole hours here and only the partial first hour of a window from the raw samples, which are
-- kept for UPTIME_SAMPLES_RETENTION_HOURS.
CREATE TABLE gateway_uptime_hourly (
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  samples integer NOT NULL,
  online integer NOT NULL,
  PRIMARY KEY (gateway_id, hour)
);
CREATE INDEX gateway_uptime_hourly_hour ON gateway_uptime_hourly (hour) INCLUDE (samples, online);
INSERT INTO gateway_uptime_hourly (gateway_id, hour, samples, online)
SELECT gateway_id, date_trunc('hour', minute, 'UTC'), count(*), count(*) FILTER (WHERE online)
  FROM gateway_uptime GROUP BY 1, 2;
-- Nothing reads samples older than a day's first partial hour any more: keep the last 48 hours
-- (the default UPTIME_SAMPLES_RETENTION_HOURS) by copying them into a fresh table, rather than
-- deleting months of samples row by row (read per gateway through the primary key).
ALTER TABLE gateway_uptime RENAME TO gateway_uptime_before_031;
ALTER TABLE gateway_uptime_before_031 RENAME CONSTRAINT gateway_uptime_pkey TO gateway_uptime_before_031_pkey;
CREATE TABLE gateway_uptime (
  gateway_id uuid NOT NULL REFERENCES gateways (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  online boolean NOT NULL,
  PRIMARY KEY (gateway_id, minute)
);
INSERT INTO gateway_uptime (gateway_id, minute, online)
SELECT g.id, u.minute, u.online FROM gateways g
 CROSS JOIN LATERAL (
   SELECT minute, online FROM gateway_uptime_before_031 o
    WHERE o.gateway_id = g.id AND o.minute >= now() - interval '48 hours'
 ) u
 ORDER BY 1, 2;
DROP TABLE gateway_uptime_before_031;
-- A window's first partial hour is read by minute (at most 60 minutes of samples).
CREATE INDEX gateway_uptime_minute ON gateway_uptime (minute) INCLUDE (online);

-- 3. Incoming SMS: the retention deletes old SMS no consumer took (and delivery reports), found
-- through this index without walking the matched ones.
CREATE INDEX incoming_sms_unmatched_received ON incoming_sms (received_at) WHERE NOT matched;
-- Deleting an SMS checks the codes that point at it (ON DELETE CASCADE): without this index each
-- deleted SMS read all of order_codes.
CREATE INDEX order_codes_sms ON order_codes (sms_id);

-- 4. messaging_hourly: rows the compaction folded are marked, and it reads only the unmarked ones
-- (appended by the triggers since), so its cost follows what changed, not the table's size. Every
-- hour is folded now, once.
ALTER TABLE messaging_hourly ADD COLUMN folded boolean NOT NULL DEFAULT false;
WITH gone AS (
  DELETE FROM messaging_hourly RETURNING user_id, hour, num, success
)
INSERT INTO messaging_hourly (user_id, hour, num, success, folded)
SELECT user_id, hour, sum(num)::int, sum(success)::int, true FROM gone GROUP BY 1, 2
HAVING sum(num) <> 0 OR sum(success) <> 0;
CREATE INDEX messaging_hourly_unfolded ON messaging_hourly (hour, user_id) WHERE NOT folded;
