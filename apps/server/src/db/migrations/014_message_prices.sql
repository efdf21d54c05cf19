-- Priced messaging. The admin sets a price per SMS segment and per MMS (USD, 4 decimals, 0 = free).
-- A send is charged when it is accepted (one ledger row per campaign or chat reply); a message
-- that ends failed or cancelled is refunded once (refunded_at), in batches (one ledger row per
-- user and campaign per batch). Balances and ledger amounts widen to 4 decimals so the invariant
-- balance = sum of ledger holds to the last digit with 4-decimal prices. Unconstrained numeric
-- with a check on the scale: an amount keeps the decimals it was written with ("10.00" stays
-- "10.00"; a message charge is "-0.0225"), nothing is ever rounded, more than 4 is refused.

ALTER TABLE users ALTER COLUMN balance TYPE numeric;
ALTER TABLE users ADD CONSTRAINT users_balance_scale CHECK (scale(balance) <= 4 AND balance < 1e14);
ALTER TABLE ledger ALTER COLUMN amount TYPE numeric;
ALTER TABLE ledger ADD CONSTRAINT ledger_amount_scale CHECK (scale(amount) <= 4 AND abs(amount) < 1e14);

ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (
  kind IN ('topup', 'order_charge', 'refund', 'admin_adjustment', 'demo_credit', 'message_charge', 'message_refund')
);

-- The balance right after each entry (the user's balance history), written with the entry.
-- Existing rows: counted back from today's balance.
ALTER TABLE ledger ADD COLUMN balance_after numeric CHECK (scale(balance_after) <= 4);
UPDATE ledger l SET balance_after = s.after
  FROM (
    SELECT g.id, u.balance - coalesce(sum(g.amount) OVER (
             PARTITION BY g.user_id ORDER BY g.id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS after
      FROM ledger g JOIN users u ON u.id = g.user_id
  ) s
 WHERE s.id = l.id;
-- A user's history, newest first.
DROP INDEX ledger_user;
CREATE INDEX ledger_user ON ledger (user_id, id DESC);

ALTER TABLE messaging_settings
  ADD COLUMN sms_price_per_segment numeric(12, 4) NOT NULL DEFAULT 0 CHECK (sms_price_per_segment >= 0),
  ADD COLUMN mms_price numeric(12, 4) NOT NULL DEFAULT 0 CHECK (mms_price >= 0);

-- What each message cost when it was accepted (segments × price, or the MMS price).
ALTER TABLE messages
  ADD COLUMN cost numeric(12, 4) NOT NULL DEFAULT 0 CHECK (cost >= 0),
  ADD COLUMN refunded_at timestamptz;
-- Messages whose money is still to be given back.
CREATE INDEX messages_refund_due ON messages (id)
  WHERE cost > 0 AND refunded_at IS NULL AND status IN ('failed', 'cancelled');

ALTER TABLE campaigns
  ADD COLUMN cost numeric(18, 4) NOT NULL DEFAULT 0,
  ADD COLUMN refunded numeric(18, 4) NOT NULL DEFAULT 0;
