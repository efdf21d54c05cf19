-- The number reuse rule per (service, number), kept up to date from the orders, so the catalogue's
-- availability and the spent-number counts read one row per pair instead of aggregating every order
-- of every pair on each call (docs/architecture.md, "The catalogue's availability"). The columns
-- are the aggregates of the pair's orders that RENTABLE_SIMS_SQL and SPENT_BY_ORDERS
-- (apps/server/src/modules/rental) compute from the orders themselves; the rent still checks the
-- orders, and a test compares the two.
CREATE TABLE number_service_state (
  service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
  phone_number text NOT NULL,
  rentals integer NOT NULL DEFAULT 0,
  last_id bigint NOT NULL DEFAULT 0,
  -- The newest end (or start, while open) of its orders: the spent list's date.
  last_at timestamptz,
  -- An order that is open or got a code (status other than CANCEL).
  held boolean NOT NULL DEFAULT false,
  -- An order got a code: spent for good.
  coded boolean NOT NULL DEFAULT false,
  -- An order since the admin last returned the number received the service's SMS.
  sms_since_return boolean NOT NULL DEFAULT false,
  -- The empty rentals since that return that count toward NUMBER_REUSE_LIMIT (every expired one,
  -- one cancellation per user).
  counted integer NOT NULL DEFAULT 0,
  -- When the newest of its orders ended (the reuse cooldown counts from it).
  free_after timestamptz,
  PRIMARY KEY (service_id, phone_number)
);
-- The availability reads the pairs of the usable SIMs' numbers, without a visit to the table.
CREATE INDEX number_service_state_number ON number_service_state (phone_number)
  INCLUDE (service_id, held, sms_since_return, counted, free_after);
-- The spent counts: the pairs the reuse limit may spend (few: the others are counted below).
CREATE INDEX number_service_state_empty ON number_service_state (counted) INCLUDE (service_id)
  WHERE NOT held AND NOT coded AND NOT sms_since_return;

-- The SIMs holding a repeatable rental with a code inside its window, found at once for all SIMs
-- (the catalogue's count of SIMs kept for sending) rather than through each SIM's open orders.
CREATE INDEX orders_success_window ON orders (expires_at) WHERE status = 'SUCCESS';

-- Recomputes the given pairs from their orders. Each pair's row is locked before its orders are
-- read, and each statement of a function reads what is committed when it starts: of two
-- transactions changing one pair, the second recomputes after the first committed.
CREATE FUNCTION number_service_state_refresh(services uuid[], numbers text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO number_service_state (service_id, phone_number)
  SELECT DISTINCT p.s, p.n FROM unnest(services, numbers) AS p(s, n)
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM number_service_state st
    JOIN unnest(services, numbers) AS p(s, n) ON st.service_id = p.s AND st.phone_number = p.n
   ORDER BY st.service_id, st.phone_number
     FOR UPDATE OF st;
  UPDATE number_service_state st
     SET rentals = a.rentals, last_id = a.last_id, last_at = a.last_at, held = a.held, coded = a.coded,
         sms_since_return = a.sms_since_return, counted = a.counted, free_after = a.free_after
    FROM (
      SELECT o.service_id, o.phone_number, count(*)::int AS rentals, max(o.id) AS last_id,
             max(COALESCE(o.finished_at, o.created_at)) AS last_at,
             bool_or(o.status <> 'CANCEL') AS held,
             bool_or(o.code_text IS NOT NULL) AS coded,
             COALESCE(bool_or(o.sms_text IS NOT NULL
                              AND (nr.after_order_id IS NULL OR o.id > nr.after_order_id)), false)
               AS sms_since_return,
             (count(*) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                                 AND o.status = 'CANCEL' AND NOT o.cancelled_by_user)
              + count(DISTINCT o.user_id) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                                                   AND o.status = 'CANCEL' AND o.cancelled_by_user))::int
               AS counted,
             max(o.finished_at) AS free_after
        FROM (SELECT DISTINCT s, n FROM unnest(services, numbers) AS p(s, n)) p
        JOIN orders o ON o.service_id = p.s AND o.phone_number = p.n
        LEFT JOIN number_returns nr ON nr.service_id = o.service_id AND nr.phone_number = o.phone_number
       GROUP BY o.service_id, o.phone_number
    ) a
   WHERE st.service_id = a.service_id AND st.phone_number = a.phone_number;
END $$;

CREATE FUNCTION number_service_state_orders_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM number_service_state_refresh(array_agg(service_id), array_agg(phone_number)) FROM new_rows;
  RETURN NULL;
END $$;

