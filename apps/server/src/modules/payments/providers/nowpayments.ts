// NOWPayments adapter over fetch (docs/payments.md). No database here.
import { NOWPAYMENTS_STATUSES, type NowPaymentsStatus } from '@simdock/contract';
import { z } from 'zod';
import { decimalFromJson, floorToCents, mulDivFloorCents, parseDecimal } from './money.ts';
import { verifyNowPaymentsSignature } from './nowpayments.signature.ts';
import {
  type CreatedInvoice,
  type CreateInvoiceRequest,
  headerValue,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentStatus,
  type StatusRef,
  type WebhookHeaders,
  type WebhookVerification,
} from './provider.ts';

export interface NowPaymentsConfig {
  /** e.g. https://api.nowpayments.io/v1, https://api-sandbox.nowpayments.io/v1, or payment-sim's `${url}/v1`. */
  apiUrl: string;
  apiKey: string;
  /** IPN secret from the dashboard (not the API key). */
  ipnSecret: string;
  /** Dashboard login, needed only to list payments by invoice (`POST /v1/auth` → Bearer JWT). */
  email?: string;
  password?: string;
  /** Coin pinned on the invoice; null lets the payer choose on the page. Default usdttrc20. */
  payCurrency?: string | null;
  /** Per-request timeout, default 10000 ms. */
  timeoutMs?: number;
  /** How long a `/v1/auth` token is reused, default 4 minutes (the JWT is short-lived). */
  authTokenTtlMs?: number;
  /** Rows per page when listing payments, default 100. */
  listPageSize?: number;
  /** Freeze the rate for 20 minutes (then the payment expires). Default false. */
  fixedRate?: boolean;
  /** Pay currencies worth exactly 1 USD (amountReal = actually_paid). Default: usdt* and usdc*. */
  isUsdStablecoin?: (payCurrency: string) => boolean;
  fetch?: typeof fetch;
  now?: () => number;
}

/** Provider status → ours (docs/payments.md#states). */
const STATUS_MAP: Record<
  NowPaymentsStatus,
  { status: PaymentStatus; final: boolean; credit: boolean; refund: boolean }
> = {
  waiting: { status: 'PENDING', final: false, credit: false, refund: false },
  confirming: { status: 'PAID', final: false, credit: false, refund: false },
  confirmed: { status: 'PAID', final: false, credit: false, refund: false },
  sending: { status: 'PAID', final: false, credit: false, refund: false },
  finished: { status: 'DONE', final: true, credit: true, refund: false },
  // Final underpayment: funds already forwarded; credited for what arrived
  // (docs/payments.md#partial-and-over-payments).
  partially_paid: { status: 'DONE', final: true, credit: true, refund: false },
  failed: { status: 'FAILED', final: true, credit: false, refund: false },
  expired: { status: 'FAILED', final: true, credit: false, refund: false },
  // Merchant-set custom status.
  cancelled: { status: 'FAILED', final: true, credit: false, refund: false },
  // FAILED if nothing was credited; a DONE top-up stays DONE, gwStatus=refunded, flagged for an admin.
  refunded: { status: 'FAILED', final: true, credit: false, refund: true },
};

export function mapNowPaymentsStatus(gwStatus: string): {
  status: PaymentStatus | null;
  final: boolean;
  credit: boolean;
  refund: boolean;
} {
  return isNowPaymentsStatus(gwStatus)
    ? STATUS_MAP[gwStatus]
    : { status: null, final: false, credit: false, refund: false };
}

function isNowPaymentsStatus(s: string): s is NowPaymentsStatus {
  return (NOWPAYMENTS_STATUSES as readonly string[]).includes(s);
}

export const defaultIsUsdStablecoin = (code: string): boolean => /^(usdt|usdc)[a-z0-9]*$/i.test(code);

const id = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String);
const optId = id.nullish().transform((v) => v ?? null);
const optText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : String(v)));

