CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL UNIQUE,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  roles text[] NOT NULL DEFAULT ARRAY['User'],
  status text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Inactive')),
  -- Money is numeric in SQL and only ever changed by SQL; never negative.
  balance numeric(14, 2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  api_key_hash text UNIQUE,
  api_key_enc text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every balance change is one row here, written in the same transaction as the change.
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  amount numeric(14, 2) NOT NULL,
  kind text NOT NULL CHECK (kind IN ('topup', 'order_charge', 'refund', 'admin_adjustment', 'demo_credit')),
  ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_user ON ledger (user_id);
-- A refund or charge for one order can be recorded only once.
CREATE UNIQUE INDEX ledger_once_per_ref ON ledger (kind, ref) WHERE ref IS NOT NULL;

-- Failed sign-in counters per username and per IP, shared by every server process.
CREATE TABLE auth_throttle (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL
);
