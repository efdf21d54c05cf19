// The payment provider contract: what the payments module needs from any crypto-invoice gateway.
// Pure HTTP / crypto; no database. The payments module owns persistence and crediting (via billing).

/** Our top-up statuses (docs/payments.md#states). */
export type PaymentStatus = 'PENDING' | 'PAID' | 'DONE' | 'FAILED';

export type ProviderName = 'nowpayments' | 'sandbox';

export interface CreateInvoiceRequest {
  /** Our top-up id; the provider echoes it as order_id. Keep it ASCII. */
  orderId: string;
  /** USD price as a decimal string with at most 2 decimals, e.g. "10.00". */
  amountUsd: string;
  /** Shown on the hosted page. Keep it ASCII (research pitfall 3). */
  description: string;
  /** Where the provider POSTs webhooks (IPNs). */
  ipnUrl: string;
  /** Where the payer's browser returns after paying / cancelling. */
  successUrl: string;
  cancelUrl: string;
  /** Return URL after an underpayment (defaults to successUrl). */
  partiallyPaidUrl?: string;
}

export interface CreatedInvoice {
  providerInvoiceId: string;
  /** The hosted invoice page the user is sent to ("Pay Now"). */
  url: string;
  /** The provider's response, for logs and the admin view. */
  raw: Record<string, unknown>;
}

/**
 * One observation of one provider payment (from a webhook or a status query), normalised.
 * A provider invoice may have several payments (NOWPayments repeated deposits): credit each
 * `providerPaymentId` at most once.
 */
export interface PaymentEvent {
  provider: ProviderName;
  providerPaymentId: string;
  providerInvoiceId: string | null;
  /** Set on a repeated deposit: the payment whose address received it again. */
  parentPaymentId: string | null;
  /** Our orderId as echoed by the provider. */
  orderId: string | null;
  /** The provider's raw status string (stored as gwStatus). */
  gwStatus: string;
  /**
   * Our status for this gwStatus, as if nothing had been credited yet; null when the provider's
   * status is unknown (store gwStatus, change nothing, log it).
   * `refunded` maps to FAILED: a top-up already DONE stays DONE and is flagged for an admin.
   */
  status: PaymentStatus | null;
  /** The provider will not move this payment any further on its own. */
  final: boolean;
  /** Final success: credit `amountReal` now (exactly once, keyed by providerPaymentId). */
  credit: boolean;
  /** The provider refunded the payer (never debit automatically; flag for an admin). */
  refund: boolean;
  /** What actually arrived, in USD, rounded down to cents ("12.34"); "0.00" when nothing. */
  amountReal: string;
  /** Invoice price and currency, and the crypto side, as exact decimal strings (null when absent). */
  priceAmount: string | null;
  priceCurrency: string | null;
  payAmount: string | null;
  actuallyPaid: string | null;
  payCurrency: string | null;
  /** When the provider last changed the payment (ISO), if it says. */
  updatedAt: string | null;
  /** Dedupe key for a webhook-events table: `${providerPaymentId}:${gwStatus}`. */
  eventKey: string;
  /** The provider's payload. */
  raw: Record<string, unknown>;
}

export type WebhookRefusalReason = 'missing_signature' | 'bad_signature' | 'malformed';

export interface WebhookRefusal {
  ok: false;
  reason: WebhookRefusalReason;
  /** Human-readable, for the log (never echo it to the caller). */
  detail: string;
  /** 401 for a missing or bad signature, 400 for a malformed body. */
  httpStatus: 400 | 401;
}

export interface WebhookAccepted {
  ok: true;
  event: PaymentEvent;
  /** How the signature matched (e.g. NOWPayments' canonical form), for the log. */
  signatureForm: string;
}

export type WebhookVerification = WebhookAccepted | WebhookRefusal;

/** Request headers as Node/Fastify give them (lower-case names). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export type StatusRef = { providerPaymentId: string } | { providerInvoiceId: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates a hosted invoice. Throws PaymentProviderError. */
  createInvoice(req: CreateInvoiceRequest): Promise<CreatedInvoice>;
  /** Verifies and parses a webhook from its exact raw body text. Never throws for bad input. */
  verifyWebhook(rawBody: string, headers: WebhookHeaders): WebhookVerification;
  /** The current state of one payment, or of every payment of an invoice (empty: nobody paid yet). */
  queryStatus(ref: StatusRef): Promise<PaymentEvent[]>;
  /** Every payment made against an invoice, repeated deposits included. */
  listInvoicePayments(providerInvoiceId: string): Promise<PaymentEvent[]>;
}

export type ProviderErrorKind =
  /** Network error, timeout, 5xx or 429: try again later. */
  | 'unavailable'
  /** Our credentials were refused (API key, dashboard login): a configuration problem. */
  | 'auth'
  /** The provider refused the request (e.g. below the minimum amount). */
  | 'rejected'
  | 'not_found'
  /** A 2xx answer we could not understand. */
  | 'bad_response';

export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: { httpStatus?: number; providerCode?: string; cause?: unknown } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === 'unavailable';
  }
}

/** Case-insensitive single header value. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== want) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}