-- Only a change of what the rule reads matters (closing, a retry flag and the like do not).
CREATE FUNCTION number_service_state_orders_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM number_service_state_refresh(array_agg(p.s), array_agg(p.n)) FROM (
    SELECT n.service_id AS s, n.phone_number AS n FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.status, n.code_text, n.sms_text, n.finished_at, n.cancelled_by_user, n.service_id, n.phone_number)
           IS DISTINCT FROM
           (o.status, o.code_text, o.sms_text, o.finished_at, o.cancelled_by_user, o.service_id, o.phone_number)
    UNION
    SELECT o.service_id, o.phone_number FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE (n.service_id, n.phone_number) IS DISTINCT FROM (o.service_id, o.phone_number)
  ) p HAVING count(*) > 0;
  RETURN NULL;
END $$;

CREATE FUNCTION number_service_state_orders_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM number_service_state_refresh(array_agg(service_id), array_agg(phone_number)) FROM old_rows;
  -- A pair whose orders are all gone (their user was erased) has nothing to say.
  DELETE FROM number_service_state st
   USING (SELECT DISTINCT service_id, phone_number FROM old_rows) p
   WHERE st.service_id = p.service_id AND st.phone_number = p.phone_number
     AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.service_id = p.service_id AND o.phone_number = p.phone_number);
  RETURN NULL;
END $$;

CREATE FUNCTION number_service_state_returns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM number_service_state_refresh(ARRAY[OLD.service_id], ARRAY[OLD.phone_number]);
  ELSE
    PERFORM number_service_state_refresh(ARRAY[NEW.service_id], ARRAY[NEW.phone_number]);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_number_state_ins AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION number_service_state_orders_ins();
CREATE TRIGGER orders_number_state_upd AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION number_service_state_orders_upd();
CREATE TRIGGER orders_number_state_del AFTER DELETE ON orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION number_service_state_orders_del();
CREATE TRIGGER number_returns_state AFTER INSERT OR UPDATE OR DELETE ON number_returns
  FOR EACH ROW EXECUTE FUNCTION number_service_state_returns();

-- The orders made before this migration.
INSERT INTO number_service_state (service_id, phone_number, rentals, last_id, last_at, held, coded,
                                  sms_since_return, counted, free_after)
SELECT o.service_id, o.phone_number, count(*)::int, max(o.id), max(COALESCE(o.finished_at, o.created_at)),
       bool_or(o.status <> 'CANCEL'), bool_or(o.code_text IS NOT NULL),
       COALESCE(bool_or(o.sms_text IS NOT NULL AND (nr.after_order_id IS NULL OR o.id > nr.after_order_id)), false),
       (count(*) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                           AND o.status = 'CANCEL' AND NOT o.cancelled_by_user)
        + count(DISTINCT o.user_id) FILTER (WHERE (nr.after_order_id IS NULL OR o.id > nr.after_order_id)
                                             AND o.status = 'CANCEL' AND o.cancelled_by_user))::int,
       max(o.finished_at)
  FROM orders o
  LEFT JOIN number_returns nr ON nr.service_id = o.service_id AND nr.phone_number = o.phone_number
 GROUP BY o.service_id, o.phone_number;

-- How many pairs per service are spent whatever the reuse limit (a code, or the service's SMS since
-- the last return), as rows to add up: each change of a pair appends +1 or -1, so concurrent codes
-- never wait on each other for a counter row; the rental module's job folds them into one row per
-- service now and then (as messaging_hourly is folded). Services deleted since are left out by
-- the reader.
CREATE TABLE number_spent_counts (
  service_id uuid NOT NULL,
  n integer NOT NULL
);
CREATE INDEX number_spent_counts_service ON number_spent_counts (service_id);

INSERT INTO number_spent_counts (service_id, n)
SELECT service_id, count(*)::int FROM number_service_state WHERE coded OR sms_since_return GROUP BY service_id;

CREATE FUNCTION number_spent_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was boolean := false;
  is_now boolean := false;
BEGIN
  IF TG_OP = 'DELETE' THEN
    was := OLD.coded OR OLD.sms_since_return;
    IF was THEN INSERT INTO number_spent_counts (service_id, n) VALUES (OLD.service_id, -1); END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN was := OLD.coded OR OLD.sms_since_return; END IF;
  is_now := NEW.coded OR NEW.sms_since_return;
  IF was <> is_now THEN
    INSERT INTO number_spent_counts (service_id, n) VALUES (NEW.service_id, CASE WHEN is_now THEN 1 ELSE -1 END);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER number_service_state_counts AFTER INSERT OR UPDATE OR DELETE ON number_service_state
  FOR EACH ROW EXECUTE FUNCTION number_spent_counts_track();
