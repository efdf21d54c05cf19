import { randomUUID } from 'node:crypto';
import {
  type AdminPaymentsResponse,
  endpoints,
  PAYMENT_HISTORY_PAGE_SIZE,
  type PaymentHistoryResponse,
  type PaymentOptions,
  type PaymentStatus,
  shownPaymentStatus,
  TOPUP_MAX,
  TOPUP_MAX_OPEN,
  TOPUP_MIN,
  totalPages,
  type UserPayment,
} from '@simdock/contract';
import type { AppContext, LiveRenderer } from '../../context.ts';
import { conflict, DomainError, notFound, unavailable } from '../../errors.ts';
import { publish } from '../../events.ts';
import { credit } from '../billing/index.ts';
import { userIdsMatching, usernamesByIds } from '../users/index.ts';
import { decide } from './payment-state.ts';
import {
  allPaymentsPage,
  cancelPending,
  claimCredit,
  claimStalePayments,
  countOpenInvoices,
  expireUnpaid,
  findPayment,
  insertPayment,
  lockPaymentFor,
  markCredited,
  movePayment,
  type PaymentFilter,
  type PaymentRow,
  recordEvent,
  userPaymentsPage,
} from './payments.queries.ts';
import {
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  providerOf,
  type SandboxOutcome,
  SandboxProvider,
  type WebhookHeaders,
} from './providers/index.ts';

// Top-ups: invoices at a provider, its webhooks and status answers applied exactly once, and the
// credit through billing in the same transaction as the state change.

/** The webhook path the provider is told to call (NOWPayments `ipn_callback_url`). */
export const WEBHOOK_PATH = endpoints.payment.ipn.path;

const num = (m: string) => Number(m);

function activeProvider(ctx: AppContext): PaymentProvider {
  const p = providerOf(ctx);
  if (!p)
    throw unavailable(
      'Top-up is not available: no payment provider is configured.',
      'payment_provider_unavailable',
    );
  return p;
}

export function paymentOptions(ctx: AppContext): PaymentOptions {
  const c = ctx.config;
  return {
    provider: c.PAYMENT_PROVIDER,
    sandbox: c.PAYMENT_PROVIDER === 'sandbox',
    minAmount: TOPUP_MIN,
    maxAmount: TOPUP_MAX,
    payCurrency:
      c.PAYMENT_PROVIDER === 'nowpayments' && c.NOWPAYMENTS_PAY_CURRENCY !== 'any'
        ? c.NOWPAYMENTS_PAY_CURRENCY
        : c.PAYMENT_PROVIDER === 'sandbox'
          ? 'usdttrc20'
          : null,
  };
}

/**
 * Creates an invoice for `amount` USD (already checked by the contract) and stores the PENDING
 * top-up. The provider is asked first: when it is down or refuses, nothing is stored.
 */
export async function createTopup(
  ctx: AppContext,
  userId: string,
  amount: number,
): Promise<{ id: string; url: string }> {
  const provider = activeProvider(ctx);
  if ((await countOpenInvoices(ctx.db, userId)) >= TOPUP_MAX_OPEN) {
    throw new DomainError(
      'too_many_open_invoices',
      `You already have ${TOPUP_MAX_OPEN} unpaid invoices. Pay or cancel one of them first.`,
    );
  }
  const id = randomUUID();
  const amountUsd = amount.toFixed(2);
  const base = ctx.config.PUBLIC_URL;
  let invoice: Awaited<ReturnType<PaymentProvider['createInvoice']>>;
  try {
    invoice = await provider.createInvoice({
      orderId: id,
      amountUsd,
      description: 'SimDock balance top-up',
      ipnUrl: `${base}${WEBHOOK_PATH}`,
      successUrl: `${base}/topup?payment=${id}`,
      cancelUrl: `${base}/topup?payment=${id}`,
    });
  } catch (err) {
    throw providerFailure(ctx, err, 'create invoice');
  }
  await insertPayment(ctx.db, {
    id,
    userId,
    provider: provider.name,
    providerInvoiceId: invoice.providerInvoiceId,
    url: invoice.url,
    amount: amountUsd,
    at: ctx.clock.now(),
  });
  ctx.log.info(
    { paymentId: id, invoice: invoice.providerInvoiceId, amount: amountUsd },
    'top-up invoice created',
  );
  return { id, url: invoice.url };
}

