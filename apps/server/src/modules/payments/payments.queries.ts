import { PAYMENT_CANCELLED_BY_USER, type PaymentStatus } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';
import { isUuid } from '../../ids.ts';
import { centsOf, centsToString } from './providers/money.ts';

// SQL of the payments module: its own tables only (payments, payment_events, payment_credits).

export interface PaymentRow {
  id: string;
  userId: string;
  provider: string;
  providerInvoiceId: string;
  url: string;
  amount: string;
  amountReal: string;
  status: PaymentStatus;
  gwStatus: string | null;
  flag: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, user_id AS "userId", provider, provider_invoice_id AS "providerInvoiceId", url,
  amount::text AS amount, amount_real::text AS "amountReal", status, gw_status AS "gwStatus", flag,
  created_at AS "createdAt", finished_at AS "finishedAt"`;

export async function insertPayment(
  q: Queryable,
  p: {
    id: string;
    userId: string;
    provider: string;
    providerInvoiceId: string;
    url: string;
    amount: string;
    at: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO payments (id, user_id, provider, provider_invoice_id, url, amount, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7)`,
    [p.id, p.userId, p.provider, p.providerInvoiceId, p.url, p.amount, p.at],
  );
}

/** The gw_status of a top-up its owner cancelled (status FAILED; money that arrives is still credited). */
export const CANCELLED_BY_USER = PAYMENT_CANCELLED_BY_USER;

/**
 * The owner cancels a PENDING invoice: FAILED, so it no longer counts as open. 'none' when it is not
 * the owner's (or does not exist), 'not_pending' when it is past PENDING.
 */
export async function cancelPending(
  q: Queryable,
  p: { id: string; userId: string; at: Date },
): Promise<'cancelled' | 'none' | 'not_pending'> {
  if (!isUuid(p.id)) return 'none';
  const rows = await q.query<{ status: PaymentStatus; cancelled: boolean }>(
    `WITH mine AS (
       SELECT id, status FROM payments WHERE id = $1 AND user_id = $2 FOR UPDATE
     ), done AS (
       UPDATE payments p SET status = 'FAILED', gw_status = $3, finished_at = $4, updated_at = $4
         FROM mine WHERE p.id = mine.id AND mine.status = 'PENDING'
       RETURNING p.id
     )
     SELECT mine.status, EXISTS (SELECT 1 FROM done) AS cancelled FROM mine`,
    [p.id, p.userId, CANCELLED_BY_USER, p.at],
  );
  const row = rows[0];
  if (!row) return 'none';
  return row.cancelled ? 'cancelled' : 'not_pending';
}

/** Unpaid invoices of a user that can still be paid. */
export async function countOpenInvoices(q: Queryable, userId: string): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'PENDING'`,
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export async function findPayment(q: Queryable, id: string): Promise<PaymentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await q.query<PaymentRow>(`SELECT ${COLUMNS} FROM payments WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * The top-up an event is about, locked for the event's transaction: by our order id, else by the
 * provider's invoice id, else (a repeated deposit) through the parent payment's recorded events.
 */
export async function lockPaymentFor(
  q: Queryable,
  ref: { provider: string; orderId: string | null; invoiceId: string | null; parentPaymentId: string | null },
): Promise<PaymentRow | undefined> {
  const rows = await q.query<PaymentRow>(
    `SELECT ${COLUMNS} FROM payments
      WHERE id = (
        SELECT coalesce(
          (SELECT id FROM payments WHERE id = $2::uuid AND provider = $1),
          (SELECT id FROM payments WHERE provider = $1 AND provider_invoice_id = $3),
          (SELECT payment_id FROM payment_events
            WHERE provider = $1 AND provider_payment_id = $4 AND payment_id IS NOT NULL LIMIT 1)))
      FOR UPDATE`,
    [
      ref.provider,
      ref.orderId && isUuid(ref.orderId) ? ref.orderId : null,
      ref.invoiceId,
      ref.parentPaymentId,
    ],
  );
  return rows[0];
}

/** Records a verified observation once; false when it was seen before (a duplicate). */
export async function recordEvent(
  q: Queryable,
  e: {
    provider: string;
    eventKey: string;
    paymentId: string | null;
    providerPaymentId: string;
    gwStatus: string;
    source: 'webhook' | 'query';
    raw: unknown;
    at: Date;
  },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO payment_events (provider, event_key, payment_id, provider_payment_id, gw_status, source, raw, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      e.provider,
      e.eventKey,
      e.paymentId,
      e.providerPaymentId,
      e.gwStatus,
      e.source,
      JSON.stringify(e.raw),
      e.at,
    ],
  );
  return rows.length === 1;
}

/**
 * Raises the credit of a provider payment to `amount` (its largest confirmed paid amount so far)
 * and returns the increase to credit now: "0.00" when as much or more was credited before. Call
 * with the top-up's row locked, so that concurrent webhooks of one payment take turns here.
 */
export async function claimCredit(
  q: Queryable,
  c: {
    provider: string;
    providerPaymentId: string;
    paymentId: string;
    parentPaymentId: string | null;
    amount: string;
    at: Date;
  },
): Promise<{ increase: string; first: boolean }> {
  const rows = await q.query<{ before: string | null; after: string }>(
    `WITH prev AS (
       SELECT amount FROM payment_credits WHERE provider = $1 AND provider_payment_id = $2 FOR UPDATE
     ), up AS (
       INSERT INTO payment_credits (provider, provider_payment_id, payment_id, parent_payment_id, amount, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (provider, provider_payment_id) DO UPDATE SET amount = EXCLUDED.amount
        WHERE payment_credits.amount < EXCLUDED.amount
       RETURNING amount
     )
     SELECT (SELECT amount::text FROM prev) AS before,
            coalesce((SELECT amount FROM up), (SELECT amount FROM prev))::text AS after`,
    [c.provider, c.providerPaymentId, c.paymentId, c.parentPaymentId, c.amount, c.at],
  );
  const row = rows[0];
  const before = row?.before ?? null;
  const after = row?.after ?? before ?? '0';
  return { increase: subtractMoney(after, before ?? '0'), first: before === null };
}