const PaymentSchema = z.looseObject({
  payment_id: id,
  payment_status: z.string().min(1),
  invoice_id: optId,
  parent_payment_id: optId,
  order_id: optText,
  price_amount: z.unknown(),
  price_currency: optText,
  pay_amount: z.unknown(),
  actually_paid: z.unknown(),
  pay_currency: optText,
  updated_at: z.union([z.number(), z.string()]).nullish(),
});

const InvoiceSchema = z.looseObject({ id, invoice_url: z.url() });
const ListSchema = z.looseObject({
  data: z.array(z.record(z.string(), z.unknown())),
  pagesCount: z.number().int().nonnegative().optional(),
  total: z.number().int().nonnegative().optional(),
});

/**
 * An amount of a payment object as exact decimal text; null when the provider left it out. Anything
 * else than a non-negative number or decimal text of the fixed form makes the whole payment malformed
 * (its IPN is refused with 400 and nothing moves), never an amount of 0 or a guess.
 */
function amountOf(
  p: Record<'price_amount' | 'pay_amount' | 'actually_paid', unknown>,
  field: 'price_amount' | 'pay_amount' | 'actually_paid',
): string | null {
  const value = p[field];
  if (value === null || value === undefined) return null;
  const text = decimalFromJson(value);
  if (text === null)
    throw new Error(`${field} is not a decimal amount: ${JSON.stringify(value).slice(0, 40)}`);
  return text;
}

const AMOUNT_USD = /^(?:0|[1-9]\d{0,8})(?:\.\d{1,2})?$/;
const PAGE_LIMIT = 100;
const MAX_PAGES = 50;

export class NowPaymentsProvider implements PaymentProvider {
  readonly name = 'nowpayments' as const;
  private readonly base: string;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private token: { value: string; until: number } | null = null;

  constructor(private readonly config: NowPaymentsConfig) {
    if (!config.apiKey) throw new Error('NOWPayments API key is not configured');
    if (!config.ipnSecret) throw new Error('NOWPayments IPN secret is not configured');
    this.base = config.apiUrl.replace(/\/+$/, '');
    this.fetchFn = config.fetch ?? fetch;
    this.now = config.now ?? Date.now;
  }

  async createInvoice(req: CreateInvoiceRequest): Promise<CreatedInvoice> {
    if (!AMOUNT_USD.test(req.amountUsd) || Number(req.amountUsd) <= 0) {
      throw new PaymentProviderError(
        'rejected',
        `amountUsd must be a positive decimal with ≤ 2 places: ${req.amountUsd}`,
      );
    }
    const payCurrency = this.config.payCurrency === undefined ? 'usdttrc20' : this.config.payCurrency;
    const body: Record<string, unknown> = {
      // The API takes a JSON number; a 2-decimal string converts exactly enough for the wire.
      price_amount: Number(req.amountUsd),
      price_currency: 'usd',
      order_id: req.orderId,
      order_description: req.description,
      ipn_callback_url: req.ipnUrl,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      partially_paid_url: req.partiallyPaidUrl ?? req.successUrl,
      is_fixed_rate: this.config.fixedRate ?? false,
      is_fee_paid_by_user: false,
    };
    if (payCurrency) body.pay_currency = payCurrency;
    const json = await this.request('POST', '/invoice', { body });
    const parsed = InvoiceSchema.safeParse(json);
    if (!parsed.success) {
      throw new PaymentProviderError('bad_response', `unexpected invoice response: ${parsed.error.message}`);
    }
    return { providerInvoiceId: parsed.data.id, url: parsed.data.invoice_url, raw: parsed.data };
  }