/**
 * The owner gives up an unpaid invoice: it becomes FAILED (shown as cancelled) and frees a place
 * among the open ones. The provider is not told (NOWPayments cannot close an invoice), so its page
 * stays payable: a payment that still arrives is credited by the usual path ("credit what arrived").
 */
export async function cancelTopup(ctx: AppContext, userId: string, id: string): Promise<void> {
  const outcome = await ctx.db.tx(async (q) => {
    const r = await cancelPending(q, { id, userId, at: ctx.clock.now() });
    if (r === 'cancelled') await publish(q, { type: 'payment', userId, paymentId: id });
    return r;
  });
  if (outcome === 'none') throw notFound('No such invoice.', 'payment_not_found');
  if (outcome === 'not_pending')
    throw conflict(
      'Only an unpaid (pending) invoice can be cancelled.',
      undefined,
      'payment_not_cancellable',
    );
  ctx.log.info({ paymentId: id }, 'top-up invoice cancelled by its owner');
}

function providerFailure(ctx: AppContext, err: unknown, what: string): DomainError {
  if (err instanceof PaymentProviderError && err.kind === 'rejected') {
    ctx.log.warn({ err, providerCode: err.details.providerCode }, `payment provider refused to ${what}`);
    return new DomainError(
      'payment_provider_refused',
      `The payment provider refused the invoice: ${err.message}`,
    );
  }
  ctx.log.error({ err }, `payment provider failed to ${what}`);
  return unavailable(
    'The payment provider is not reachable right now. Nothing was charged; please try again in a few minutes.',
    'payment_provider_unavailable',
  );
}

export type WebhookOutcome =
  | { ok: true; result: ApplyResult }
  | { ok: false; httpStatus: 400 | 401; reason: string };

/**
 * A webhook as it arrived (exact body text + headers): verified by the provider, then applied.
 * A refusal changes nothing and is logged; duplicates and stale statuses are accepted quietly.
 */
export async function receiveWebhook(
  ctx: AppContext,
  raw: string,
  headers: WebhookHeaders,
): Promise<WebhookOutcome> {
  const provider = providerOf(ctx);
  if (!provider) return { ok: false, httpStatus: 400, reason: 'no_provider' };
  const v = provider.verifyWebhook(raw, headers);
  if (!v.ok) {
    ctx.log.warn({ provider: provider.name, reason: v.reason, detail: v.detail }, 'payment webhook refused');
    return { ok: false, httpStatus: v.httpStatus, reason: v.reason };
  }
  const result = await applyEvent(ctx, v.event, 'webhook');
  if (result === 'invoice_mismatch') return { ok: false, httpStatus: 400, reason: result };
  ctx.log.info(
    { provider: provider.name, event: v.event.eventKey, form: v.signatureForm, result },
    'payment webhook applied',
  );
  return { ok: true, result };
}

export type ApplyResult =
  | 'applied'
  | 'credited'
  | 'duplicate'
  | 'ignored'
  | 'unknown_payment'
  | 'invoice_mismatch';

