import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFromArgs } from './cli.ts';
import { PaymentSim } from './sim.ts';
import { api } from './testkit.ts';

describe('NOWPayments API surface', () => {
  let sim: PaymentSim;
  const key = { 'x-api-key': 'k1' };
  beforeAll(async () => {
    sim = await PaymentSim.start({ apiKey: 'k1', stepDelayMs: 1, tokenTtlMs: 400 });
  });
  afterAll(() => sim.stop());

  it('answers /v1/status and refuses a missing or wrong x-api-key', async () => {
    expect((await api(sim.apiUrl, 'GET', '/status')).json).toEqual({ message: 'OK' });
    const body = { price_amount: 10, price_currency: 'usd' };
    for (const headers of [{}, { 'x-api-key': 'nope' }] as Record<string, string>[]) {
      const r = await api(sim.apiUrl, 'POST', '/invoice', { body, headers });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ status: false, statusCode: 403, code: 'INVALID_API_KEY' });
    }
    expect(sim.allInvoices()).toHaveLength(0);
  });

  it('creates an invoice: 201, digit-string id, price as string, invoice_url on the simulator', async () => {
    const r = await api(sim.apiUrl, 'POST', '/invoice', {
      headers: key,
      body: {
        price_amount: 10.5,
        price_currency: 'usd',
        pay_currency: 'usdttrc20',
        order_id: 'topup-1',
        order_description: 'Top-up / SimDock',
        ipn_callback_url: 'http://127.0.0.1:1/ipn',
        success_url: 'http://app.test/ok',
        cancel_url: 'http://app.test/cancel',
      },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      price_amount: '10.5',
      price_currency: 'usd',
      pay_currency: 'usdttrc20',
      order_id: 'topup-1',
      order_description: 'Top-up / SimDock',
      ipn_callback_url: 'http://127.0.0.1:1/ipn',
      success_url: 'http://app.test/ok',
      cancel_url: 'http://app.test/cancel',
      is_fixed_rate: false,
      is_fee_paid_by_user: false,
    });
    expect(r.json.id).toMatch(/^\d+$/);
    expect(r.json.invoice_url).toBe(`${sim.url}/payment/?iid=${r.json.id}`);
    expect(new Date(String(r.json.created_at)).toISOString()).toBe(r.json.created_at);
    expect(r.json).not.toHaveProperty('payment_status');
  });

  it('validates price_amount, price_currency, pay_currency and the minimum', async () => {
    const bad = async (body: unknown) =>
      (await api(sim.apiUrl, 'POST', '/invoice', { headers: key, body })).json;
    expect(await bad({ price_currency: 'usd' })).toMatchObject({
      statusCode: 400,
      code: 'INVALID_REQUEST_PARAMS',
    });
    expect(await bad({ price_amount: 0, price_currency: 'usd' })).toMatchObject({
      code: 'INVALID_REQUEST_PARAMS',
    });
    expect(await bad({ price_amount: -5, price_currency: 'usd' })).toMatchObject({
      code: 'INVALID_REQUEST_PARAMS',
    });
    expect(await bad({ price_amount: 10 })).toMatchObject({ code: 'INVALID_REQUEST_PARAMS' });
    expect(await bad({ price_amount: 10, price_currency: 'usd', pay_currency: 'doge2' })).toMatchObject({
      code: 'INVALID_REQUEST_PARAMS',
    });
    expect(await bad({ price_amount: 0.5, price_currency: 'usd' })).toMatchObject({
      code: 'AMOUNT_MINIMAL_ERROR',
    });
  });

  it('serves the hosted page, labelled as a simulator, and its buttons create payments', async () => {
    const inv = sim.createInvoice({
      price_amount: 12,
      price_currency: 'usd',
      success_url: 'http://app.test/ok',
      cancel_url: 'http://app.test/cancel',
      order_description: '<script>x</script>',
    });
    const page = await fetch(`${sim.url}/payment/?iid=${inv.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Payment simulator');
    expect(html).toContain('not a real payment');
    expect(html).toContain('12 USD');
    expect(html).toContain('12 USDTTRC20');
    expect(html).not.toContain('<script>x');
    // Styled like the app, light and dark; Vietnamese when the browser asks for it first.
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('<html lang="en">');
    const vi = await (
      await fetch(`${sim.url}/payment/?iid=${inv.id}`, { headers: { 'accept-language': 'vi,en;q=0.5' } })
    ).text();
    expect(vi).toContain('<html lang="vi">');
    expect(vi).toContain('Trả đúng số tiền');
    expect(vi).not.toContain('Pay exact amount');
    for (const label of [
      'Pay exact amount',
      'Overpay',
      'Pay partially',
      'Fail',
      'Let it expire',
      'Leave without paying',
    ]) {
      expect(html).toContain(label);
    }
    const post = (form: Record<string, string>) =>
      fetch(`${sim.url}/payment/?iid=${inv.id}`, {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
    const paid = await post({ outcome: 'partial', amount: '5' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://app.test/ok'); // no partially_paid_url → success_url
    const left = await post({ outcome: 'abandon' });
    expect(left.headers.get('location')).toBe('http://app.test/cancel');
    expect(sim.paymentsOf(inv.id)).toHaveLength(1);
    expect(sim.invoice(inv.id)?.abandoned).toBe(true);
    expect((await fetch(`${sim.url}/payment/?iid=999`)).status).toBe(404);
    expect((await post({ outcome: 'steal' })).status).toBe(400);
  });

  it('GET /v1/payment/:id needs the key and returns the payment object; unknown → 404', async () => {
    const inv = sim.createInvoice({ price_amount: 10, price_currency: 'usd' });
    const p = sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(2000);
    expect((await api(sim.apiUrl, 'GET', `/payment/${p?.id}`)).status).toBe(403);
    const r = await api(sim.apiUrl, 'GET', `/payment/${p?.id}`, { headers: key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      payment_id: p?.id,
      invoice_id: inv.id,
      payment_status: 'finished',
      pay_amount: 10,
      actually_paid: 10,
      price_amount: 10,
      pay_currency: 'usdttrc20',
      parent_payment_id: null,
    });
    expect(String(r.json.pay_address)).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect((await api(sim.apiUrl, 'GET', '/payment/123', { headers: key })).status).toBe(404);
  });

  it('lists payments by invoice with Bearer + key, paginated; tokens expire', async () => {
    const inv = sim.createInvoice({ price_amount: 10, price_currency: 'usd' });
    const first = sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(2000);
    const second = first && sim.repeatDeposit(first.id, { amount: '3.5' });
    const third = first && sim.repeatDeposit(first.id, { amount: '1' });
    await sim.settled(2000);
    const path = `/payment/?invoiceId=${inv.id}&limit=2&page=0`;
    expect((await api(sim.apiUrl, 'GET', path, { headers: key })).status).toBe(401);
    expect((await api(sim.apiUrl, 'POST', '/auth', { body: { email: 'x', password: 'y' } })).status).toBe(
      401,
    );
    const auth = await api(sim.apiUrl, 'POST', '/auth', {
      body: { email: sim.email, password: sim.password },
    });
    const bearer = { ...key, authorization: `Bearer ${auth.json.token}` };
    expect(
      (await api(sim.apiUrl, 'GET', path, { headers: { authorization: bearer.authorization } })).status,
    ).toBe(403);
    const p0 = await api(sim.apiUrl, 'GET', path, { headers: bearer });
    expect(p0.status).toBe(200);
    expect(p0.json).toMatchObject({ limit: 2, page: 0, pagesCount: 2, total: 3 });
    const p1 = await api(sim.apiUrl, 'GET', `/payment?invoiceId=${inv.id}&limit=2&page=1`, {
      headers: bearer,
    });
    const rows = [
      ...(p0.json.data as Record<string, unknown>[]),
      ...(p1.json.data as Record<string, unknown>[]),
    ];
    expect(rows.map((r) => r.payment_id)).toEqual([first?.id, second?.id, third?.id]);
    expect(rows[1]).toMatchObject({
      parent_payment_id: first?.id,
      origin_type: 'REPEATED',
      actually_paid: 3.5,
    });
    await new Promise((r) => setTimeout(r, 450));
    const expired = await api(sim.apiUrl, 'GET', path, { headers: bearer });
    expect(expired.status).toBe(401);
  });

  it('sandbox `case` on POST /v1/payment scripts the flow headlessly', async () => {
    const r = await api(sim.apiUrl, 'POST', '/payment', {
      headers: key,
      body: { price_amount: 20, price_currency: 'usd', pay_currency: 'usdttrc20', case: 'partially_paid' },
    });
    expect(r.status).toBe(201);
    await sim.settled(2000);
    expect(sim.payment(String(r.json.payment_id))?.status).toBe('partially_paid');
  });

  it('API faults: http500 and a hanging API, while the control API keeps answering', async () => {
    sim.setModes({ apiFault: 'http500' });
    expect((await api(sim.apiUrl, 'GET', '/status')).status).toBe(500);
    expect((await api(sim.url, 'GET', '/__sim/modes')).json).toMatchObject({ apiFault: 'http500' });
    sim.setModes({ apiFault: 'hang' });
    await expect(
      fetch(`${sim.apiUrl}/status`, { signal: AbortSignal.timeout(150) }).then((r) => r.status),
    ).rejects.toThrow();
    expect(
      (await api(sim.url, 'POST', '/__sim/modes', { body: { apiFault: null } })).json.apiFault,
    ).toBeNull();
    expect((await api(sim.apiUrl, 'GET', '/status')).status).toBe(200);
    expect((await api(sim.url, 'POST', '/__sim/modes', { body: { apiFault: 'boom' } })).status).toBe(400);
  });
});

describe('CLI', () => {
  it('starts with the given key and prints one JSON line', async () => {
    const lines: string[] = [];
    const sim = await startFromArgs(
      ['--api-key', 'cli-key', '--ipn-secret', 'cli-secret', '--step-delay-ms', '5'],
      (l) => lines.push(l),
    );
    try {
      expect(sim).not.toBeNull();
      const info = JSON.parse(lines[0] ?? '{}');
      expect(info).toMatchObject({ apiKey: 'cli-key', ipnSecret: 'cli-secret' });
      expect(info.apiUrl).toBe(`${info.url}/v1`);
      const r = await api(info.apiUrl, 'POST', '/invoice', {
        headers: { 'x-api-key': 'cli-key' },
        body: { price_amount: 10, price_currency: 'usd' },
      });
      expect(r.status).toBe(201);
    } finally {
      await sim?.stop();
    }
    await expect(startFromArgs(['--dialect', 'php'], () => {})).rejects.toThrow(/dialect/);
  });
});
