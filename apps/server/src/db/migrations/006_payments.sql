-- Top-ups (payments module). Money itself moves only through billing (ledger kind 'topup').

CREATE TABLE payments (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_invoice_id text NOT NULL,
  url text NOT NULL,
  amount numeric(14, 2) NOT NULL CHECK (amount > 0),
  -- What actually arrived, summed over the invoice's credited payments (repeated deposits too).
  amount_real numeric(14, 2) NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('PENDING', 'PAID', 'DONE', 'FAILED')),
  gw_status text,
  -- Needs an administrator: 'refunded_after_credit' or 'repeat_deposit'.
  flag text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  -- Last time the reconciliation asked the provider about this payment.
  checked_at timestamptz
);
CREATE UNIQUE INDEX payments_invoice ON payments (provider, provider_invoice_id);
CREATE INDEX payments_user ON payments (user_id, created_at DESC);
CREATE INDEX payments_created ON payments (created_at DESC);
CREATE INDEX payments_open ON payments (coalesce(checked_at, created_at)) WHERE status IN ('PENDING', 'PAID');

-- Every verified provider observation, once: duplicates and replays stop here.
CREATE TABLE payment_events (
  provider text NOT NULL,
  event_key text NOT NULL,
  payment_id uuid REFERENCES payments (id) ON DELETE CASCADE,
  provider_payment_id text NOT NULL,
  gw_status text NOT NULL,
  source text NOT NULL CHECK (source IN ('webhook', 'query')),
  raw jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_key)
);
CREATE INDEX payment_events_payment ON payment_events (payment_id);

-- One credit per provider payment, ever (a repeated deposit is its own provider payment).
CREATE TABLE payment_credits (
  provider text NOT NULL,
  provider_payment_id text NOT NULL,
  payment_id uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  parent_payment_id text,
  amount numeric(14, 2) NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, provider_payment_id)
);

-- The sandbox provider's own state: it plays the provider's side of an invoice.
CREATE TABLE sandbox_invoices (
  id text PRIMARY KEY,
  order_id text NOT NULL,
  amount numeric(14, 2) NOT NULL,
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  -- waiting (nobody paid), or the payment's final status (finished, partially_paid, failed)
  status text NOT NULL DEFAULT 'waiting',
  paid numeric(14, 2),
  abandoned boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