/** Applies one verified provider observation in one transaction (event, state, money). */
export async function applyEvent(
  ctx: AppContext,
  ev: PaymentEvent,
  source: 'webhook' | 'query',
): Promise<ApplyResult> {
  return ctx.db.tx(async (q) => {
    const now = ctx.clock.now();
    const payment = await lockPaymentFor(q, {
      provider: ev.provider,
      orderId: ev.orderId,
      invoiceId: ev.providerInvoiceId,
      parentPaymentId: ev.parentPaymentId,
    });
    // A signed event naming our order must carry that order's invoice: a mismatch is refused whole.
    if (
      payment &&
      ev.orderId === payment.id &&
      ev.providerInvoiceId !== null &&
      ev.providerInvoiceId !== payment.providerInvoiceId
    ) {
      ctx.log.warn(
        {
          paymentId: payment.id,
          event: ev.eventKey,
          invoice: ev.providerInvoiceId,
          stored: payment.providerInvoiceId,
        },
        "payment event refused: its invoice is not the order's invoice",
      );
      return 'invoice_mismatch';
    }
    const fresh = await recordEvent(q, {
      provider: ev.provider,
      eventKey: ev.eventKey,
      paymentId: payment?.id ?? null,
      providerPaymentId: ev.providerPaymentId,
      gwStatus: ev.gwStatus,
      source,
      raw: ev.raw,
      at: now,
    });
    if (!fresh) return 'duplicate';
    if (!payment) {
      ctx.log.warn({ event: ev.eventKey, orderId: ev.orderId }, 'payment event for no known top-up');
      return 'unknown_payment';
    }
    const decision = decide(payment, ev);
    if (decision.kind === 'ignore') {
      ctx.log.info(
        { paymentId: payment.id, event: ev.eventKey, why: decision.why },
        'payment event changes nothing',
      );
      return 'ignored';
    }
    if (decision.kind === 'credit') {
      // A provider payment is credited up to its largest confirmed paid amount: a `finished` after
      // a `partially_paid` adds the difference, once (the row lock above orders concurrent ones).
      const claimed = await claimCredit(q, {
        provider: ev.provider,
        providerPaymentId: ev.providerPaymentId,
        paymentId: payment.id,
        parentPaymentId: ev.parentPaymentId,
        amount: ev.amountReal,
        at: now,
      });
      if (claimed.increase === '0.00') return 'duplicate';
      const ref = `${ev.provider}:${ev.providerPaymentId}`;
      await credit(q, {
        userId: payment.userId,
        amount: claimed.increase,
        kind: 'topup',
        // One ledger row per level reached: the first keeps the plain reference.
        ref: claimed.first ? ref : `${ref}:to:${ev.amountReal}`,
        at: now,
      });
      await markCredited(q, {
        id: payment.id,
        amount: claimed.increase,
        gwStatus: ev.gwStatus,
        flag: decision.flag,
        at: now,
      });
      await publish(q, { type: 'payment', userId: payment.userId, paymentId: payment.id });
      return 'credited';
    }
    await movePayment(q, { id: payment.id, ...decision, at: now });
    await publish(q, { type: 'payment', userId: payment.userId, paymentId: payment.id });
    return 'applied';
  });
}

/**
 * The reconciliation: asks the provider about unfinished top-ups that have been quiet for a while
 * (a lost webhook, an invoice nobody paid) and applies what it says. Safe in several processes.
 */
export async function reconcile(ctx: AppContext, batch = 50): Promise<{ checked: number; changed: number }> {
  const provider = providerOf(ctx);
  if (!provider) return { checked: 0, changed: 0 };
  const now = ctx.clock.now();
  const quietSince = new Date(now.getTime() - ctx.config.PAYMENT_RECONCILE_AFTER_MINUTES * 60_000);
  const payableSince = new Date(now.getTime() - ctx.config.PAYMENT_INVOICE_TTL_HOURS * 3600_000);
  const stale = await ctx.db.tx((q) => claimStalePayments(q, quietSince, now, batch, payableSince));
  let changed = 0;
  for (const p of stale) {
    if (p.provider !== provider.name) continue; // made with a provider no longer configured
    let events: PaymentEvent[];
    try {
      events = await askProvider(provider, p.providerInvoiceId, p.knownPaymentIds);
    } catch (err) {
      ctx.log.warn({ err, paymentId: p.id }, 'reconciliation: provider query failed; will retry');
      continue;
    }
    for (const ev of events) {
      const r = await applyEvent(ctx, ev, 'query');
      if (r === 'applied' || r === 'credited') changed++;
    }
    const expired = p.createdAt.getTime() + ctx.config.PAYMENT_INVOICE_TTL_HOURS * 3600_000 < now.getTime();
    if (events.length === 0 && expired) {
      const done = await ctx.db.tx(async (q) => {
        const ok = await expireUnpaid(q, p.id, now);
        if (ok) {
          const row = await findPayment(q, p.id);
          if (row) await publish(q, { type: 'payment', userId: row.userId, paymentId: p.id });
        }
        return ok;
      });
      if (done) {
        changed++;
        ctx.log.info({ paymentId: p.id }, 'reconciliation: unpaid invoice expired');
      }
    }
  }
  return { checked: stale.length, changed };
}

