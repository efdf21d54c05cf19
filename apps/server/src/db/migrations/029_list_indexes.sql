-- Indexes the paged admin lists read by key (docs/architecture.md#paged-lists): each filter the
-- screens offer walks its own index in the list's order instead of scanning and sorting the table.

-- Order Manager: status and gateway filters, newest (highest id) first.
CREATE INDEX IF NOT EXISTS orders_status_id ON orders (status, id);
CREATE INDEX IF NOT EXISTS orders_gateway_id ON orders (gateway_name, id);

-- Order Manager's unmatched SMS, newest first.
CREATE INDEX IF NOT EXISTS incoming_sms_unmatched ON incoming_sms (received_at, id) WHERE NOT matched AND NOT is_report;
CREATE INDEX IF NOT EXISTS incoming_sms_listed ON incoming_sms (received_at, id) WHERE NOT is_report;

-- Substring search ("contains") by trigram where the database offers it: pg_trgm ships with
-- PostgreSQL; a database that cannot create it keeps working with a scan.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable: substring searches scan';
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS orders_phone_trgm ON orders USING gin (phone_number gin_trgm_ops);
  END IF;
END $$;

-- Audit log: who and kind, newest first.
CREATE INDEX IF NOT EXISTS audit_log_actor_key ON audit_log (actor_name, at, id);
CREATE INDEX IF NOT EXISTS audit_log_kind_key ON audit_log (kind, at, id);

-- User Manager: every sort by its column then the unique username.
CREATE INDEX IF NOT EXISTS users_roles_key ON users (roles, username);
CREATE INDEX IF NOT EXISTS users_status_key ON users (status, username);
CREATE INDEX IF NOT EXISTS users_balance_key ON users (balance, username);
CREATE INDEX IF NOT EXISTS users_created_key ON users (created_at, username);

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS users_username_trgm ON users USING gin (username gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_email_trgm ON users USING gin (email gin_trgm_ops);
  END IF;
END $$;

-- Payment Manager: newest first with a status, and its search inside invoice ids.
CREATE INDEX IF NOT EXISTS payments_status_key ON payments (status, created_at, id);
CREATE INDEX IF NOT EXISTS payments_created_key ON payments (created_at, id);

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS payments_id_trgm ON payments USING gin ((id::text) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS payments_invoice_trgm ON payments USING gin (lower(provider_invoice_id) gin_trgm_ops);
  END IF;
END $$;
