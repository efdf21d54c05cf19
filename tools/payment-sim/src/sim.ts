// The simulated NOWPayments account: invoices, payments, status walks and their IPNs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { hostUrl } from '@simdock/sim-kit';
import type { FastifyInstance } from 'fastify';
import { mulDiv, toUnits, UNIT, type Units, unitsNumber, unitsText } from './decimal.ts';
import { SimError } from './errors.ts';
import { buildApp } from './http.ts';
import { buildMessage, Deliverer, type DeliveryKind, type IpnRecord } from './ipn.ts';
import type { Invoice, NpStatus, Payment } from './model.ts';
import { DEFAULT_MODES, DEFAULT_RATES, type Modes, type Outcome, type SimOptions } from './options.ts';

export interface InvoiceRequest {
  price_amount?: unknown;
  price_currency?: unknown;
  pay_currency?: unknown;
  ipn_callback_url?: unknown;
  order_id?: unknown;
  order_description?: unknown;
  success_url?: unknown;
  cancel_url?: unknown;
  partially_paid_url?: unknown;
  is_fixed_rate?: unknown;
  is_fee_paid_by_user?: unknown;
}

export interface PayRequest {
  outcome: Outcome;
  /** Amount the payer sends, in the pay currency (partial / over / fail). */
  amount?: string | number;
  /** Coin chosen on the page when the invoice pins none. */
  payCurrency?: string;
}

const STEPS: Record<Exclude<Outcome, 'abandon'>, NpStatus[]> = {
  exact: ['waiting', 'confirming', 'confirmed', 'sending', 'finished'],
  over: ['waiting', 'confirming', 'confirmed', 'sending', 'finished'],
  partial: ['waiting', 'confirming', 'confirmed', 'sending', 'partially_paid'],
  fail: ['waiting', 'failed'],
  expire: ['waiting', 'expired'],
};

const FINAL: ReadonlySet<NpStatus> = new Set(['finished', 'partially_paid', 'failed', 'refunded', 'expired']);
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function optString(v: unknown, name: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new SimError(400, 'INVALID_REQUEST_PARAMS', `"${name}" must be a string`);
  return v;
}

export { SimError };

export class PaymentSim {
  readonly apiKey: string;
  readonly ipnSecret: string;
  readonly email: string;
  readonly password: string;
  private readonly tokenKey = randomBytes(32);
  private readonly app: FastifyInstance;
  private readonly deliverer: Deliverer;
  private readonly invoices = new Map<number, Invoice>();
  private readonly payments = new Map<number, Payment>();
  private readonly flows = new Set<Promise<void>>();
  private readonly sleepers = new Set<{ t: NodeJS.Timeout; done: () => void }>();
  private nextInvoiceId: number;
  private nextPaymentId: number;
  private nextIpnId = 1;
  private currentModes: Modes;
  private base = '';
  private stopped = false;

  private constructor(readonly options: SimOptions) {
    this.apiKey = options.apiKey ?? 'sim-api-key';
    this.ipnSecret = options.ipnSecret ?? 'sim-ipn-secret';
    this.email = options.email ?? 'merchant@example.com';
    this.password = options.password ?? 'sim-password';
    this.nextPaymentId = options.firstId ?? 5_000_000_001;
    this.nextInvoiceId = this.nextPaymentId - 1_000_000_000;
    this.currentModes = { ...DEFAULT_MODES, ...options.modes };
    this.deliverer = new Deliverer({
      timeoutMs: options.ipnTimeoutMs ?? 3000,
      retries: options.ipnRetries ?? 5,
      retryIntervalMs: options.ipnRetryIntervalMs ?? 60_000,
    });
    this.app = buildApp(this);
  }

  static async start(options: SimOptions = {}): Promise<PaymentSim> {
    const sim = new PaymentSim(options);
    await sim.app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    const addr = sim.app.server.address() as AddressInfo;
    sim.base = hostUrl(addr.address, addr.port);
    return sim;
  }

  /** e.g. http://127.0.0.1:PORT */
  get url(): string {
    return this.base;
  }

