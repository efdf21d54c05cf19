// HTTP surface: the NOWPayments API under /v1, the hosted invoice page under /payment/, and the
// unauthenticated test control API under /__sim/ (never expose it beyond a test machine).
import { preferredLanguage } from '@simdock/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { mulDiv, toUnits, UNIT, unitsText } from './decimal.ts';
import { SimError } from './errors.ts';
import { type Invoice, NP_STATUSES, type NpStatus } from './model.ts';
import { FORGERIES, type Modes, OUTCOMES, type Outcome } from './options.ts';
import { invoicePage, notFoundPage, resultPage } from './page.ts';
import type { PaymentSim } from './sim.ts';

type Body = Record<string, unknown>;

function body(req: FastifyRequest): Body {
  const b = req.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Body) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function parseOutcome(v: unknown): Outcome {
  if (typeof v === 'string' && (OUTCOMES as readonly string[]).includes(v)) return v as Outcome;
  throw new SimError(400, 'INVALID_REQUEST_PARAMS', `outcome must be one of ${OUTCOMES.join(', ')}`);
}

function parseAmount(v: unknown): string | number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string' || typeof v === 'number') return v;
  throw new SimError(400, 'INVALID_REQUEST_PARAMS', 'amount must be a decimal string or number');
}

function parseModes(b: Body): Partial<Modes> {
  const out: Partial<Modes> = {};
  const bad = (name: string): never => {
    throw new SimError(400, 'INVALID_REQUEST_PARAMS', `invalid mode ${name}`);
  };
  for (const [k, v] of Object.entries(b)) {
    switch (k) {
      case 'duplicate':
      case 'reorder':
        if (typeof v !== 'boolean') bad(k);
        out[k] = v as boolean;
        break;
      case 'forge':
        if (v !== null && !(FORGERIES as readonly unknown[]).includes(v)) bad(k);
        out.forge = v as Modes['forge'];
        break;
      case 'repeatDeposit':
        if (v !== null && typeof v !== 'string' && typeof v !== 'number') bad(k);
        out.repeatDeposit = v === null ? null : String(v);
        break;
      case 'dialect':
        if (v !== 'node' && v !== 'python') bad(k);
        out.dialect = v as Modes['dialect'];
        break;
      case 'extraFields':
        if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(k);
        out.extraFields = v as Record<string, unknown>;
        break;
      case 'apiFault':
        if (v !== null && v !== 'http500' && v !== 'hang') bad(k);
        out.apiFault = v as Modes['apiFault'];
        break;
      case 'apiDelayMs':
        if (typeof v !== 'number' || !(v >= 0)) bad(k);
        out.apiDelayMs = v as number;
        break;
      default:
        bad(k);
    }
  }
  return out;
}

