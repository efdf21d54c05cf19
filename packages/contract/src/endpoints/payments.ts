import { z } from 'zod';
import { ErrorBody, Ok } from '../api/common.ts';
import {
  AdminPaymentsQuery,
  AdminPaymentsResponse,
  CancelPaymentBody,
  CreatePaymentBody,
  CreatePaymentResponse,
  PageQuery,
  PaymentHistoryResponse,
  PaymentOptions,
} from '../api/payments.ts';
import { endpoint } from '../endpoint.ts';

/** Top-up (the user's own invoices), Payment Manager (everyone's), and the provider's webhook. */
export const payment = {
  create: endpoint({
    method: 'POST',
    path: '/api/Payments/create',
    access: 'user',
    tag: 'payments',
    body: CreatePaymentBody,
    errors: ['too_many_open_invoices', 'payment_provider_refused', 'payment_provider_unavailable'],
    response: { 200: CreatePaymentResponse },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/Payments/cancel',
    access: 'user',
    tag: 'payments',
    summary: 'Cancel one of the caller’s unpaid (PENDING) invoices',
    description:
      'The invoice becomes FAILED and no longer counts toward the limit of 5 unpaid invoices. Money that still arrives for it is credited (docs/payments.md). Refusals: 404 `payment_not_found` (none of the caller’s), 409 `payment_not_cancellable` (not PENDING).',
    body: CancelPaymentBody,
    errors: ['payment_not_found', 'payment_not_cancellable'],
    response: { 200: Ok },
  }),
  history: endpoint({
    method: 'GET',
    path: '/api/Payments/history',
    access: 'user',
    tag: 'payments',
    query: PageQuery,
    response: { 200: PaymentHistoryResponse },
  }),
  options: endpoint({
    method: 'GET',
    path: '/api/Payments/options',
    access: 'user',
    tag: 'payments',
    response: { 200: PaymentOptions },
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/api/Admin/payments',
    access: 'admin',
    tag: 'admin',
    query: AdminPaymentsQuery,
    response: { 200: AdminPaymentsResponse },
  }),
  /**
   * The provider's webhook (IPN; NOWPayments `ipn_callback_url`). Its body is the provider's signed
   * text, checked by the provider's verifier, so none is declared here.
   */
  ipn: endpoint({
    method: 'POST',
    path: '/api/Payments/ipn',
    access: 'public',
    tag: 'payments',
    response: { 200: Ok, 400: ErrorBody, 401: ErrorBody },
  }),
};

const SandboxInvoiceParams = z.object({ id: z.string().max(64) });

/**
 * The sandbox provider's hosted invoice page (only with PAYMENT_PROVIDER=sandbox): an HTML page
 * whose form posts what the "payer" does. Not part of the API, so kept out of its document.
 */
export const sandbox = {
  page: endpoint({
    method: 'GET',
    path: '/sandbox/pay/:id',
    access: 'public',
    tag: 'payments',
    params: SandboxInvoiceParams,
    hide: true,
  }),
  pay: endpoint({
    method: 'POST',
    path: '/sandbox/pay/:id',
    access: 'public',
    tag: 'payments',
    params: SandboxInvoiceParams,
    hide: true,
  }),
};