  /** What the server's NOWPAYMENTS_API_URL points at: `${url}/v1`. */
  get apiUrl(): string {
    return `${this.base}/v1`;
  }

  get publicUrl(): string {
    return (this.options.publicUrl ?? this.base).replace(/\/$/, '');
  }

  get stepDelayMs(): number {
    return this.options.stepDelayMs ?? 1000;
  }

  modes(): Modes {
    return { ...this.currentModes, extraFields: { ...this.currentModes.extraFields } };
  }

  setModes(patch: Partial<Modes>): Modes {
    this.currentModes = { ...this.currentModes, ...patch };
    return this.modes();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.deliverer.close();
    for (const s of this.sleepers) {
      clearTimeout(s.t);
      s.done();
    }
    this.sleepers.clear();
    await Promise.allSettled([...this.flows]);
    await this.app.close();
  }

  /** Forgets every invoice, payment and IPN record; modes back to the start options. */
  reset(): void {
    this.invoices.clear();
    this.payments.clear();
    this.deliverer.clear();
    this.currentModes = { ...DEFAULT_MODES, ...this.options.modes };
  }

  // ---- merchant API -------------------------------------------------------------------------

  checkApiKey(key: unknown): void {
    if (typeof key !== 'string' || !safeEqual(key, this.apiKey)) {
      throw new SimError(403, 'INVALID_API_KEY', 'Invalid api key');
    }
  }

