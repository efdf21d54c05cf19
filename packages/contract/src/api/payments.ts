import { z } from 'zod';
import { boundedText, PAGE_MAX } from '../limits.ts';
import { PageCursorFields, PagedAnswerFields } from '../pagination.ts';
import { topupAmountProblem, topupMessages } from '../payments.ts';
import { ADMIN_PAGE_SIZE } from './orders.ts';

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'DONE', 'FAILED'] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** The gwStatus of a top-up its owner cancelled (status FAILED; money that arrives is still credited). */
export const PAYMENT_CANCELLED_BY_USER = 'cancelled_by_user';
/**
 * The statuses NOWPayments gives a payment (docs/payments.md#states): what the server maps onto its
 * own and what the payment simulator walks through.
 */
export const NOWPAYMENTS_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'expired',
  'cancelled',
  'refunded',
] as const;
export type NowPaymentsStatus = (typeof NOWPAYMENTS_STATUSES)[number];

/** The payment provider's own statuses (NOWPayments), as gwStatus carries them, and our cancel. */
export const PROVIDER_PAYMENT_STATUSES = [...NOWPAYMENTS_STATUSES, PAYMENT_CANCELLED_BY_USER] as const;

/**
 * A top-up's status as people read it, the same for its owner and for an administrator: FAILED because
 * its owner cancelled it reads "Cancelled", not "Failed".
 */
export function shownPaymentStatus(p: {
  status: PaymentStatus;
  gwStatus: string | null;
}): PaymentStatus | 'CANCELLED' {
  return p.status === 'FAILED' && p.gwStatus === PAYMENT_CANCELLED_BY_USER ? 'CANCELLED' : p.status;
}

/** POST /api/Payments/create {amount}: USD, a number ≥ 10 with at most two decimals. */
export const CreatePaymentBody = z.object({
  amount: z.number({ error: topupMessages.notNumber }).superRefine((v, c) => {
    const problem = topupAmountProblem(v);
    if (problem) c.addIssue({ code: 'custom', message: topupMessages[problem] });
  }),
});
export type CreatePaymentBody = z.infer<typeof CreatePaymentBody>;

/** POST /api/Payments/cancel {id}: the caller's own PENDING invoice. */
export const CancelPaymentBody = z.object({ id: z.string().max(64) });
export type CancelPaymentBody = z.infer<typeof CancelPaymentBody>;

/** The hosted invoice to send the browser to (spec: `result.url`). */
export const CreatePaymentResponse = z.object({
  code: z.literal(1),
  result: z.object({ id: z.string(), url: z.string() }),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
});

export const UserPayment = z.object({
  id: z.string(),
  amount: z.number(),
  status: PaymentStatus,
  createdAt: z.string(),
  /** The hosted invoice ("Pay Now" while PENDING). */
  url: z.string(),
  /** FAILED because its owner cancelled it (not the provider): the page says "Cancelled". */
  cancelled: z.boolean(),
});
export type UserPayment = z.infer<typeof UserPayment>;

export const PaymentHistoryResponse = z.object({
  items: z.array(UserPayment),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type PaymentHistoryResponse = z.infer<typeof PaymentHistoryResponse>;

/** A filter day, YYYY-MM-DD (a whole UTC day), that exists in the calendar. */
const FilterDay = z
  .string()
  .max(10, 'Enter the date as YYYY-MM-DD.')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date as YYYY-MM-DD.')
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00.000Z`);
    // 2026-02-30 parses in some engines as March 2nd: the day must read back the same.
    return Number.isFinite(t) && new Date(t).toISOString().startsWith(v);
  }, 'Enter a real date.');

/** The longest Payment Manager search: a username or an invoice id (ours or the provider's). */
export const PAYMENT_SEARCH_MAX = 64;

/**
 * GET /api/Admin/payments: paging, and the optional filters Payment Manager offers: `search` (part of
 * a username, or of an invoice id: SimDock's or the provider's), `status`, and the creation days `from`
 * and `to` (inclusive, UTC).
 */
export const AdminPaymentsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
    pageSize: z.coerce.number().int().min(1).max(500).default(ADMIN_PAGE_SIZE),
    search: boundedText(PAYMENT_SEARCH_MAX, 'Search').optional(),
    status: PaymentStatus.optional(),
    from: FilterDay.optional(),
    to: FilterDay.optional(),
    ...PageCursorFields,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The From date must not be after the To date.',
    path: ['to'],
  });
export type AdminPaymentsQuery = z.input<typeof AdminPaymentsQuery>;

export const AdminPayment = z.object({
  id: z.string(),
  username: z.string(),
  amount: z.number(),
  /** What actually arrived (USD, rounded down to cents); 0 until something arrived. */
  amountReal: z.number(),
  status: PaymentStatus,
  /** The provider's own latest status string. */
  gwStatus: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  provider: z.string(),
  /** Needs an administrator's look: a refund after the credit, or a repeated deposit. */
  flag: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof AdminPayment>;

export const AdminPaymentsResponse = z.object({
  items: z.array(AdminPayment),
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  ...PagedAnswerFields,
});
export type AdminPaymentsResponse = z.infer<typeof AdminPaymentsResponse>;

/** GET /api/Payments/options: what the top-up page needs to know about the configured provider. */
export const PaymentOptions = z.object({
  /** `none`: top-up is switched off on this server. */
  provider: z.enum(['sandbox', 'nowpayments', 'none']),
  /** True for the local sandbox: no real money moves (the page says so). */
  sandbox: z.boolean(),
  minAmount: z.number(),
  maxAmount: z.number(),
  payCurrency: z.string().nullable(),
});
export type PaymentOptions = z.infer<typeof PaymentOptions>;