/** Every payment of an invoice: listed when the provider can, else each known payment by id. */
async function askProvider(
  provider: PaymentProvider,
  invoiceId: string,
  known: string[],
): Promise<PaymentEvent[]> {
  try {
    return await provider.queryStatus({ providerInvoiceId: invoiceId });
  } catch (err) {
    // NOWPayments lists by invoice only with the dashboard login; without it, ask per payment.
    if (!(err instanceof PaymentProviderError) || err.kind !== 'auth' || known.length === 0) throw err;
    const out: PaymentEvent[] = [];
    for (const id of known) out.push(...(await provider.queryStatus({ providerPaymentId: id })));
    return out;
  }
}

const userView = (r: PaymentRow): UserPayment => ({
  id: r.id,
  amount: num(r.amount),
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  url: r.url,
  cancelled: shownPaymentStatus(r) === 'CANCELLED',
});

export async function paymentHistory(
  ctx: AppContext,
  userId: string,
  page: number,
): Promise<PaymentHistoryResponse> {
  const size = PAYMENT_HISTORY_PAGE_SIZE;
  const { rows, total } = await userPaymentsPage(ctx.db, userId, size, (page - 1) * size);
  return { items: rows.map(userView), page, totalPages: totalPages(total, size) };
}

/** Payment Manager's list: newest first, filtered by a search text, a status and creation days (UTC). */
export async function adminPayments(
  ctx: AppContext,
  query: {
    page: number;
    pageSize: number;
    search?: string;
    status?: PaymentStatus;
    from?: string;
    to?: string;
    after?: string;
    before?: string;
  },
): Promise<AdminPaymentsResponse> {
  const { page, pageSize, after, before } = query;
  const text = query.search?.trim();
  const day = (d: string, plus = 0) => new Date(Date.parse(`${d}T00:00:00.000Z`) + plus * 86_400_000);
  const filter: PaymentFilter = {
    ...(text ? { search: { text, userIds: await userIdsMatching(ctx.db, text) } } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.from ? { from: day(query.from) } : {}),
    // `to` is inclusive: everything before the next day.
    ...(query.to ? { before: day(query.to, 1) } : {}),
  };
  const { rows, total, ...paged } = await allPaymentsPage(ctx.db, { page, pageSize, after, before }, filter);
  const names = await usernamesByIds(
    ctx.db,
    rows.map((r) => r.userId),
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      username: names.get(r.userId) ?? '',
      amount: num(r.amount),
      amountReal: num(r.amountReal),
      status: r.status,
      gwStatus: r.gwStatus,
      createdAt: r.createdAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      provider: r.provider,
      flag: r.flag,
    })),
    page,
    totalPages: totalPages(total, pageSize),
    total,
    ...paged,
  };
}

/** The live stream's `payment` event: the top-up as its owner's history shows it. */
export const renderPaymentEvent: LiveRenderer<'payment'> = async (ctx, event) => {
  if (event.type !== 'payment') return null;
  const row = await findPayment(ctx.db, event.paymentId);
  return row && row.userId === event.userId ? { event: 'payment', data: userView(row) } : null;
};

/**
 * The demo's top-up history (sandbox only): one invoice paid through the sandbox exactly as a tester
 * would (credited by the webhook path), one that failed and one still open. Returns what was credited.
 */
export async function seedDemoTopups(ctx: AppContext, userId: string): Promise<number> {
  const sandbox = providerOf(ctx);
  if (!(sandbox instanceof SandboxProvider)) return 0;
  const pay = async (amount: number, outcome: SandboxOutcome | null) => {
    const { url } = await createTopup(ctx, userId, amount);
    if (!outcome) return;
    const invoiceId = url.split('/').pop() ?? '';
    for (const w of await sandbox.pay(invoiceId, outcome)) await receiveWebhook(ctx, w.raw, w.headers);
  };
  await pay(10, 'exact');
  await pay(50, 'fail');
  await pay(20, null);
  return 10;
}