  issueToken(email: unknown, password: unknown): string {
    if (
      typeof email !== 'string' ||
      typeof password !== 'string' ||
      !safeEqual(email, this.email) ||
      !safeEqual(password, this.password)
    ) {
      throw new SimError(401, 'INVALID_CREDENTIALS', 'Invalid email or password');
    }
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Date.now();
    const ttl = this.options.tokenTtlMs ?? 300_000;
    const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: email, iat: Math.floor(now / 1000), expMs: now + ttl })}`;
    return `${head}.${createHmac('sha256', this.tokenKey).update(head).digest('base64url')}`;
  }

  checkBearer(authorization: unknown): void {
    const m = typeof authorization === 'string' ? /^Bearer (\S+)$/.exec(authorization) : null;
    const parts = m?.[1]?.split('.') ?? [];
    if (parts.length === 3) {
      const head = `${parts[0]}.${parts[1]}`;
      const sig = createHmac('sha256', this.tokenKey).update(head).digest('base64url');
      if (safeEqual(sig, parts[2] as string)) {
        const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as {
          expMs?: number;
        };
        if (typeof claims.expMs === 'number' && claims.expMs > Date.now()) return;
        throw new SimError(401, 'AUTH_REQUIRED', 'Token expired');
      }
    }
    throw new SimError(401, 'AUTH_REQUIRED', 'Authorization header with a valid Bearer token is required');
  }

  /** Validates and stores an invoice; `register: false` only validates (direct payments). */
  createInvoice(req: InvoiceRequest, register = true): Invoice {
    const rawPrice = req.price_amount;
    if (rawPrice === undefined || rawPrice === null || rawPrice === '') {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', '"price_amount" is required');
    }
    let price: Units;
    try {
      price = toUnits(typeof rawPrice === 'number' || typeof rawPrice === 'string' ? rawPrice : Number.NaN);
    } catch {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', '"price_amount" must be a positive number');
    }
    if (price <= 0n)
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', '"price_amount" must be greater than 0');
    const priceCurrency = optString(req.price_currency, 'price_currency');
    if (!priceCurrency) throw new SimError(400, 'INVALID_REQUEST_PARAMS', '"price_currency" is required');
    const payCurrency = optString(req.pay_currency, 'pay_currency')?.toLowerCase() ?? null;
    if (payCurrency !== null && this.rate(payCurrency) === null) {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', `Currency ${payCurrency} was not found`);
    }
    if (price < toUnits(this.options.minAmount ?? 1)) {
      throw new SimError(400, 'AMOUNT_MINIMAL_ERROR', 'amountTo is too small');
    }
    const now = new Date().toISOString();
    const inv: Invoice = {
      id: register ? this.nextInvoiceId++ : 0,
      tokenId: randomBytes(5).toString('hex'),
      orderId: optString(req.order_id, 'order_id'),
      orderDescription: optString(req.order_description, 'order_description'),
      priceAmount: unitsText(price),
      priceCurrency: priceCurrency.toLowerCase(),
      payCurrency,
      ipnCallbackUrl: optString(req.ipn_callback_url, 'ipn_callback_url'),
      successUrl: optString(req.success_url, 'success_url'),
      cancelUrl: optString(req.cancel_url, 'cancel_url'),
      partiallyPaidUrl: optString(req.partially_paid_url, 'partially_paid_url'),
      isFixedRate: req.is_fixed_rate === true,
      isFeePaidByUser: req.is_fee_paid_by_user === true,
      createdAt: now,
      updatedAt: now,
      abandoned: false,
      paymentIds: [],
    };
    if (register) this.invoices.set(inv.id, inv);
    return inv;
  }

  invoiceJson(inv: Invoice): Record<string, unknown> {
    return {
      id: String(inv.id),
      token_id: inv.tokenId,
      order_id: inv.orderId,
      order_description: inv.orderDescription,
      price_amount: inv.priceAmount,
      price_currency: inv.priceCurrency,
      pay_currency: inv.payCurrency,
      ipn_callback_url: inv.ipnCallbackUrl,
      invoice_url: `${this.publicUrl}/payment/?iid=${inv.id}`,
      success_url: inv.successUrl,
      cancel_url: inv.cancelUrl,
      partially_paid_url: inv.partiallyPaidUrl,
      created_at: inv.createdAt,
      updated_at: inv.updatedAt,
      is_fixed_rate: inv.isFixedRate,
      is_fee_paid_by_user: inv.isFeePaidByUser,
    };
  }

  invoice(id: number | string): Invoice | undefined {
    return this.invoices.get(Number(id));
  }

  payment(id: number | string): Payment | undefined {
    return this.payments.get(Number(id));
  }

  paymentsOf(invoiceId: number | string): Payment[] {
    const inv = this.invoice(invoiceId);
    return (inv?.paymentIds ?? []).map((id) => this.payments.get(id)).filter((p): p is Payment => !!p);
  }

  allInvoices(): Invoice[] {
    return [...this.invoices.values()];
  }

  allPayments(): Payment[] {
    return [...this.payments.values()];
  }

  /** The IPN / "get payment status" body, keys in the provider's documented (unsorted) order. */
  paymentPayload(p: Payment): Record<string, unknown> {
    const paid = toUnits(p.actuallyPaid);
    const depositFee = mulDiv(paid, 35n, 10_000n, 6); // 0.35 %
    const serviceFee = mulDiv(paid, 5n, 1000n, 6); // 0.5 %
    const outcome = paid - depositFee - serviceFee;
    return {
      payment_id: p.id,
      parent_payment_id: p.parentId,
      invoice_id: p.invoiceId,
      payment_status: p.status,
      pay_address: p.payAddress,
      payin_extra_id: null,
      price_amount: unitsNumber(toUnits(p.priceAmount)),
      price_currency: p.priceCurrency,
      pay_amount: unitsNumber(toUnits(p.payAmount)),
      actually_paid: unitsNumber(paid),
      // The documentation's example shows 0 here even for finished payments: never rely on it.
      actually_paid_at_fiat: 0,
      pay_currency: p.payCurrency,
      order_id: p.orderId,
      order_description: p.orderDescription,
      purchase_id: p.purchaseId,
      outcome_amount: unitsNumber(outcome > 0n ? outcome : 0n),
      outcome_currency: p.payCurrency,
      payment_extra_ids: null,
      fee: {
        currency: p.payCurrency,
        depositFee: unitsNumber(depositFee),
        withdrawalFee: 0,
        serviceFee: unitsNumber(serviceFee),
      },
      updated_at: p.updatedAtMs,
      ...this.currentModes.extraFields,
    };
  }

  /** `GET /v1/payment/:id` and list rows: the payment object with ISO timestamps. */
  paymentJson(p: Payment): Record<string, unknown> {
    const { updated_at: _ms, ...rest } = this.paymentPayload(p);
    return {
      ...rest,
      payin_hash: FINAL.has(p.status) || p.status !== 'waiting' ? fakeHash(p.id) : null,
      payout_hash: p.status === 'finished' || p.status === 'partially_paid' ? fakeHash(p.id + 7) : null,
      type: 'crypto2crypto',
      origin_type: p.originType,
      created_at: p.createdAt,
      updated_at: new Date(p.updatedAtMs).toISOString(),
    };
  }

  rate(payCurrency: string): Units | null {
    const r = { ...DEFAULT_RATES, ...this.options.rates }[payCurrency.toLowerCase()];
    return r === undefined ? null : toUnits(r);
  }

  // ---- payer actions --------------------------------------------------------------------------

  /** The payer picks a coin and pays (or leaves). Returns the new payment, null when abandoned. */
  pay(invoiceId: number | string, req: PayRequest): Payment | null {
    const inv = this.invoice(invoiceId);
    if (!inv) throw new SimError(404, 'INVOICE_NOT_FOUND', `Invoice ${invoiceId} not found`);
    if (req.outcome === 'abandon') {
      inv.abandoned = true;
      return null;
    }
    const payCurrency = (inv.payCurrency ?? req.payCurrency ?? this.options.defaultPayCurrency ?? 'usdttrc20')
      .toLowerCase()
      .trim();
    const rate = this.rate(payCurrency);
    if (rate === null)
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', `Currency ${payCurrency} was not found`);
    const payAmount = mulDiv(toUnits(inv.priceAmount), UNIT, rate, 6);
    const planned = this.plannedAmount(req, payAmount);
    const p = this.newPayment({
      invoiceId: inv.id,
      parentId: null,
      priceAmount: inv.priceAmount,
      priceCurrency: inv.priceCurrency,
      payAmount: unitsText(payAmount),
      plannedPaid: unitsText(planned),
      payCurrency,
      orderId: inv.orderId,
      orderDescription: inv.orderDescription,
      ipnCallbackUrl: inv.ipnCallbackUrl,
      originType: null,
    });
    inv.paymentIds.push(p.id);
    this.runFlow(p, STEPS[req.outcome]);
    return p;
  }

  /** `POST /v1/payment` / `/v1/invoice-payment`: a payment straight away, status `waiting`. */
  createPayment(fields: {
    invoice?: Invoice;
    priceAmount: string;
    priceCurrency: string;
    payCurrency: string;
    orderId: string | null;
    orderDescription: string | null;
    ipnCallbackUrl: string | null;
    sandboxCase: string | null;
  }): Payment {
    const rate = this.rate(fields.payCurrency);
    if (rate === null) {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', `Currency ${fields.payCurrency} was not found`);
    }
    const payAmount = mulDiv(toUnits(fields.priceAmount), UNIT, rate, 6);
    const outcome: Outcome | null =
      fields.sandboxCase === 'success'
        ? 'exact'
        : fields.sandboxCase === 'partially_paid'
          ? 'partial'
          : fields.sandboxCase === 'failed'
            ? 'fail'
            : null;
    const planned = outcome ? this.plannedAmount({ outcome }, payAmount) : 0n;
    const p = this.newPayment({
      invoiceId: fields.invoice?.id ?? null,
      parentId: null,
      priceAmount: fields.priceAmount,
      priceCurrency: fields.priceCurrency,
      payAmount: unitsText(payAmount),
      plannedPaid: unitsText(planned),
      payCurrency: fields.payCurrency,
      orderId: fields.orderId,
      orderDescription: fields.orderDescription,
      ipnCallbackUrl: fields.ipnCallbackUrl,
      originType: null,
    });
    fields.invoice?.paymentIds.push(p.id);
    this.runFlow(p, outcome ? STEPS[outcome] : ['waiting']);
    return p;
  }

  /** A waiting payment (created by API) is now paid by the tester. */
  payPayment(paymentId: number | string, req: PayRequest): Payment {
    const p = this.payment(paymentId);
    if (!p) throw new SimError(404, 'PAYMENT_NOT_FOUND', `Payment ${paymentId} not found`);
    if (p.status !== 'waiting')
      throw new SimError(409, 'INVALID_STATE', `payment is ${p.status}, not waiting`);
    if (req.outcome === 'abandon') return p;
    p.plannedPaid = unitsText(this.plannedAmount(req, toUnits(p.payAmount)));
    this.runFlow(p, STEPS[req.outcome].slice(1));
    return p;
  }

  /** A second deposit to the address of `paymentId`: a new payment with `parent_payment_id`. */
  repeatDeposit(
    paymentId: number | string,
    opts: { amount?: string | number; status?: 'finished' | 'partially_paid' } = {},
  ): Payment {
    const parent = this.payment(paymentId);
    if (!parent) throw new SimError(404, 'PAYMENT_NOT_FOUND', `Payment ${paymentId} not found`);
    const amount = toUnits(opts.amount ?? parent.payAmount);
    if (amount <= 0n) throw new SimError(400, 'INVALID_REQUEST_PARAMS', 'amount must be positive');
    const rate = this.rate(parent.payCurrency) ?? UNIT;
    // Priced at the then-current rate: the fiat value of what arrived.
    const price = mulDiv(amount, rate, UNIT, 2);
    const p = this.newPayment({
      invoiceId: parent.invoiceId,
      parentId: parent.id,
      priceAmount: unitsText(price),
      priceCurrency: parent.priceCurrency,
      payAmount: unitsText(amount),
      plannedPaid: unitsText(amount),
      payCurrency: parent.payCurrency,
      orderId: parent.orderId,
      orderDescription: parent.orderDescription,
      ipnCallbackUrl: parent.ipnCallbackUrl,
      originType: 'REPEATED',
    });
    p.payAddress = parent.payAddress;
    if (p.invoiceId !== null) this.invoice(p.invoiceId)?.paymentIds.push(p.id);
    this.runFlow(p, ['confirming', opts.status ?? 'finished']);
    return p;
  }

  /** Moves a payment to any status (e.g. `refunded`) and sends its IPN unless `ipn` is false. */
  async setStatus(paymentId: number | string, status: NpStatus, ipn = true): Promise<Payment> {
    const p = this.payment(paymentId);
    if (!p) throw new SimError(404, 'PAYMENT_NOT_FOUND', `Payment ${paymentId} not found`);
    this.applyStatus(p, status);
    if (ipn) await this.send(p, this.paymentPayload(p), 'normal');
    return p;
  }

  /** Sends the payment's current IPN again (as "resend IPN" in the dashboard). */
  async resend(paymentId: number | string): Promise<Payment> {
    const p = this.payment(paymentId);
    if (!p) throw new SimError(404, 'PAYMENT_NOT_FOUND', `Payment ${paymentId} not found`);
    await this.send(p, this.paymentPayload(p), 'resend');
    return p;
  }

  ipnLog(): IpnRecord[] {
    return this.deliverer.records();
  }

  /** Resolves once every status walk has ended and no IPN (or retry) is pending. */
  async settled(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.flows.size === 0 && this.deliverer.idle) return;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`payment-sim not settled after ${timeoutMs} ms`);
      // Wake on a walk ending, on the deliverer going idle, or after a short poll (never a busy loop).
      const wakers: Promise<unknown>[] = [new Promise<void>((r) => setTimeout(r, Math.min(left, 50)))];
      if (this.flows.size > 0) wakers.push(Promise.race([...this.flows]));
      else wakers.push(new Promise<void>((r) => this.deliverer.onIdle(r)));
      await Promise.race(wakers);
    }
  }

  // ---- internals ------------------------------------------------------------------------------

  private plannedAmount(req: PayRequest, payAmount: Units): Units {
    const given = req.amount === undefined || req.amount === '' ? null : toUnitsChecked(req.amount);
    switch (req.outcome) {
      case 'exact':
        return payAmount;
      case 'partial': {
        const a = given ?? mulDiv(payAmount, 1n, 2n, 6);
        if (a <= 0n || a >= payAmount) {
          throw new SimError(
            400,
            'INVALID_REQUEST_PARAMS',
            'a partial amount must be above 0 and below pay_amount',
          );
        }
        return a;
      }
      case 'over': {
        const a = given ?? mulDiv(payAmount, 3n, 2n, 6) + 1234n;
        if (a <= payAmount)
          throw new SimError(400, 'INVALID_REQUEST_PARAMS', 'an overpayment must exceed pay_amount');
        return a;
      }
      case 'fail':
        return given ?? 0n;
      default:
        return 0n;
    }
  }

  private newPayment(
    f: Omit<
      Payment,
      'id' | 'status' | 'payAddress' | 'purchaseId' | 'actuallyPaid' | 'createdAt' | 'updatedAtMs'
    >,
  ): Payment {
    const id = this.nextPaymentId++;
    const p: Payment = {
      ...f,
      id,
      status: 'waiting',
      payAddress: tronAddress(id),
      purchaseId: String(id + 3_000_000_000),
      actuallyPaid: '0',
      createdAt: new Date().toISOString(),
      updatedAtMs: Date.now(),
    };
    this.payments.set(id, p);
    return p;
  }

  private applyStatus(p: Payment, status: NpStatus): void {
    p.status = status;
    p.updatedAtMs = Date.now();
    if (status === 'waiting' || status === 'expired') p.actuallyPaid = '0';
    else if (status !== 'refunded' && status !== 'cancelled') p.actuallyPaid = p.plannedPaid;
  }

  private runFlow(p: Payment, steps: NpStatus[]): void {
    const flow = this.walk(p, steps).finally(() => this.flows.delete(flow));
    this.flows.add(flow);
  }

  private async walk(p: Payment, steps: NpStatus[]): Promise<void> {
    const modes = this.currentModes;
    let held: Record<string, unknown> | null = null;
    for (const [i, status] of steps.entries()) {
      if (i > 0) await this.sleep(this.stepDelayMs);
      if (this.stopped) return;
      this.applyStatus(p, status);
      const payload = this.paymentPayload(p);
      if (modes.reorder && status === 'confirming' && i < steps.length - 1) {
        held = payload;
        continue;
      }
      await this.send(p, payload, 'normal');
    }
    if (held && !this.stopped) await this.send(p, held, 'reordered');
    const last = steps[steps.length - 1];
    if (last === 'finished' && p.originType === null && modes.repeatDeposit !== null && !this.stopped) {
      await this.sleep(this.stepDelayMs);
      if (!this.stopped) this.repeatDeposit(p.id, { amount: modes.repeatDeposit });
    }
  }

  private async send(p: Payment, payload: Record<string, unknown>, kind: DeliveryKind): Promise<void> {
    // No IPN secret, no IPNs (as in the dashboard); no callback URL, nowhere to send.
    if (!this.ipnSecret || !p.ipnCallbackUrl || this.stopped) return;
    const modes = this.currentModes;
    const msg = buildMessage(
      {
        ipnId: this.nextIpnId++,
        paymentId: p.id,
        invoiceId: p.invoiceId,
        status: String(payload.payment_status),
        url: p.ipnCallbackUrl,
      },
      payload,
      this.ipnSecret,
      modes.dialect,
      modes.forge,
    );
    await this.deliverer.deliver(msg, kind);
    if (modes.duplicate && !this.stopped) {
      await this.deliverer.deliver({ ...msg, ipnId: this.nextIpnId++ }, 'duplicate');
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        t: setTimeout(() => {
          this.sleepers.delete(entry);
          resolve();
        }, ms),
        done: resolve,
      };
      this.sleepers.add(entry);
    });
  }
}

function toUnitsChecked(v: string | number): Units {
  try {
    return toUnits(v);
  } catch {
    throw new SimError(
      400,
      'INVALID_REQUEST_PARAMS',
      `amount must be a non-negative decimal, got ${String(v)}`,
    );
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tronAddress(seed: number): string {
  let x = BigInt(seed) * 2654435761n + 97n;
  let out = 'T';
  for (let i = 0; i < 33; i++) {
    out += B58[Number(x % 58n)];
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
  }
  return out;
}

function fakeHash(seed: number): string {
  return createHmac('sha256', 'payment-sim').update(String(seed)).digest('hex');
}
