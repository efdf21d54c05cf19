// The NOWPayments adapter end-to-end against tools/payment-sim (its own, independent signing).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaymentSim } from '@simdock/payment-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type NowPaymentsConfig, NowPaymentsProvider } from './nowpayments.ts';
import { type PaymentEvent, PaymentProviderError, type WebhookVerification } from './provider.ts';

interface Hit {
  raw: string;
  headers: IncomingHttpHeaders;
}

/** The server side of an IPN: keeps the exact body text and the headers; answers 200 unless told otherwise. */
class Receiver {
  readonly hits: Hit[] = [];
  status = 200;
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    let self: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        self?.hits.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(self?.status ?? 200).end();
        for (const w of self?.waiters.splice(0) ?? []) w();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    self = new Receiver(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/ipn`,
    );
    return self;
  }

  async waitFor(count: number, pred: (h: Hit) => boolean = () => true, timeoutMs = 3000): Promise<Hit[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.hits.filter(pred);
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} IPN(s), got ${hits.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const API_KEY = 'np-test-key';
const IPN_SECRET = 'np-test-ipn-secret';

describe('NOWPayments adapter against payment-sim', () => {
  let sim: PaymentSim;
  let rx: Receiver;
  let np: NowPaymentsProvider;
  let order = 0;

  const provider = (over: Partial<NowPaymentsConfig> = {}) =>
    new NowPaymentsProvider({
      apiUrl: sim.apiUrl,
      apiKey: API_KEY,
      ipnSecret: IPN_SECRET,
      email: sim.email,
      password: sim.password,
      timeoutMs: 2000,
      ...over,
    });

  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${sim.url}/__sim${path}`, {
      method: 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { payment: { payment_id: number } | null };
  };

  const newInvoice = async (p = np, amountUsd = '10.00') =>
    p.createInvoice({
      orderId: `topup-${++order}`,
      amountUsd,
      description: 'SimDock top-up / USD balance',
      ipnUrl: rx.url,
      successUrl: 'http://simdock.test/topup/done',
      cancelUrl: 'http://simdock.test/topup/cancel',
    });

  /** Pays through the control API, waits for the walk to end, returns every IPN of that invoice verified. */
  const payAndCollect = async (invoiceId: string, body: Record<string, unknown>, p = np) => {
    await control(`/invoices/${invoiceId}/pay`, body);
    await sim.settled(5000);
    return rx.hits
      .filter((h) => String((JSON.parse(h.raw) as { invoice_id: unknown }).invoice_id) === invoiceId)
      .map((h) => p.verifyWebhook(h.raw, h.headers));
  };

  const events = (vs: WebhookVerification[]): PaymentEvent[] =>
    vs.map((v) => {
      if (!v.ok) throw new Error(`refused: ${v.reason} ${v.detail}`);
      return v.event;
    });

  beforeAll(async () => {
    rx = await Receiver.start();
    sim = await PaymentSim.start({
      apiKey: API_KEY,
      ipnSecret: IPN_SECRET,
      stepDelayMs: 2,
      ipnRetries: 2,
      ipnRetryIntervalMs: 20,
      ipnTimeoutMs: 500,
      rates: { trx: '0.3' },
    });
    np = provider();
  });
  afterAll(async () => {
    await sim.stop();
    await rx.close();
  });
  afterEach(async () => {
    sim.setModes({
      duplicate: false,
      reorder: false,
      forge: null,
      repeatDeposit: null,
      dialect: 'node',
      apiFault: null,
    });
    rx.status = 200;
    await sim.settled(5000);
  });

  it('creates an invoice whose hosted page is the simulator, with our order, amount, coin and URLs', async () => {
    const inv = await newInvoice();
    expect(inv.providerInvoiceId).toMatch(/^\d+$/);
    expect(inv.url).toBe(`${sim.url}/payment/?iid=${inv.providerInvoiceId}`);
    expect(inv.raw).toMatchObject({ price_amount: '10', price_currency: 'usd', pay_currency: 'usdttrc20' });
    const stored = sim.invoice(inv.providerInvoiceId);
    expect(stored).toMatchObject({
      orderId: `topup-${order}`,
      orderDescription: 'SimDock top-up / USD balance',
      ipnCallbackUrl: rx.url,
      successUrl: 'http://simdock.test/topup/done',
      cancelUrl: 'http://simdock.test/topup/cancel',
      partiallyPaidUrl: 'http://simdock.test/topup/done',
    });
    const page = await fetch(inv.url);
    expect(await page.text()).toContain('Payment simulator');
  });

  it('exact payment: PENDING → PAID ×3 → DONE, credited 10.00 once on finished', async () => {
    const inv = await newInvoice();
    const vs = await payAndCollect(inv.providerInvoiceId, { outcome: 'exact' });
    // the simulator's Node-style signing matches the primary form, not a fallback
    for (const v of vs) expect(v).toMatchObject({ ok: true, signatureForm: 'sorted' });
    const evs = events(vs);
    expect(evs.map((e) => [e.gwStatus, e.status, e.credit, e.final])).toEqual([
      ['waiting', 'PENDING', false, false],
      ['confirming', 'PAID', false, false],
      ['confirmed', 'PAID', false, false],
      ['sending', 'PAID', false, false],
      ['finished', 'DONE', true, true],
    ]);
    const done = evs.at(-1) as PaymentEvent;
    expect(done).toMatchObject({
      provider: 'nowpayments',
      providerInvoiceId: inv.providerInvoiceId,
      parentPaymentId: null,
      orderId: `topup-${order}`,
      amountReal: '10.00',
      actuallyPaid: '10',
      payAmount: '10',
      priceAmount: '10',
      payCurrency: 'usdttrc20',
      refund: false,
    });
    expect(done.providerPaymentId).toMatch(/^\d+$/);
    expect(done.eventKey).toBe(`${done.providerPaymentId}:finished`);
    expect(new Set(evs.map((e) => e.providerPaymentId)).size).toBe(1);
    expect(evs[0]?.amountReal).toBe('0.00');
  });

  it('partial payment: partially_paid is DONE, credited what arrived, rounded down', async () => {
    const inv = await newInvoice();
    const evs = events(
      await payAndCollect(inv.providerInvoiceId, { outcome: 'partial', amount: '4.567891' }),
    );
    expect(evs.at(-1)).toMatchObject({
      gwStatus: 'partially_paid',
      status: 'DONE',
      credit: true,
      amountReal: '4.56',
    });
  });

  it('over-payment: finished with more than asked, credited what arrived, rounded down', async () => {
    const inv = await newInvoice();
    const evs = events(await payAndCollect(inv.providerInvoiceId, { outcome: 'over', amount: '12.349999' }));
    expect(evs.at(-1)).toMatchObject({
      gwStatus: 'finished',
      status: 'DONE',
      credit: true,
      amountReal: '12.34',
    });
  });

  it('failure and expiry are FAILED with nothing credited; an abandoned invoice sends nothing', async () => {
    const failed = await newInvoice();
    expect(
      events(await payAndCollect(failed.providerInvoiceId, { outcome: 'fail' })).map((e) => e.status),
    ).toEqual(['PENDING', 'FAILED']);
    const expired = events(
      await payAndCollect((await newInvoice()).providerInvoiceId, { outcome: 'expire' }),
    );
    expect(expired.at(-1)).toMatchObject({
      gwStatus: 'expired',
      status: 'FAILED',
      final: true,
      credit: false,
    });
    const left = await newInvoice();
    expect(await payAndCollect(left.providerInvoiceId, { outcome: 'abandon' })).toEqual([]);
    // The reconciliation worker's view: no payment exists for that invoice.
    expect(await np.queryStatus({ providerInvoiceId: left.providerInvoiceId })).toEqual([]);
  });

  it('duplicate mode: the same verified event twice, same eventKey', async () => {
    sim.setModes({ duplicate: true });
    const inv = await newInvoice();
    const evs = events(await payAndCollect(inv.providerInvoiceId, { outcome: 'exact' }));
    const finished = evs.filter((e) => e.gwStatus === 'finished');
    expect(finished).toHaveLength(2);
    expect(finished[0]?.eventKey).toBe(finished[1]?.eventKey);
    expect(evs).toHaveLength(10);
  });

  it('reorder mode: confirming arrives after finished and still verifies (PAID, not final)', async () => {
    sim.setModes({ reorder: true });
    const inv = await newInvoice();
    const evs = events(await payAndCollect(inv.providerInvoiceId, { outcome: 'exact' }));
    expect(evs.map((e) => e.gwStatus)).toEqual(['waiting', 'confirmed', 'sending', 'finished', 'confirming']);
    expect(evs.at(-1)).toMatchObject({ status: 'PAID', final: false, credit: false });
  });

  it('forged IPNs are refused: wrong secret and tampered body → bad_signature 401, no header → missing_signature', async () => {
    const cases = [
      ['wrong-secret', 'bad_signature'],
      ['tampered-body', 'bad_signature'],
      ['no-signature', 'missing_signature'],
    ] as const;
    for (const [forge, reason] of cases) {
      sim.setModes({ forge });
      rx.status = 401; // what the route will answer; the provider then retries, still refused
      const inv = await newInvoice();
      const vs = await payAndCollect(inv.providerInvoiceId, { outcome: 'fail' });
      expect(vs.length).toBeGreaterThanOrEqual(2);
      for (const v of vs) expect(v).toMatchObject({ ok: false, reason, httpStatus: 401 });
    }
    const retried = sim.ipnLog().filter((d) => d.forged === 'wrong-secret' && d.kind === 'retry');
    expect(retried.length).toBeGreaterThan(0);
  });

  it('a correctly signed body without payment_id or status is refused as malformed (400)', () => {
    const body = '{"invoice_id":1,"actually_paid":10}';
    const sig = createHmac('sha512', IPN_SECRET).update('{"actually_paid":10,"invoice_id":1}').digest('hex');
    expect(np.verifyWebhook(body, { 'x-nowpayments-sig': sig })).toMatchObject({
      ok: false,
      reason: 'malformed',
      httpStatus: 400,
    });
    expect(np.verifyWebhook('{oops', { 'X-NOWPayments-Sig': sig })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('repeated deposit: a new payment id with parentPaymentId, credited on its own', async () => {
    sim.setModes({ repeatDeposit: '2.5' });
    const inv = await newInvoice();
    const evs = events(await payAndCollect(inv.providerInvoiceId, { outcome: 'exact' }));
    const first = evs[0] as PaymentEvent;
    const repeat = evs.filter((e) => e.parentPaymentId !== null);
    expect(repeat.map((e) => e.gwStatus)).toEqual(['confirming', 'finished']);
    expect(repeat[1]).toMatchObject({
      parentPaymentId: first.providerPaymentId,
      providerInvoiceId: inv.providerInvoiceId,
      credit: true,
      amountReal: '2.50',
    });
    expect(repeat[1]?.providerPaymentId).not.toBe(first.providerPaymentId);
    // list by invoice (Bearer + key) shows both; one page of 1 row at a time exercises paging
    const listed = await provider({ listPageSize: 1 }).listInvoicePayments(inv.providerInvoiceId);
    expect(listed.map((e) => [e.gwStatus, e.amountReal, e.parentPaymentId])).toEqual([
      ['finished', '10.00', null],
      ['finished', '2.50', first.providerPaymentId],
    ]);
  });

  it('python-encoded IPNs (10.0, \\u escapes, spaced separators) verify through the raw-token form', async () => {
    sim.setModes({ dialect: 'python' });
    const inv = await newInvoice();
    const vs = await payAndCollect(inv.providerInvoiceId, { outcome: 'partial', amount: '5' });
    for (const v of vs) expect(v).toMatchObject({ ok: true, signatureForm: 'raw-tokens' });
    expect(events(vs).at(-1)).toMatchObject({ gwStatus: 'partially_paid', amountReal: '5.00' });
  });

  it('a non-stablecoin is valued at the invoice quote: price × actually_paid / pay_amount, rounded down', async () => {
    const trx = provider({ payCurrency: 'trx' });
    const inv = await newInvoice(trx);
    const evs = events(
      await payAndCollect(inv.providerInvoiceId, { outcome: 'partial', amount: '16.666666' }, trx),
    );
    expect(evs.at(-1)).toMatchObject({ payCurrency: 'trx', payAmount: '33.333333', amountReal: '4.99' });
  });

  it('status query by payment id matches the last IPN; refunded maps to FAILED with refund=true', async () => {
    const inv = await newInvoice();
    const evs = events(await payAndCollect(inv.providerInvoiceId, { outcome: 'exact' }));
    const id = (evs.at(-1) as PaymentEvent).providerPaymentId;
    const [q] = await np.queryStatus({ providerPaymentId: id });
    expect(q).toMatchObject({
      providerPaymentId: id,
      gwStatus: 'finished',
      status: 'DONE',
      amountReal: '10.00',
    });
    await control(`/payments/${id}/status`, { status: 'refunded' });
    const refunded = events(rx.hits.slice(-1).map((h) => np.verifyWebhook(h.raw, h.headers)))[0];
    expect(refunded).toMatchObject({ gwStatus: 'refunded', status: 'FAILED', refund: true, credit: false });
    expect((await np.getPayment(id)).gwStatus).toBe('refunded');
  });

  it('logs in again when the list token has expired', async () => {
    const shortSim = await PaymentSim.start({
      apiKey: API_KEY,
      ipnSecret: IPN_SECRET,
      tokenTtlMs: 100,
      stepDelayMs: 1,
    });
    try {
      const p = new NowPaymentsProvider({
        apiUrl: shortSim.apiUrl,
        apiKey: API_KEY,
        ipnSecret: IPN_SECRET,
        email: shortSim.email,
        password: shortSim.password,
        authTokenTtlMs: 600_000, // we believe it lives long; the provider disagrees
      });
      const inv = await p.createInvoice({
        orderId: 'o',
        amountUsd: '10',
        description: 'd',
        ipnUrl: rx.url,
        successUrl: 'http://x.test/',
        cancelUrl: 'http://x.test/',
      });
      expect(await p.listInvoicePayments(inv.providerInvoiceId)).toEqual([]);
      await new Promise((r) => setTimeout(r, 150));
      expect(await p.listInvoicePayments(inv.providerInvoiceId)).toEqual([]);
    } finally {
      await shortSim.stop();
    }
  });

  it('typed errors: unavailable (5xx, timeout, connection refused), auth, rejected, not_found', async () => {
    const kind = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (err) {
        expect(err).toBeInstanceOf(PaymentProviderError);
        return {
          kind: (err as PaymentProviderError).kind,
          code: (err as PaymentProviderError).details.providerCode,
        };
      }
      throw new Error('expected a PaymentProviderError');
    };
    sim.setModes({ apiFault: 'http500' });
    expect(await kind(() => newInvoice())).toMatchObject({ kind: 'unavailable' });
    sim.setModes({ apiFault: 'hang' });
    const started = Date.now();
    expect(await kind(() => newInvoice(provider({ timeoutMs: 150 })))).toMatchObject({ kind: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(2000);
    sim.setModes({ apiFault: null });
    const down = await Receiver.start();
    await down.close();
    const gone = new NowPaymentsProvider({ apiUrl: down.url, apiKey: 'k', ipnSecret: 's', timeoutMs: 1000 });
    expect(await kind(() => gone.getPayment('1'))).toMatchObject({ kind: 'unavailable' });
    expect(await kind(() => newInvoice(provider({ apiKey: 'wrong' })))).toMatchObject({
      kind: 'auth',
      code: 'INVALID_API_KEY',
    });
    expect(await kind(() => newInvoice(np, '0.50'))).toMatchObject({
      kind: 'rejected',
      code: 'AMOUNT_MINIMAL_ERROR',
    });
    expect(await kind(() => newInvoice(np, '10.001'))).toMatchObject({ kind: 'rejected' });
    expect(await kind(() => np.getPayment('4999999999'))).toMatchObject({ kind: 'not_found' });
    const noLogin = provider({ email: undefined, password: undefined });
    expect(await kind(() => noLogin.listInvoicePayments('1'))).toMatchObject({ kind: 'auth' });
  });
});
