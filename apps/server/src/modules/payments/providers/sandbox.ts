// The sandbox provider: the embedded default. It plays a crypto-invoice provider on our own server
// (a local hosted page where the tester picks the outcome) and speaks to the payments module
// exactly like a real one: signed webhooks through the same verification and crediting code, and
// status queries for the reconciliation. No real money moves; refused with NODE_ENV=production.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { endpointPath, endpoints } from '@simdock/contract';
import { z } from 'zod';
import type { Db } from '../../../db/db.ts';
import { centsOf, centsToString, floorToCents } from './money.ts';
import { mapNowPaymentsStatus } from './nowpayments.ts';
import {
  type CreatedInvoice,
  type CreateInvoiceRequest,
  headerValue,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderError,
  type StatusRef,
  type WebhookHeaders,
  type WebhookVerification,
} from './provider.ts';
import {
  findSandboxInvoice,
  insertSandboxInvoice,
  paySandboxInvoice,
  type SandboxInvoice,
} from './sandbox.queries.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** What the tester can choose on the sandbox page. */
export const SANDBOX_OUTCOMES = ['exact', 'partial', 'over', 'fail'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

// A non-negative decimal of sane size: anything else (-50, NaN, Infinity, 1e999) is a malformed
// notification (400), never an amount to credit.
const Amount = z.string().regex(/^\d{1,12}(?:\.\d{1,18})?$/, 'not a non-negative decimal amount');

const WebhookBody = z.object({
  invoice_id: z.string(),
  payment_id: z.string(),
  order_id: z.string(),
  payment_status: z.string(),
  price_amount: Amount,
  actually_paid: Amount,
  updated_at: z.string(),
});
type WebhookBody = z.infer<typeof WebhookBody>;

/** A sandbox webhook ready to hand to the webhook use case (raw body + headers). */
export interface SignedWebhook {
  raw: string;
  headers: WebhookHeaders;
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    appSecret: string,
    private readonly now: () => Date,
  ) {
    // A key of its own, derived from the app secret: a leaked sandbox signature signs nothing else.
    this.key = createHmac('sha256', appSecret).update('simdock-sandbox-payments').digest();
  }

  async createInvoice(req: CreateInvoiceRequest): Promise<CreatedInvoice> {
    const id = `sbx_${randomBytes(12).toString('hex')}`;
    // Same-origin paths: the page and its return links work whatever host the browser used.
    await insertSandboxInvoice(this.db, {
      id,
      orderId: req.orderId,
      amount: req.amountUsd,
      successUrl: pathOf(req.successUrl),
      cancelUrl: pathOf(req.cancelUrl),
      at: this.now(),
    });
    const url = endpointPath(endpoints.sandbox.page, { id });
    return { providerInvoiceId: id, url, raw: { id, url, price_amount: req.amountUsd } };
  }

  invoice(id: string): Promise<SandboxInvoice | undefined> {
    if (!/^sbx_[0-9a-f]{24}$/.test(id)) return Promise.resolve(undefined);
    return findSandboxInvoice(this.db, id);
  }

  /**
   * The tester paid on the sandbox page: records the outcome once and returns the webhooks the
   * provider would send, in order (waiting, confirming, final). Throws `rejected` for a paid invoice
   * or an amount that does not fit the outcome.
   */
  async pay(id: string, outcome: SandboxOutcome, amountText?: string): Promise<SignedWebhook[]> {
    const inv = await this.invoice(id);
    if (!inv) throw new PaymentProviderError('not_found', 'This sandbox invoice does not exist.');
    const price = centsOf(inv.amount);
    let paid: bigint;
    if (outcome === 'exact') paid = price;
    else if (outcome === 'fail') paid = 0n;
    else {
      paid = paidCents(amountText);
      if (outcome === 'partial' && (paid <= 0n || paid >= price))
        throw new PaymentProviderError(
          'rejected',
          `A partial payment is more than 0 and less than ${inv.amount}.`,
        );
      if (outcome === 'over' && paid <= price)
        throw new PaymentProviderError('rejected', `An over-payment is more than ${inv.amount}.`);
    }
    const final = outcome === 'fail' ? 'failed' : outcome === 'partial' ? 'partially_paid' : 'finished';
    const at = this.now();
    const done = await paySandboxInvoice(this.db, { id, status: final, paid: centsToString(paid), at });
    if (!done) throw new PaymentProviderError('rejected', 'This sandbox invoice has been paid already.');
    const steps = final === 'failed' ? ['waiting', 'failed'] : ['waiting', 'confirming', final];
    return steps.map((status) =>
      this.sign(this.body(done, status, status === final ? (done.paid ?? '0.00') : '0.00', at)),
    );
  }

  verifyWebhook(rawBody: string, headers: WebhookHeaders): WebhookVerification {
    const sig = headerValue(headers, SANDBOX_SIGNATURE_HEADER);
    if (!sig)
      return { ok: false, reason: 'missing_signature', detail: 'no signature header', httpStatus: 401 };
    const want = createHmac('sha256', this.key).update(rawBody, 'utf8').digest();
    const got = Buffer.from(sig, 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want))
      return { ok: false, reason: 'bad_signature', detail: 'signature does not match', httpStatus: 401 };
    let parsed: WebhookBody;
    try {
      parsed = WebhookBody.parse(JSON.parse(rawBody));
    } catch (err) {
      return { ok: false, reason: 'malformed', detail: (err as Error).message, httpStatus: 400 };
    }
    return { ok: true, event: this.event(parsed), signatureForm: 'hmac-sha256' };
  }

  async queryStatus(ref: StatusRef): Promise<PaymentEvent[]> {
    const id = 'providerInvoiceId' in ref ? ref.providerInvoiceId : ref.providerPaymentId.replace(/-1$/, '');
    return this.listInvoicePayments(id);
  }

  async listInvoicePayments(providerInvoiceId: string): Promise<PaymentEvent[]> {
    const inv = await this.invoice(providerInvoiceId);
    if (!inv) throw new PaymentProviderError('not_found', `no sandbox invoice ${providerInvoiceId}`);
    if (inv.status === 'waiting') return []; // nobody paid: an invoice alone has no payment
    return [this.event(this.body(inv, inv.status, inv.paid ?? '0.00', inv.updatedAt))];
  }

  private body(inv: SandboxInvoice, status: string, paid: string, at: Date): WebhookBody {
    return {
      invoice_id: inv.id,
      payment_id: `${inv.id}-1`,
      order_id: inv.orderId,
      payment_status: status,
      price_amount: inv.amount,
      actually_paid: paid,
      updated_at: at.toISOString(),
    };
  }

  private sign(body: WebhookBody): SignedWebhook {
    const raw = JSON.stringify(body);
    const sig = createHmac('sha256', this.key).update(raw, 'utf8').digest('hex');
    return { raw, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sig } };
  }

  private event(b: WebhookBody): PaymentEvent {
    return {
      provider: 'sandbox',
      providerPaymentId: b.payment_id,
      providerInvoiceId: b.invoice_id,
      parentPaymentId: null,
      orderId: b.order_id,
      gwStatus: b.payment_status,
      ...mapNowPaymentsStatus(b.payment_status),
      amountReal: floorToCents(b.actually_paid),
      priceAmount: b.price_amount,
      priceCurrency: 'usd',
      payAmount: b.price_amount,
      actuallyPaid: b.actually_paid,
      payCurrency: 'usdttrc20',
      updatedAt: b.updated_at,
      eventKey: `${b.payment_id}:${b.payment_status}`,
      raw: b,
    };
  }
}

/** The amount typed on the sandbox page, in cents (a sane range only). */
function paidCents(text: string | undefined): bigint {
  const t = text?.trim() ?? '';
  if (!/^\d{1,7}(\.\d{1,8})?$/.test(t))
    throw new PaymentProviderError('rejected', 'Enter the amount paid, e.g. 5.50.');
  return centsOf(floorToCents(t));
}

function pathOf(url: string): string {
  const u = new URL(url, 'http://x');
  return `${u.pathname}${u.search}`;
}