/** a − b for non-negative money strings, exactly (cents), never below zero. */
function subtractMoney(a: string, b: string): string {
  const d = centsOf(a) - centsOf(b);
  return centsToString(d > 0n ? d : 0n);
}

/** After a credit: adds what arrived, DONE, finished now. */
export async function markCredited(
  q: Queryable,
  p: { id: string; amount: string; gwStatus: string; flag: string | null; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE payments SET amount_real = amount_real + $2::numeric, status = 'DONE',
            gw_status = CASE WHEN $4::text IS NULL THEN $3 ELSE gw_status END,
            flag = coalesce(flag, $4), finished_at = $5, updated_at = $5
      WHERE id = $1`,
    [p.id, p.amount, p.gwStatus, p.flag, p.at],
  );
}

export async function movePayment(
  q: Queryable,
  p: { id: string; status: PaymentStatus; gwStatus: string; finish: boolean; flag: string | null; at: Date },
): Promise<void> {
  await q.query(
    `UPDATE payments SET status = $2, gw_status = $3, flag = coalesce(flag, $5),
            finished_at = CASE WHEN $4 THEN $6 ELSE finished_at END, updated_at = $6
      WHERE id = $1`,
    [p.id, p.status, p.gwStatus, p.finish, p.flag, p.at],
  );
}

export async function userPaymentsPage(
  q: Queryable,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const rows = await q.query<PaymentRow>(
    `SELECT ${COLUMNS} FROM payments WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  const count = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [
    userId,
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** Payment Manager's filters; `userIds` are the users whose name matched the search. */
export interface PaymentFilter {
  search?: { text: string; userIds: string[] };
  status?: PaymentStatus;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  before?: Date;
}

/**
 * Payment Manager's list, newest first, paged by key (docs/architecture.md#paged-lists): only the filters
 * given, the invoice-id search by trigram indexes where the database has them.
 */
export async function allPaymentsPage(
  q: Queryable,
  req: PageRequest,
  filter: PaymentFilter = {},
): Promise<ListPage<PaymentRow>> {
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (filter.search) {
    const like = arg(`%${filter.search.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `(payments.user_id = ANY(${arg(filter.search.userIds)}::uuid[]) OR payments.id::text LIKE ${like} OR lower(payments.provider_invoice_id) LIKE ${like})`,
    );
  }
  if (filter.status) where.push(`payments.status = ${arg(filter.status)}`);
  if (filter.from) where.push(`payments.created_at >= ${arg(filter.from)}`);
  if (filter.before) where.push(`payments.created_at < ${arg(filter.before)}`);
  return keysetPage<PaymentRow>(
    q,
    {
      select: COLUMNS,
      from: 'FROM payments',
      where,
      params: args,
      keys: [
        { expr: 'payments.created_at', type: 'timestamptz' },
        { expr: 'payments.id', type: 'uuid' },
      ],
      desc: true,
    },
    req,
  );
}

export interface StalePayment {
  id: string;
  provider: string;
  providerInvoiceId: string;
  status: PaymentStatus;
  createdAt: Date;
  /** Provider payment ids seen so far (they can be asked about one by one). */
  knownPaymentIds: string[];
}

/**
 * Claims unfinished payments quiet since `before`, stamping them as checked now so that another
 * process (or the next run) skips them for a while. Invoices their owner cancelled are asked about
 * too while they could still be paid (made after `payableSince`): the provider's page stays open, so
 * money may still arrive, and a lost webhook must not lose it.
 */
export async function claimStalePayments(
  q: Queryable,
  before: Date,
  now: Date,
  limit: number,
  payableSince: Date = now,
): Promise<StalePayment[]> {
  return q.query<StalePayment>(
    `WITH picked AS (
       SELECT id FROM payments
        WHERE (status IN ('PENDING', 'PAID')
               OR (status = 'FAILED' AND gw_status = $4 AND created_at > $5))
          AND coalesce(checked_at, created_at) < $1
        ORDER BY coalesce(checked_at, created_at)
        LIMIT $3 FOR UPDATE SKIP LOCKED
     ), stamped AS (
       UPDATE payments p SET checked_at = $2 FROM picked WHERE p.id = picked.id
       RETURNING p.id, p.provider, p.provider_invoice_id, p.status, p.created_at
     )
     SELECT s.id, s.provider, s.provider_invoice_id AS "providerInvoiceId", s.status, s.created_at AS "createdAt",
            coalesce((SELECT array_agg(DISTINCT e.provider_payment_id) FROM payment_events e
                       WHERE e.payment_id = s.id), '{}') AS "knownPaymentIds"
       FROM stamped s`,
    [before, now, limit, CANCELLED_BY_USER, payableSince],
  );
}

/** An invoice nobody paid within its lifetime. */
export async function expireUnpaid(q: Queryable, id: string, at: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE payments SET status = 'FAILED', gw_status = 'expired', finished_at = $2, updated_at = $2
      WHERE id = $1 AND status = 'PENDING' RETURNING 1`,
    [id, at],
  );
  return rows.length === 1;
}

export async function hasPayments(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query<{ yes: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM payments WHERE user_id = $1) AS yes',
    [userId],
  );
  return rows[0]?.yes === true;
}
