import { z } from 'zod';
import { PAGE_MAX } from '../limits.ts';
import { topupAmountProblem, topupMessages } from '../payments.ts';
import { ADMIN_PAGE_SIZE } from './orders.ts';

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'DONE', 'FAILED'] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** POST /api/Payments/create {amount}: USD, a number ≥ 10 with at most two decimals. */
export const CreatePaymentBody = z.object({
  amount: z.number({ error: topupMessages.notNumber }).superRefine((v, c) => {
    const problem = topupAmountProblem(v);
    if (problem) c.addIssue({ code: 'custom', message: topupMessages[problem] });
  }),
});
export type CreatePaymentBody = z.infer<typeof CreatePaymentBody>;

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
});
export type UserPayment = z.infer<typeof UserPayment>;

export const PaymentHistoryResponse = z.object({
  items: z.array(UserPayment),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type PaymentHistoryResponse = z.infer<typeof PaymentHistoryResponse>;

export const AdminPaymentsQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(ADMIN_PAGE_SIZE),
});

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