export function buildApp(sim: PaymentSim): FastifyInstance {
  // Stopping the simulator ends every connection, a hanging one included (tests stop it mid-fault).
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const hanging = new Set<() => void>();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });

  app.setErrorHandler((err: unknown, _req, reply) => {
    if (err instanceof SimError) {
      void reply
        .code(err.statusCode)
        .send({ status: false, statusCode: err.statusCode, code: err.code, message: err.message });
      return;
    }
    const e = err as { statusCode?: number; message?: string };
    const code = e.statusCode && e.statusCode < 500 ? e.statusCode : 500;
    void reply.code(code).send({
      status: false,
      statusCode: code,
      code: code < 500 ? 'INVALID_REQUEST_PARAMS' : 'INTERNAL_ERROR',
      message: e.message ?? 'error',
    });
  });

  app.addHook('preClose', (done) => {
    for (const release of hanging) release();
    hanging.clear();
    done();
  });

  // Faults of the provider's API (not of the page or the control API).
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.url.startsWith('/v1/') && req.url !== '/v1') return;
    const m = sim.modes();
    if (m.apiDelayMs > 0) await new Promise((r) => setTimeout(r, m.apiDelayMs));
    if (m.apiFault === 'hang') {
      await new Promise<void>((resolve) => {
        hanging.add(resolve);
        req.raw.once('close', resolve);
      });
      reply.hijack();
      req.raw.socket.destroy();
      return;
    }
    if (m.apiFault === 'http500') {
      return reply
        .code(500)
        .send({ status: false, statusCode: 500, code: 'INTERNAL_ERROR', message: 'Simulated outage' });
    }
  });

  const apiKey = (req: FastifyRequest) => sim.checkApiKey(req.headers['x-api-key']);

  // ---- NOWPayments API --------------------------------------------------------------------
  app.get('/v1/status', async () => ({ message: 'OK' }));

  app.post('/v1/auth', async (req) => {
    const b = body(req);
    return { token: sim.issueToken(b.email, b.password) };
  });

  app.post('/v1/invoice', async (req, reply) => {
    apiKey(req);
    const inv = sim.createInvoice(body(req));
    return reply.code(201).send(sim.invoiceJson(inv));
  });

  /** A payment on `inv`'s terms (POST /v1/payment makes a throwaway invoice from the body first). */
  const paymentOn = (inv: Invoice, b: Body, invoice: Invoice | undefined, payCurrency: string) => {
    if (!payCurrency) throw new SimError(400, 'INVALID_REQUEST_PARAMS', '"pay_currency" is required');
    return sim.createPayment({
      invoice,
      priceAmount: inv.priceAmount,
      priceCurrency: inv.priceCurrency,
      payCurrency,
      orderId: inv.orderId,
      orderDescription: str(b.order_description) ?? inv.orderDescription,
      ipnCallbackUrl: inv.ipnCallbackUrl,
      sandboxCase: str(b.case) ?? null,
    });
  };

  app.post('/v1/payment', async (req, reply) => {
    apiKey(req);
    const b = body(req);
    const inv = sim.createInvoice(b, false);
    const p = paymentOn(inv, b, undefined, str(b.pay_currency)?.toLowerCase() ?? '');
    return reply.code(201).send(sim.paymentJson(p));
  });

  app.post('/v1/invoice-payment', async (req, reply) => {
    apiKey(req);
    const b = body(req);
    const inv = sim.invoice(String(b.iid ?? ''));
    if (!inv) throw new SimError(404, 'INVOICE_NOT_FOUND', 'Invoice not found');
    const p = paymentOn(inv, b, inv, (str(b.pay_currency) ?? inv.payCurrency ?? '').toLowerCase());
    return reply.code(201).send(sim.paymentJson(p));
  });

  app.get('/v1/payment', async (req) => {
    apiKey(req);
    sim.checkBearer(req.headers.authorization);
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(500, Math.max(1, Number(q.limit ?? 10) || 10));
    const page = Math.max(0, Math.floor(Number(q.page ?? 0) || 0));
    let rows = q.invoiceId !== undefined ? sim.paymentsOf(q.invoiceId) : sim.allPayments();
    rows = [...rows].sort((a, b) => a.id - b.id);
    if ((q.orderBy ?? 'asc').toLowerCase() === 'desc') rows.reverse();
    const total = rows.length;
    return {
      data: rows.slice(page * limit, page * limit + limit).map((p) => sim.paymentJson(p)),
      limit,
      page,
      pagesCount: Math.ceil(total / limit),
      total,
    };
  });

  app.get('/v1/payment/:id', async (req) => {
    apiKey(req);
    const { id } = req.params as { id: string };
    const p = /^\d+$/.test(id) ? sim.payment(id) : undefined;
    if (!p) throw new SimError(404, 'PAYMENT_NOT_FOUND', `Payment ${id} not found`);
    return sim.paymentJson(p);
  });

  app.get('/v1/min-amount', async (req) => {
    apiKey(req);
    const q = req.query as Record<string, string | undefined>;
    return {
      currency_from: q.currency_from ?? null,
      currency_to: q.currency_to ?? null,
      min_amount: sim.options.minAmount ?? 1,
      fiat_equivalent: sim.options.minAmount ?? 1,
    };
  });

  app.get('/v1/merchant/coins', async (req) => {
    apiKey(req);
    return { selectedCurrencies: ['USDTTRC20', 'USDTERC20', 'USDTBSC', 'USDC', 'TRX', 'BTC', 'ETH'] };
  });

  // ---- hosted invoice page --------------------------------------------------------------------
  const pageInvoice = (req: FastifyRequest) => {
    const iid = (req.query as Record<string, string | undefined>).iid;
    return iid && /^\d+$/.test(iid) ? sim.invoice(iid) : undefined;
  };

  app.get('/payment', async (req, reply) => {
    const inv = pageInvoice(req);
    const lang = preferredLanguage(req.headers['accept-language']);
    reply.type('text/html; charset=utf-8').header('vary', 'Accept-Language');
    if (!inv) return reply.code(404).send(notFoundPage(lang));
    const payCurrency = inv.payCurrency ?? sim.options.defaultPayCurrency ?? 'usdttrc20';
    const rate = sim.rate(payCurrency) ?? UNIT;
    const payAmount = unitsText(mulDiv(toUnits(inv.priceAmount), UNIT, rate, 6));
    return invoicePage(inv, sim.paymentsOf(inv.id), payAmount, payCurrency, 'assigned when you pay', lang);
  });

  app.post('/payment', async (req, reply) => {
    const inv = pageInvoice(req);
    const lang = preferredLanguage(req.headers['accept-language']);
    reply.type('text/html; charset=utf-8').header('vary', 'Accept-Language');
    if (!inv) return reply.code(404).send(notFoundPage(lang));
    const b = body(req);
    const outcome = parseOutcome(b.outcome);
    const p = sim.pay(inv.id, { outcome, amount: parseAmount(b.amount) });
    const target =
      outcome === 'exact' || outcome === 'over'
        ? inv.successUrl
        : outcome === 'partial'
          ? (inv.partiallyPaidUrl ?? inv.successUrl)
          : inv.cancelUrl;
    if (target) return reply.redirect(target, 303);
    return resultPage(inv, p ? `Payment ${p.id} created (${outcome}).` : 'You left without paying.', lang);
  });

  // ---- test control API -----------------------------------------------------------------------
  app.get('/__sim/state', async () => ({
    url: sim.url,
    apiUrl: sim.apiUrl,
    modes: sim.modes(),
    invoices: sim.allInvoices(),
    payments: sim.allPayments(),
  }));

  app.get('/__sim/invoices/:id', async (req) => {
    const inv = sim.invoice((req.params as { id: string }).id);
    if (!inv) throw new SimError(404, 'INVOICE_NOT_FOUND', 'Invoice not found');
    return { invoice: inv, payments: sim.paymentsOf(inv.id).map((p) => sim.paymentJson(p)) };
  });

  app.post('/__sim/invoices/:id/pay', async (req) => {
    const b = body(req);
    const p = sim.pay((req.params as { id: string }).id, {
      outcome: parseOutcome(b.outcome),
      amount: parseAmount(b.amount),
      payCurrency: str(b.payCurrency),
    });
    return { payment: p ? sim.paymentJson(p) : null };
  });

  app.post('/__sim/payments/:id/pay', async (req) => {
    const b = body(req);
    const p = sim.payPayment((req.params as { id: string }).id, {
      outcome: parseOutcome(b.outcome),
      amount: parseAmount(b.amount),
    });
    return { payment: sim.paymentJson(p) };
  });

  app.post('/__sim/payments/:id/repeat-deposit', async (req) => {
    const b = body(req);
    const status = b.status === undefined ? undefined : b.status;
    if (status !== undefined && status !== 'finished' && status !== 'partially_paid') {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', 'status must be finished or partially_paid');
    }
    const p = sim.repeatDeposit((req.params as { id: string }).id, { amount: parseAmount(b.amount), status });
    return { payment: sim.paymentJson(p) };
  });

  app.post('/__sim/payments/:id/status', async (req) => {
    const b = body(req);
    if (typeof b.status !== 'string' || !(NP_STATUSES as readonly string[]).includes(b.status)) {
      throw new SimError(400, 'INVALID_REQUEST_PARAMS', `status must be one of ${NP_STATUSES.join(', ')}`);
    }
    const p = await sim.setStatus((req.params as { id: string }).id, b.status as NpStatus, b.ipn !== false);
    return { payment: sim.paymentJson(p) };
  });

  app.post('/__sim/payments/:id/resend', async (req) => {
    const p = await sim.resend((req.params as { id: string }).id);
    return { payment: sim.paymentJson(p) };
  });

  app.get('/__sim/ipn-log', async () => ({ deliveries: sim.ipnLog() }));
  app.get('/__sim/modes', async () => sim.modes());
  app.post('/__sim/modes', async (req) => sim.setModes(parseModes(body(req))));
  app.post('/__sim/reset', async () => {
    sim.reset();
    return { ok: true };
  });
  app.post('/__sim/settle', async (req, reply) => {
    const t = Number(body(req).timeoutMs ?? 10_000);
    try {
      await sim.settled(Number.isFinite(t) ? Math.min(t, 60_000) : 10_000);
      return { settled: true };
    } catch (err) {
      return reply.code(504).send({ settled: false, message: (err as Error).message });
    }
  });

  return app;
}