  verifyWebhook(rawBody: string, headers: WebhookHeaders): WebhookVerification {
    const sig = verifyNowPaymentsSignature(
      rawBody,
      headerValue(headers, 'x-nowpayments-sig'),
      this.config.ipnSecret,
    );
    if (!sig.ok) {
      if (sig.reason === 'malformed_body')
        return { ok: false, reason: 'malformed', detail: sig.detail, httpStatus: 400 };
      const reason = sig.reason === 'missing_signature' ? 'missing_signature' : 'bad_signature';
      return { ok: false, reason, detail: sig.detail, httpStatus: 401 };
    }
    try {
      return { ok: true, event: this.normalize(sig.body), signatureForm: sig.form };
    } catch (err) {
      return { ok: false, reason: 'malformed', detail: (err as Error).message, httpStatus: 400 };
    }
  }

  async queryStatus(ref: StatusRef): Promise<PaymentEvent[]> {
    if ('providerPaymentId' in ref) return [await this.getPayment(ref.providerPaymentId)];
    return this.listInvoicePayments(ref.providerInvoiceId);
  }

  /** `GET /v1/payment/:id` (must be the API key that created it). */
  async getPayment(providerPaymentId: string): Promise<PaymentEvent> {
    if (!/^\d+$/.test(providerPaymentId)) {
      throw new PaymentProviderError('not_found', `not a NOWPayments payment id: ${providerPaymentId}`);
    }
    const json = await this.request('GET', `/payment/${providerPaymentId}`);
    return this.normalizeResponse(json);
  }

  /** `GET /v1/payment/?invoiceId=` with the API key and a Bearer token, every page. */
  async listInvoicePayments(providerInvoiceId: string): Promise<PaymentEvent[]> {
    if (!/^\d+$/.test(providerInvoiceId)) {
      throw new PaymentProviderError('not_found', `not a NOWPayments invoice id: ${providerInvoiceId}`);
    }
    const out: PaymentEvent[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = new URLSearchParams({
        invoiceId: providerInvoiceId,
        limit: String(this.config.listPageSize ?? PAGE_LIMIT),
        page: String(page),
        sortBy: 'created_at',
        orderBy: 'asc',
      });
      const json = await this.withBearer((authorization) =>
        this.request('GET', `/payment/?${q}`, { headers: { authorization } }),
      );
      const parsed = ListSchema.safeParse(json);
      if (!parsed.success) {
        throw new PaymentProviderError('bad_response', `unexpected payment list: ${parsed.error.message}`);
      }
      for (const row of parsed.data.data) out.push(this.normalizeResponse(row));
      const pages = parsed.data.pagesCount ?? 1;
      if (page + 1 >= pages || parsed.data.data.length === 0) break;
    }
    return out;
  }

  /** Turns a payment object (IPN body, status or list row) into a PaymentEvent; throws on a bad shape. */
  normalize(body: Record<string, unknown>): PaymentEvent {
    const parsed = PaymentSchema.safeParse(body);
    if (!parsed.success) throw new Error(`not a NOWPayments payment: ${z.prettifyError(parsed.error)}`);
    const p = parsed.data;
    const mapped = mapNowPaymentsStatus(p.payment_status);
    const priceAmount = amountOf(p, 'price_amount');
    const payAmount = amountOf(p, 'pay_amount');
    const actuallyPaid = amountOf(p, 'actually_paid');
    const payCurrency = p.pay_currency?.toLowerCase() ?? null;
    return {
      provider: 'nowpayments',
      providerPaymentId: p.payment_id,
      providerInvoiceId: p.invoice_id,
      parentPaymentId: p.parent_payment_id,
      orderId: p.order_id,
      gwStatus: p.payment_status,
      ...mapped,
      amountReal: this.amountReal(actuallyPaid, payCurrency, priceAmount, payAmount),
      priceAmount,
      priceCurrency: p.price_currency?.toLowerCase() ?? null,
      payAmount,
      actuallyPaid,
      payCurrency,
      updatedAt: toIso(p.updated_at),
      eventKey: `${p.payment_id}:${p.payment_status}`,
      raw: body,
    };
  }

