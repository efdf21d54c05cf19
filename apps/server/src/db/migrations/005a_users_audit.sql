-- Audit: every admin action, written in the same transaction as the action. No foreign keys: the
-- record outlives the user or object it names (the actor's name is copied).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  actor_id uuid,
  actor_name text NOT NULL,
  kind text NOT NULL,
  target_id text,
  target_label text NOT NULL DEFAULT '',
  before jsonb,
  after jsonb
);
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_actor ON audit_log (actor_name, at DESC);
CREATE INDEX audit_log_kind ON audit_log (kind, at DESC);

-- User Manager: search and the "new in 7 days" figure.
CREATE INDEX users_created_at ON users (created_at);
