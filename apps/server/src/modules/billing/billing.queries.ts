import type { Queryable } from '../../db/db.ts';

export type LedgerKind = 'topup' | 'order_charge' | 'refund' | 'admin_adjustment' | 'demo_credit';

export interface LedgerEntry {
  userId: string;
  /** Signed decimal string with at most two decimals ("-0.50"); never a float. */
  amount: string;
  kind: LedgerKind;
  ref: string | null;
  actorId?: string | null;
  at: Date;
}

/**
 * Moves money in one statement: the balance changes only if it stays ≥ 0, and its ledger row is
 * written with it. Returns the new balance (decimal text), or undefined when it would go negative.
 */
export async function applyEntry(q: Queryable, e: LedgerEntry): Promise<string | undefined> {
  const rows = await q.query<{ balance: string }>(
    `WITH changed AS (
       UPDATE users SET balance = balance + $2::numeric
        WHERE id = $1 AND balance + $2::numeric >= 0
        RETURNING id, balance
     ), entry AS (
       INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at)
       SELECT id, $2::numeric, $3, $4, $5, $6 FROM changed
     )
     SELECT balance::text AS balance FROM changed`,
    [e.userId, e.amount, e.kind, e.ref, e.actorId ?? null, e.at],
  );
  return rows[0]?.balance;
}

/** Refunds many entries in one statement (the expiry sweep); one ledger row each. */
export async function applyRefunds(
  q: Queryable,
  entries: { userId: string; amount: string; ref: string }[],
  at: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await q.query(
    `WITH e AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(user_id uuid, amount numeric, ref text)
     ), credited AS (
       UPDATE users u SET balance = u.balance + t.total
         FROM (SELECT user_id, sum(amount) AS total FROM e GROUP BY user_id) t
        WHERE u.id = t.user_id RETURNING u.id
     )
     INSERT INTO ledger (user_id, amount, kind, ref, created_at)
     SELECT user_id, amount, 'refund', ref, $2 FROM e`,
    [JSON.stringify(entries.map((x) => ({ user_id: x.userId, amount: x.amount, ref: x.ref }))), at],
  );
}

export async function balanceOf(q: Queryable, userId: string): Promise<string | undefined> {
  const rows = await q.query<{ balance: string }>(
    'SELECT balance::text AS balance FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]?.balance;
}

/** Total balance held by all users (exact decimal text). */
export async function totalHeld(q: Queryable): Promise<string> {
  const rows = await q.query<{ total: string }>('SELECT coalesce(sum(balance), 0)::text AS total FROM users');
  return rows[0]!.total;
}

/** Whether the user has any money history (a ledger row): such a user is deactivated, not erased. */
export async function hasLedgerEntries(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ yes: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM ledger WHERE user_id = $1) AS yes',
    [userId],
  );
  return rows[0]?.yes === true;
}

/** A page of the user's ledger, newest first, with the row count (the rental API's statement). */
export async function ledgerPage(
  q: Queryable,
  userId: string,
  limit: number,
  offset: number,
): Promise<{
  entries: { id: string; amount: string; kind: LedgerKind; ref: string | null; created_at: Date }[];
  total: number;
}> {
  const entries = await q.query<{
    id: string;
    amount: string;
    kind: LedgerKind;
    ref: string | null;
    created_at: Date;
  }>(
    `SELECT id::text AS id, amount::text AS amount, kind, ref, created_at
       FROM ledger WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  const count = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE user_id = $1', [
    userId,
  ]);
  return { entries, total: count[0]!.n };
}
