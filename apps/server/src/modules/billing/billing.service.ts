import { amountText, moneyText, PRICE_DECIMALS } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { badInput, DomainError } from '../../errors.ts';
import { publish } from '../../events.ts';
import { applyEntry, applyRefunds, type LedgerKind } from './billing.queries.ts';

// The only code that changes a balance. Every change is one ledger row with a kind and a
// reference, written in the caller's transaction (pass its handle), and a `balance` event that is
// delivered when that transaction commits.

/**
 * A positive amount of money as exact decimal text (contract's moneyText, up to 4 decimals: message
 * prices have them); refuses floats' artefacts and junk. Callers validate their own, narrower rules
 * (prices and top-ups in cents) first.
 */
export function money(amount: string | number): string {
  const text = moneyText(amount, PRICE_DECIMALS);
  if (text === undefined) throw badInput('Amounts have at most four decimals.');
  // Two decimals unless it has more: "10.50" is written as it always was, a message price as "0.0075".
  return amountText(text);
}

const negate = (m: string) => (m.startsWith('-') ? m.slice(1) : `-${m}`);

async function apply(
  q: Queryable,
  userId: string,
  signed: string,
  kind: LedgerKind,
  ref: string | null,
  at: Date,
  actorId?: string,
): Promise<string | undefined> {
  const balance = await applyEntry(q, { userId, amount: signed, kind, ref, at, actorId: actorId ?? null });
  if (balance !== undefined) await publish(q, { type: 'balance', userId });
  return balance;
}

export interface Movement {
  userId: string;
  amount: string | number;
  /** What the money is for, e.g. `order:42`; one charge and one refund per reference. */
  ref: string;
  at: Date;
}

/**
 * Takes money for something bought (a rental, or messages); `balance_too_low` when the balance does
 * not cover it.
 */
export async function charge(
  q: Queryable,
  m: Movement & { kind?: Extract<LedgerKind, 'order_charge' | 'message_charge'> },
  tooLowMessage?: string,
): Promise<string> {
  const balance = await apply(q, m.userId, negate(money(m.amount)), m.kind ?? 'order_charge', m.ref, m.at);
  if (balance === undefined) {
    throw new DomainError('balance_too_low', tooLowMessage ?? 'Your balance is too low. Please top up.');
  }
  return balance;
}

/** Gives back what a charge took (cancel, expiry). */
export async function refund(q: Queryable, m: Movement): Promise<string> {
  return (await apply(q, m.userId, money(m.amount), 'refund', m.ref, m.at))!;
}

/** Many refunds in one statement (the expiry sweep; messages that failed or were cancelled). */
export async function refundMany(
  q: Queryable,
  entries: { userId: string; amount: string; ref: string }[],
  at: Date,
  kind: 'refund' | 'message_refund' = 'refund',
): Promise<void> {
  await applyRefunds(
    q,
    entries.map((e) => ({ ...e, amount: money(e.amount) })),
    at,
    kind,
  );
  for (const userId of new Set(entries.map((e) => e.userId))) await publish(q, { type: 'balance', userId });
}

/** Money that arrived from outside: a top-up, or the demo's starting balance. */
export async function credit(
  q: Queryable,
  m: Omit<Movement, 'ref'> & { ref: string | null; kind: 'topup' | 'demo_credit' },
): Promise<string> {
  return (await apply(q, m.userId, money(m.amount), m.kind, m.ref, m.at))!;
}

/**
 * An administrator's correction, signed (+ adds, − takes), recorded with who made it. Refused with
 * `bad_input` when it would make the balance negative.
 */
export async function adjust(
  q: Queryable,
  m: { userId: string; delta: string; actorId: string; ref: string | null; at: Date },
): Promise<string> {
  const negative = m.delta.trim().startsWith('-');
  const amount = money(m.delta.trim().replace(/^-/, ''));
  const balance = await apply(
    q,
    m.userId,
    negative ? negate(amount) : amount,
    'admin_adjustment',
    m.ref,
    m.at,
    m.actorId,
  );
  if (balance === undefined) throw badInput('The balance cannot become negative.', 'balance');
  return balance;
}
