-- Stat cards, the overview and History's chart without counting whole tables (docs/architecture.md,
-- "Counters and rollups"). Each table below holds signed deltas that statement triggers append
-- (never update), as messaging_hourly does (009): concurrent rents, payments and dispatchers never
-- wait on a counter row and cannot deadlock on one. A job folds each key's rows into one; a reader
-- sums the rows of its keys, so it is exact in any snapshot, folded or not. `fresh` marks the rows
-- not folded yet (a partial index finds them), so folding costs what was appended since the last
-- fold, not what the table holds.

-- Orders per (gateway, gateway name, service): every order and those with a code (status SUCCESS).
-- Device Statistics reads one gateway's rows: at most gateways × services rows, however many orders
-- there are.
CREATE TABLE order_tallies (
  gateway_id uuid,
  gateway_name text NOT NULL,
  service_id uuid NOT NULL,
  orders integer NOT NULL,
  success integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX order_tallies_gateway ON order_tallies (gateway_id, service_id);
CREATE INDEX order_tallies_key ON order_tallies (gateway_name, service_id);
CREATE INDEX order_tallies_fresh ON order_tallies (gateway_name, service_id) WHERE fresh;

-- Orders per gateway name alone (Order Manager's per-gateway statistics): a row per name.
CREATE TABLE order_gateway_tallies (
  gateway_name text NOT NULL,
  orders integer NOT NULL,
  success integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX order_gateway_tallies_name ON order_gateway_tallies (gateway_name);
CREATE INDEX order_gateway_tallies_fresh ON order_gateway_tallies (gateway_name) WHERE fresh;

-- Orders per UTC day of creation (the overview's "today").
CREATE TABLE order_days (
  day date NOT NULL,
  orders integer NOT NULL,
  success integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX order_days_day ON order_days (day);
CREATE INDEX order_days_fresh ON order_days (day) WHERE fresh;

CREATE FUNCTION order_tallies_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_tallies (gateway_id, gateway_name, service_id, orders, success)
  SELECT gateway_id, gateway_name, service_id, count(*), count(*) FILTER (WHERE status = 'SUCCESS')
    FROM new_rows GROUP BY 1, 2, 3;
  INSERT INTO order_gateway_tallies (gateway_name, orders, success)
  SELECT gateway_name, count(*), count(*) FILTER (WHERE status = 'SUCCESS') FROM new_rows GROUP BY 1;
  INSERT INTO order_days (day, orders, success)
  SELECT (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE status = 'SUCCESS')
    FROM new_rows GROUP BY 1;
  RETURN NULL;
END $$;

CREATE FUNCTION order_tallies_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most updates (a code's text, a retry) change no counted column: nothing is appended then.
  INSERT INTO order_tallies (gateway_id, gateway_name, service_id, orders, success)
  SELECT gateway_id, gateway_name, service_id, sum(n)::int, sum(s)::int FROM (
    SELECT gateway_id, gateway_name, service_id, 1 AS n, (status = 'SUCCESS')::int AS s FROM new_rows
    UNION ALL
    SELECT gateway_id, gateway_name, service_id, -1, -(status = 'SUCCESS')::int FROM old_rows
  ) d GROUP BY 1, 2, 3
  HAVING sum(n) <> 0 OR sum(s) <> 0;
  INSERT INTO order_gateway_tallies (gateway_name, orders, success)
  SELECT gateway_name, sum(n)::int, sum(s)::int FROM (
    SELECT gateway_name, 1 AS n, (status = 'SUCCESS')::int AS s FROM new_rows
    UNION ALL
    SELECT gateway_name, -1, -(status = 'SUCCESS')::int FROM old_rows
  ) d GROUP BY 1
  HAVING sum(n) <> 0 OR sum(s) <> 0;
  INSERT INTO order_days (day, orders, success)
  SELECT day, sum(n)::int, sum(s)::int FROM (
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS n, (status = 'SUCCESS')::int AS s FROM new_rows
    UNION ALL
    SELECT (created_at AT TIME ZONE 'UTC')::date, -1, -(status = 'SUCCESS')::int FROM old_rows
  ) d GROUP BY 1
  HAVING sum(n) <> 0 OR sum(s) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION order_tallies_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_tallies (gateway_id, gateway_name, service_id, orders, success)
  SELECT gateway_id, gateway_name, service_id, -count(*), -count(*) FILTER (WHERE status = 'SUCCESS')
    FROM old_rows GROUP BY 1, 2, 3;
  INSERT INTO order_gateway_tallies (gateway_name, orders, success)
  SELECT gateway_name, -count(*), -count(*) FILTER (WHERE status = 'SUCCESS') FROM old_rows GROUP BY 1;
  INSERT INTO order_days (day, orders, success)
  SELECT (created_at AT TIME ZONE 'UTC')::date, -count(*), -count(*) FILTER (WHERE status = 'SUCCESS')
    FROM old_rows GROUP BY 1;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_tallies_ins AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_tallies_ins();
CREATE TRIGGER orders_tallies_upd AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_tallies_upd();
CREATE TRIGGER orders_tallies_del AFTER DELETE ON orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_tallies_del();

-- Orders stored before this migration (already folded: one row per key).
INSERT INTO order_tallies (gateway_id, gateway_name, service_id, orders, success, fresh)
SELECT gateway_id, gateway_name, service_id, count(*), count(*) FILTER (WHERE status = 'SUCCESS'), false
  FROM orders GROUP BY 1, 2, 3;
INSERT INTO order_gateway_tallies (gateway_name, orders, success, fresh)
SELECT gateway_name, sum(orders), sum(success), false FROM order_tallies GROUP BY 1;
INSERT INTO order_days (day, orders, success, fresh)
SELECT (created_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE status = 'SUCCESS'), false
  FROM orders GROUP BY 1;

-- Users (all, active) for User Manager's cards and the overview, and the balance they hold
-- together (the overview's "held"): one key, so every row is a delta of the same three figures.
CREATE TABLE user_tallies (
  users integer NOT NULL,
  active integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE TABLE balance_tallies (
  held numeric(16, 2) NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);

CREATE FUNCTION user_tallies_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_tallies (users, active)
  SELECT count(*), count(*) FILTER (WHERE status = 'Active') FROM new_rows HAVING count(*) <> 0;
  INSERT INTO balance_tallies (held)
  SELECT sum(balance) FROM new_rows HAVING coalesce(sum(balance), 0) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION user_tallies_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Every balance change updates users: only a changed status or balance appends a row.
  INSERT INTO user_tallies (users, active)
  SELECT 0, sum(a)::int FROM (
    SELECT (status = 'Active')::int AS a FROM new_rows
    UNION ALL
    SELECT -(status = 'Active')::int FROM old_rows
  ) d HAVING coalesce(sum(a), 0) <> 0;
  INSERT INTO balance_tallies (held)
  SELECT sum(b) FROM (
    SELECT balance AS b FROM new_rows
    UNION ALL
    SELECT -balance FROM old_rows
  ) d HAVING coalesce(sum(b), 0) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION user_tallies_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_tallies (users, active)
  SELECT -count(*), -count(*) FILTER (WHERE status = 'Active') FROM old_rows HAVING count(*) <> 0;
  INSERT INTO balance_tallies (held)
  SELECT -sum(balance) FROM old_rows HAVING coalesce(sum(balance), 0) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER users_tallies_ins AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_tallies_ins();
CREATE TRIGGER users_tallies_upd AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_tallies_upd();
CREATE TRIGGER users_tallies_del AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_tallies_del();

INSERT INTO user_tallies (users, active, fresh)
SELECT count(*), count(*) FILTER (WHERE status = 'Active'), false FROM users;
INSERT INTO balance_tallies (held, fresh) SELECT coalesce(sum(balance), 0), false FROM users;

-- History for Admin9 (every sender): messaging_hourly summed over users per hour, kept by its own
-- statement triggers with the same rules (counted: not cancelled; success: delivered).
CREATE TABLE messaging_hourly_all (
  hour timestamptz NOT NULL,
  num integer NOT NULL,
  success integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX messaging_hourly_all_hour ON messaging_hourly_all (hour);
CREATE INDEX messaging_hourly_all_fresh ON messaging_hourly_all (hour) WHERE fresh;

CREATE FUNCTION messaging_hourly_all_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO messaging_hourly_all (hour, num, success)
  SELECT date_trunc('hour', created_at, 'UTC'),
         count(*) FILTER (WHERE status <> 'cancelled'), count(*) FILTER (WHERE status = 'delivered')
    FROM new_rows GROUP BY 1
  HAVING count(*) FILTER (WHERE status <> 'cancelled') <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION messaging_hourly_all_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO messaging_hourly_all (hour, num, success)
  SELECT h, sum(n)::int, sum(s)::int FROM (
    SELECT date_trunc('hour', created_at, 'UTC') AS h,
           (status <> 'cancelled')::int AS n, (status = 'delivered')::int AS s FROM new_rows
    UNION ALL
    SELECT date_trunc('hour', created_at, 'UTC'),
           -(status <> 'cancelled')::int, -(status = 'delivered')::int FROM old_rows
  ) d GROUP BY 1
  HAVING sum(n) <> 0 OR sum(s) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION messaging_hourly_all_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO messaging_hourly_all (hour, num, success)
  SELECT date_trunc('hour', created_at, 'UTC'),
         -count(*) FILTER (WHERE status <> 'cancelled'), -count(*) FILTER (WHERE status = 'delivered')
    FROM old_rows GROUP BY 1
  HAVING count(*) FILTER (WHERE status <> 'cancelled') <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_hourly_all_ins AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messaging_hourly_all_ins();
CREATE TRIGGER messages_hourly_all_upd AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messaging_hourly_all_upd();
CREATE TRIGGER messages_hourly_all_del AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION messaging_hourly_all_del();

-- From the per-user rollup, which is exact (its own backfill and triggers): far fewer rows to read.
INSERT INTO messaging_hourly_all (hour, num, success, fresh)
SELECT hour, sum(num)::int, sum(success)::int, false FROM messaging_hourly GROUP BY 1
HAVING sum(num) <> 0 OR sum(success) <> 0;

-- Replies per (user, hour received), and per hour for Admin9: History's chart.
CREATE TABLE replies_hourly (
  user_id uuid NOT NULL,
  hour timestamptz NOT NULL,
  replies integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX replies_hourly_user ON replies_hourly (user_id, hour);
CREATE INDEX replies_hourly_fresh ON replies_hourly (user_id, hour) WHERE fresh;
CREATE TABLE replies_hourly_all (
  hour timestamptz NOT NULL,
  replies integer NOT NULL,
  fresh boolean NOT NULL DEFAULT true
);
CREATE INDEX replies_hourly_all_hour ON replies_hourly_all (hour);
CREATE INDEX replies_hourly_all_fresh ON replies_hourly_all (hour) WHERE fresh;

CREATE FUNCTION replies_hourly_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO replies_hourly (user_id, hour, replies)
  SELECT user_id, date_trunc('hour', received_at, 'UTC'), count(*) FROM new_rows GROUP BY 1, 2;
  INSERT INTO replies_hourly_all (hour, replies)
  SELECT date_trunc('hour', received_at, 'UTC'), count(*) FROM new_rows GROUP BY 1;
  RETURN NULL;
END $$;

CREATE FUNCTION replies_hourly_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Marking a reply read changes neither its user nor its time: nothing is appended then.
  INSERT INTO replies_hourly (user_id, hour, replies)
  SELECT user_id, h, sum(n)::int FROM (
    SELECT user_id, date_trunc('hour', received_at, 'UTC') AS h, 1 AS n FROM new_rows
    UNION ALL
    SELECT user_id, date_trunc('hour', received_at, 'UTC'), -1 FROM old_rows
  ) d GROUP BY 1, 2 HAVING sum(n) <> 0;
  INSERT INTO replies_hourly_all (hour, replies)
  SELECT h, sum(n)::int FROM (
    SELECT date_trunc('hour', received_at, 'UTC') AS h, 1 AS n FROM new_rows
    UNION ALL
    SELECT date_trunc('hour', received_at, 'UTC'), -1 FROM old_rows
  ) d GROUP BY 1 HAVING sum(n) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION replies_hourly_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO replies_hourly (user_id, hour, replies)
  SELECT user_id, date_trunc('hour', received_at, 'UTC'), -count(*) FROM old_rows GROUP BY 1, 2;
  INSERT INTO replies_hourly_all (hour, replies)
  SELECT date_trunc('hour', received_at, 'UTC'), -count(*) FROM old_rows GROUP BY 1;
  RETURN NULL;
END $$;

CREATE TRIGGER conversation_replies_hourly_ins AFTER INSERT ON conversation_replies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION replies_hourly_ins();
CREATE TRIGGER conversation_replies_hourly_upd AFTER UPDATE ON conversation_replies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION replies_hourly_upd();
CREATE TRIGGER conversation_replies_hourly_del AFTER DELETE ON conversation_replies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION replies_hourly_del();

INSERT INTO replies_hourly (user_id, hour, replies, fresh)
SELECT user_id, date_trunc('hour', received_at, 'UTC'), count(*), false FROM conversation_replies GROUP BY 1, 2;
INSERT INTO replies_hourly_all (hour, replies, fresh)
SELECT date_trunc('hour', received_at, 'UTC'), count(*), false FROM conversation_replies GROUP BY 1;

-- Order/stats' active count: a user's open orders and their rentals that can still receive.
CREATE INDEX orders_user_success_expiry ON orders (user_id, expires_at) WHERE status = 'SUCCESS';
CREATE INDEX orders_user_waiting ON orders (user_id) WHERE status = 'WAIT_CODE';

-- History's chart counts the partial hours from the messages: read from the index alone.
CREATE INDEX messages_time_counted ON messages (created_at) INCLUDE (status, user_id);
