import { amountText } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { cappedCount } from '../../db/paging.ts';
import type { TallyTable } from '../../db/tallies.ts';

export type LedgerKind =
  | 'topup'
  | 'order_charge'
  | 'refund'
  | 'admin_adjustment'
  | 'demo_credit'
  | 'message_charge'
  | 'message_refund';

export interface LedgerEntry {
  userId: string;
  /** Signed decimal string with at most four decimals ("-0.50", "-0.0225"); never a float. */
  amount: string;
  kind: LedgerKind;
  ref: string | null;
  actorId?: string | null;
  at: Date;
}

/**
 * Moves money in one statement: the balance changes only if it stays ≥ 0, and its ledger row is
 * written with it (with the balance after it). Returns the new balance (decimal text), or undefined
 * when it would go negative.
 */
export async function applyEntry(q: Queryable, e: LedgerEntry): Promise<string | undefined> {
  const rows = await q.query<{ balance: string }>(
    `WITH changed AS (
       UPDATE users SET balance = balance + $2::numeric
        WHERE id = $1 AND balance + $2::numeric >= 0
        RETURNING id, balance
     ), entry AS (
       INSERT INTO ledger (user_id, amount, kind, ref, actor_id, created_at, balance_after)
       SELECT id, $2::numeric, $3, $4, $5, $6, balance FROM changed
     )
     SELECT balance::text AS balance FROM changed`,
    [e.userId, e.amount, e.kind, e.ref, e.actorId ?? null, e.at],
  );
  return rows[0] && amountText(rows[0].balance);
}

/**
 * Credits many entries in one statement (the expiry sweep, message refunds); one ledger row each,
 * each with the balance after it. The users are locked in id order first, so two sweeps crediting
 * the same users never deadlock.
 */
export async function applyRefunds(
  q: Queryable,
  entries: { userId: string; amount: string; ref: string }[],
  at: Date,
  kind: Extract<LedgerKind, 'refund' | 'message_refund'> = 'refund',
): Promise<void> {
  if (entries.length === 0) return;
  await q.query(
    `WITH e AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(ord int, user_id uuid, amount numeric, ref text)
     ), t AS (SELECT user_id, sum(amount) AS total FROM e GROUP BY user_id),
     locked AS (SELECT u.id FROM users u JOIN t ON t.user_id = u.id ORDER BY u.id FOR UPDATE OF u),
     credited AS (
       UPDATE users u SET balance = u.balance + t.total
         FROM t, locked WHERE u.id = t.user_id AND locked.id = u.id RETURNING u.id, u.balance
     )
     INSERT INTO ledger (user_id, amount, kind, ref, created_at, balance_after)
     SELECT e.user_id, e.amount, $3, e.ref, $2,
            c.balance - sum(e.amount) OVER (PARTITION BY e.user_id)
                      + sum(e.amount) OVER (PARTITION BY e.user_id ORDER BY e.ord)
       FROM e JOIN credited c ON c.id = e.user_id
      ORDER BY e.ord`,
    [
      JSON.stringify(entries.map((x, ord) => ({ ord, user_id: x.userId, amount: x.amount, ref: x.ref }))),
      at,
      kind,
    ],
  );
}

export async function balanceOf(q: Queryable, userId: string): Promise<string | undefined> {
  const rows = await q.query<{ balance: string }>(
    'SELECT balance::text AS balance FROM users WHERE id = $1',
    [userId],
  );
  return rows[0] && amountText(rows[0].balance);
}

/** Total balance held by all users (exact decimal text), from the maintained tally (migration 030). */
export async function totalHeld(q: Queryable): Promise<string> {
  const rows = await q.query<{ total: string }>(
    'SELECT coalesce(sum(held), 0)::numeric(16, 2)::text AS total FROM balance_tallies',
  );
  return rows[0]!.total;
}

/** The balance tally (migration 030), folded by the billing-tallies job. */
export const BALANCE_TALLIES: TallyTable[] = [{ table: 'balance_tallies', keys: [], values: ['held'] }];

/** Whether the user has any money history (a ledger row): such a user is deactivated, not erased. */
export async function hasLedgerEntries(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ yes: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM ledger WHERE user_id = $1) AS yes',
    [userId],
  );
  return rows[0]?.yes === true;
}

export interface LedgerPageEntry {
  id: string;
  /** Signed decimal text. */
  amount: string;
  kind: LedgerKind;
  ref: string | null;
  created_at: Date;
  /** The balance right after the entry, decimal text (null on rows from before it was recorded). */
  balance_after: string | null;
}

/**
 * A page of the user's ledger, newest first, with the row count (the rental API's statement, the
 * Balance history page): exact up to the cap, else the estimate (docs/architecture.md#paged-lists).
 * Sorted on the bigint id (`seq`): the text `id` would put 99 after 100.
 */
export async function ledgerPage(
  q: Queryable,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ entries: LedgerPageEntry[]; total: number; totalEstimated: boolean }> {
  const [entries, count] = await Promise.all([
    q.query<LedgerPageEntry>(
      `SELECT id::text AS id, amount::text AS amount, kind, ref, created_at, balance_after::text AS balance_after
         FROM ledger WHERE user_id = $1 ORDER BY ledger.id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    ),
    cappedCount(q, 'FROM ledger WHERE user_id = $1', [userId]),
  ]);
  return { entries, total: count.total, totalEstimated: count.estimated };
}