  /**
   * USD actually received, rounded down to cents (docs/payments.md#partial-and-over-payments): a USD
   * stablecoin counts 1:1; any other coin is valued at the invoice's quote, price_amount × actually_paid /
   * pay_amount. Never `actually_paid_at_fiat` (0 in the docs' example) nor `outcome_amount` (net of fees).
   */
  private amountReal(
    actuallyPaid: string | null,
    payCurrency: string | null,
    priceAmount: string | null,
    payAmount: string | null,
  ): string {
    if (!actuallyPaid || parseDecimal(actuallyPaid)?.units === 0n) return '0.00';
    const stable = this.config.isUsdStablecoin ?? defaultIsUsdStablecoin;
    if (payCurrency && stable(payCurrency)) return floorToCents(actuallyPaid);
    if (!priceAmount || !payAmount) return '0.00';
    return mulDivFloorCents(priceAmount, actuallyPaid, payAmount);
  }

  private normalizeResponse(json: unknown): PaymentEvent {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new PaymentProviderError('bad_response', 'payment is not a JSON object');
    }
    try {
      return this.normalize(json as Record<string, unknown>);
    } catch (err) {
      throw new PaymentProviderError('bad_response', (err as Error).message);
    }
  }

  private async withBearer<T>(call: (authorization: string) => Promise<T>): Promise<T> {
    const fresh = !this.token || this.token.until <= this.now();
    const token = await this.authToken(fresh);
    try {
      return await call(`Bearer ${token}`);
    } catch (err) {
      // An expired or revoked token: log in again once.
      if (err instanceof PaymentProviderError && err.details.httpStatus === 401 && !fresh) {
        return call(`Bearer ${await this.authToken(true)}`);
      }
      throw err;
    }
  }

  private async authToken(refresh: boolean): Promise<string> {
    if (!refresh && this.token && this.token.until > this.now()) return this.token.value;
    const { email, password } = this.config;
    if (!email || !password) {
      throw new PaymentProviderError(
        'auth',
        'listing NOWPayments payments needs the dashboard email and password (NOWPAYMENTS_EMAIL, NOWPAYMENTS_PASSWORD)',
      );
    }
    const json = await this.request('POST', '/auth', { body: { email, password }, apiKey: false });
    const token = (json as { token?: unknown } | null)?.token;
    if (typeof token !== 'string' || !token)
      throw new PaymentProviderError('bad_response', 'no token in /auth answer');
    this.token = { value: token, until: this.now() + (this.config.authTokenTtlMs ?? 240_000) };
    return token;
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; apiKey?: boolean } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (opts.apiKey !== false) headers['x-api-key'] = this.config.apiKey;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const timeoutMs = this.config.timeoutMs ?? 10_000;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(`${this.base}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      text = await res.text();
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new PaymentProviderError(
        'unavailable',
        timedOut
          ? `NOWPayments did not answer within ${timeoutMs} ms`
          : `NOWPayments unreachable: ${describe(err)}`,
        { cause: err },
      );
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; handled below
    }
    if (res.ok) {
      if (json === null)
        throw new PaymentProviderError('bad_response', `NOWPayments ${path}: answer is not JSON`);
      return json;
    }
    const info = (json ?? {}) as { code?: unknown; message?: unknown };
    const providerCode = typeof info.code === 'string' ? info.code : undefined;
    const message = `NOWPayments ${method} ${path.split('?')[0]}: HTTP ${res.status}${providerCode ? ` ${providerCode}` : ''}${
      typeof info.message === 'string' ? ` — ${info.message}` : ''
    }`;
    const details = { httpStatus: res.status, providerCode };
    if (res.status >= 500 || res.status === 429)
      throw new PaymentProviderError('unavailable', message, details);
    if (res.status === 401 || res.status === 403) throw new PaymentProviderError('auth', message, details);
    if (res.status === 404) throw new PaymentProviderError('not_found', message, details);
    throw new PaymentProviderError('rejected', message, details);
  }
}

function toIso(v: number | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const d = typeof v === 'number' ? new Date(v) : new Date(/^\d+$/.test(v) ? Number(v) : v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
