// Top-up with the embedded sandbox provider, through the real server on the test database.
import { createHmac } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, openSse, startTestServer, type TestServer } from '../../test/index.ts';
import { reconcile } from './payments.service.ts';
import { providerOf, SandboxProvider } from './providers/index.ts';
import { SANDBOX_SIGNATURE_HEADER } from './providers/sandbox.ts';

let s: TestServer;
let user: Awaited<ReturnType<TestServer['createUser']>>;

beforeAll(async () => {
  // A one-hour invoice lifetime: the abandon test moves the clock past it without expiring tokens.
  s = await startTestServer({ env: { PAYMENT_INVOICE_TTL_HOURS: '1' } });
  user = await s.createUser();
});
afterAll(() => s.close());

const balanceOf = async (token = user.token) =>
  (await s.api(endpoints.user.info, { token })).body.balance as number;
const ledger = (userId: string) =>
  s.db.query<{ amount: string; kind: string; ref: string | null }>(
    'SELECT amount::text AS amount, kind, ref FROM ledger WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
const paymentRows = (userId: string) =>
  s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [userId]);

async function createInvoice(amount: number, token = user.token) {
  const res = await s.api(endpoints.payment.create, { body: { amount }, token });
  expect(res.status).toBe(200);
  const { id, url } = res.body.result as { id: string; url: string };
  return { id, url };
}

/** What the tester does on the sandbox page: posts the form, returns the redirect. */
async function choose(url: string, outcome: string, amount?: string) {
  const form = new URLSearchParams({ outcome, ...(amount ? { amount } : {}) });
  return fetch(s.url + url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
}

async function payment(id: string, token = user.token) {
  const res = await s.api(endpoints.payment.history, { query: { page: 1 }, token });
  return (res.body.items as { id: string; status: string; amount: number; url: string }[]).find(
    (p) => p.id === id,
  );
}

async function adminRow(id: string) {
  const res = await s.api(endpoints.payment.adminList, {
    query: { page: 1, pageSize: 100 },
    token: await s.adminToken(),
  });
  return (res.body.items as Record<string, unknown>[]).find((p) => p.id === id);
}

describe('top-up: creating an invoice', () => {
  it.each([
    [{ amount: '10' }, 'Enter the amount as a number, e.g. 10 or 25.50.'],
    [{}, 'Enter the amount as a number, e.g. 10 or 25.50.'],
    [{ amount: 9.99 }, 'The minimum top-up is 10 USD.'],
    [{ amount: -20 }, 'The minimum top-up is 10 USD.'],
    [{ amount: 10_000.01 }, 'The maximum top-up is 10,000 USD per invoice.'],
    [{ amount: 12.345 }, 'Use at most two decimals (cents).'],
  ])('refuses %j with a clear 400 and stores nothing', async (body, msg) => {
    const fresh = await s.createUser();
    const res = await s.api(endpoints.payment.create, { rawBody: body, token: fresh.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', msg });
    expect((await paymentRows(fresh.id))[0]?.n).toBe(0);
  });

  it('answers the hosted invoice url and lists the payment as PENDING with Pay Now', async () => {
    const { id, url } = await createInvoice(10);
    expect(url).toMatch(/^\/sandbox\/pay\/sbx_[0-9a-f]{24}$/);
    expect(await payment(id)).toMatchObject({ status: 'PENDING', amount: 10, url });
    const page = await fetch(s.url + url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('SANDBOX — not a real payment');
    expect(html).toContain('10.00 USD');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Styled like the app, light and dark (the system's scheme), in English by default.
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('<button type="submit" class="primary">Pay exactly</button>');
    expect(page.headers.get('vary')).toContain('Accept-Language');

    // Vietnamese when the browser asks for it first.
    const vi = await fetch(s.url + url, { headers: { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.8' } });
    const viHtml = await vi.text();
    expect(viHtml).toContain('<html lang="vi">');
    expect(viHtml).toContain('SANDBOX — không phải thanh toán thật');
    expect(viHtml).toContain('Trả đúng số tiền');
    expect(viHtml).not.toContain('Pay exactly');
    const en = await fetch(s.url + url, { headers: { 'accept-language': 'en-US,en;q=0.9,vi;q=0.5' } });
    expect(await en.text()).toContain('Pay exactly');
  });

  it('refuses a sixth unpaid invoice until one is paid', async () => {
    const u = await s.createUser();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createInvoice(10, u.token));
    const sixth = await s.api(endpoints.payment.create, { body: { amount: 10 }, token: u.token });
    expect(sixth.status).toBe(409);
    expect(sixth.body.error).toBe('too_many_open_invoices');
    expect((await choose(made[0]!.url, 'exact')).status).toBe(303);
    expect((await s.api(endpoints.payment.create, { body: { amount: 10 }, token: u.token })).status).toBe(
      200,
    );
  });

  it('says which provider is active (the page labels the sandbox)', async () => {
    const res = await s.api(endpoints.payment.options, { token: user.token });
    expect(res.body).toEqual({
      provider: 'sandbox',
      sandbox: true,
      minAmount: 10,
      maxAmount: 10_000,
      payCurrency: 'usdttrc20',
    });
  });
});

describe('top-up: cancelling an unpaid invoice', () => {
  const cancel = (id: string, token = user.token) => s.api(endpoints.payment.cancel, { body: { id }, token });

  it('frees a place among the five unpaid invoices; the history shows it cancelled without Pay Now', async () => {
    const u = await s.createUser();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createInvoice(10, u.token));
    expect((await s.api(endpoints.payment.create, { body: { amount: 10 }, token: u.token })).status).toBe(
      409,
    );
    const res = await cancel(made[0]!.id, u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 1, msg: 'cancelled' });
    expect(await payment(made[0]!.id, u.token)).toMatchObject({ status: 'FAILED', cancelled: true });
    expect(await payment(made[1]!.id, u.token)).toMatchObject({ status: 'PENDING', cancelled: false });
    expect(await adminRow(made[0]!.id)).toMatchObject({ status: 'FAILED', gwStatus: 'cancelled_by_user' });
    expect((await s.api(endpoints.payment.create, { body: { amount: 10 }, token: u.token })).status).toBe(
      200,
    );
  });

  it("another user's invoice, an unknown id and a malformed id answer 404 and change nothing", async () => {
    const owner = await s.createUser();
    const other = await s.createUser();
    const { id } = await createInvoice(10, owner.token);
    for (const bad of [id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await cancel(bad, other.token);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 0, error: 'payment_not_found' });
    }
    expect(await payment(id, owner.token)).toMatchObject({ status: 'PENDING', cancelled: false });
    expect((await s.api(endpoints.payment.cancel, { token: owner.token })).status).toBe(400);
  });

  it('only a PENDING invoice can be cancelled: a paid or already cancelled one answers 409', async () => {
    const u = await s.createUser();
    const paid = await createInvoice(10, u.token);
    expect((await choose(paid.url, 'exact')).status).toBe(303);
    const res = await cancel(paid.id, u.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 0, error: 'payment_not_cancellable' });
    expect(await payment(paid.id, u.token)).toMatchObject({ status: 'DONE', cancelled: false });
    const open = await createInvoice(10, u.token);
    expect((await cancel(open.id, u.token)).status).toBe(200);
    expect((await cancel(open.id, u.token)).status).toBe(409);
  });

  it('money that still arrives for a cancelled invoice is credited (webhook), once', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(20, u.token);
    expect((await cancel(id, u.token)).status).toBe(200);
    expect((await choose(url, 'exact')).status).toBe(303);
    expect(await balanceOf(u.token)).toBe(20);
    expect(await payment(id, u.token)).toMatchObject({ status: 'DONE', cancelled: false });
    expect(await ledger(u.id)).toHaveLength(1);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });

  it('a lost webhook for a cancelled invoice that was paid is found by the reconciliation', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(15, u.token);
    expect((await cancel(id, u.token)).status).toBe(200);
    // The payer pays on the provider's page, but its webhook never arrives.
    const sandbox = providerOf(s.ctx);
    if (!(sandbox instanceof SandboxProvider)) throw new Error('the sandbox provider is expected');
    await sandbox.pay(url.split('/').pop()!, 'exact');
    expect(await balanceOf(u.token)).toBe(0);
    s.clock.advance(11 * 60_000);
    await reconcile(s.ctx);
    expect(await balanceOf(u.token)).toBe(15);
    expect(await payment(id, u.token)).toMatchObject({ status: 'DONE' });
    expect(await ledger(u.id)).toHaveLength(1);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });
});

describe('top-up: sandbox outcomes', () => {
  it('exact payment: DONE, credited once, finished time, live balance and payment events', async () => {
    const u = await s.createUser();
    const sse = await openSse(`${s.url}/api/Order/stream`, u.token);
    const { id, url } = await createInvoice(25.5, u.token);
    const res = await choose(url, 'exact');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/topup?payment=${id}`);
    expect(await balanceOf(u.token)).toBe(25.5);
    expect(await ledger(u.id)).toEqual([
      { amount: '25.50', kind: 'topup', ref: `sandbox:${url.split('/').pop()}-1` },
    ]);
    expect(await payment(id, u.token)).toMatchObject({ status: 'DONE' });
    expect(await adminRow(id)).toMatchObject({
      username: u.username,
      amount: 25.5,
      amountReal: 25.5,
      status: 'DONE',
      gwStatus: 'finished',
      provider: 'sandbox',
      flag: null,
    });
    expect((await adminRow(id))?.finishedAt).toEqual(expect.any(String));
    const bal = await sse.next((e) => e.event === 'balance');
    expect(JSON.parse(bal.data)).toEqual({ balance: 25.5 });
    const pay = await sse.next((e) => e.event === 'payment' && JSON.parse(e.data).status === 'DONE');
    expect(JSON.parse(pay.data)).toMatchObject({ id, status: 'DONE', amount: 25.5 });
    sse.close();
    // The page now says it was paid; paying again changes nothing.
    expect(await (await fetch(s.url + url)).text()).toContain('has been paid already');
    expect((await choose(url, 'exact')).status).toBe(409);
    expect(await balanceOf(u.token)).toBe(25.5);
  });

  it('partial payment is credited for what arrived; over-payment too', async () => {
    const u = await s.createUser();
    const a = await createInvoice(20, u.token);
    expect((await choose(a.url, 'partial', '7.459')).status).toBe(303);
    const b = await createInvoice(10, u.token);
    expect((await choose(b.url, 'over', '12.5')).status).toBe(303);
    expect(await balanceOf(u.token)).toBe(7.45 + 12.5);
    expect(await adminRow(a.id)).toMatchObject({
      status: 'DONE',
      amountReal: 7.45,
      gwStatus: 'partially_paid',
    });
    expect(await adminRow(b.id)).toMatchObject({ status: 'DONE', amountReal: 12.5, gwStatus: 'finished' });
  });

  it('refuses amounts that do not fit the outcome, and changes nothing', async () => {
    const u = await s.createUser();
    const a = await createInvoice(20, u.token);
    for (const [outcome, amount] of [
      ['partial', '20'],
      ['partial', '0'],
      ['over', '19'],
      ['partial', 'abc'],
      ['bogus', '1'],
    ] as const) {
      const res = await choose(a.url, outcome, amount);
      expect([400, 409]).toContain(res.status);
    }
    expect(await payment(a.id, u.token)).toMatchObject({ status: 'PENDING' });
    expect(await balanceOf(u.token)).toBe(0);
  });

  it('a failed payment is FAILED with nothing credited', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(10, u.token);
    expect((await choose(url, 'fail')).status).toBe(303);
    expect(await adminRow(id)).toMatchObject({ status: 'FAILED', amountReal: 0, gwStatus: 'failed' });
    expect(await balanceOf(u.token)).toBe(0);
    expect(await ledger(u.id)).toEqual([]);
  });

  it('abandoned: stays PENDING, then the reconciliation fails it once the invoice lifetime is over', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(10, u.token);
    const res = await choose(url, 'abandon');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/topup?payment=${id}`);
    s.clock.advance(11 * 60_000);
    await reconcile(s.ctx);
    expect(await payment(id, u.token)).toMatchObject({ status: 'PENDING' });
    s.clock.advance(50 * 60_000);
    await reconcile(s.ctx);
    expect(await adminRow(id)).toMatchObject({ status: 'FAILED', gwStatus: 'expired' });
    expect(await balanceOf(u.token)).toBe(0);
  });

  it('unknown sandbox invoices answer 404', async () => {
    expect((await fetch(`${s.url}/sandbox/pay/sbx_000000000000000000000000`)).status).toBe(404);
    expect((await fetch(`${s.url}/sandbox/pay/..%2f..%2fetc`)).status).toBe(404);
  });
});

describe('top-up: webhooks', () => {
  const key = createHmac('sha256', 'test-secret-test-secret-test-secret-0123')
    .update('simdock-sandbox-payments')
    .digest();
  const sign = (raw: string) => createHmac('sha256', key).update(raw).digest('hex');
  const post = (raw: string, sig?: string) =>
    fetch(`${s.url}/api/Payments/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(sig ? { [SANDBOX_SIGNATURE_HEADER]: sig } : {}) },
      body: raw,
    });

  it('replays, forged and malformed webhooks change nothing', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(10, u.token);
    const invoice = url.split('/').pop()!;
    const body = JSON.stringify({
      invoice_id: invoice,
      payment_id: `${invoice}-1`,
      order_id: id,
      payment_status: 'finished',
      price_amount: '10.00',
      actually_paid: '10.00',
      updated_at: new Date().toISOString(),
    });
    // Forged: no signature, a wrong one, a tampered body.
    expect((await post(body)).status).toBe(401);
    expect((await post(body, 'ab'.repeat(32))).status).toBe(401);
    expect((await post(body.replace('10.00"', '99.00"'), sign(body))).status).toBe(401);
    // Malformed but correctly signed.
    expect((await post('{"x":1}', sign('{"x":1}'))).status).toBe(400);
    expect((await post('not json', sign('not json'))).status).toBe(400);
    expect(await balanceOf(u.token)).toBe(0);
    expect(await payment(id, u.token)).toMatchObject({ status: 'PENDING' });
    // Genuine, then replayed three times: credited once.
    for (let i = 0; i < 4; i++) {
      const res = await post(body, sign(body));
      expect(res.status).toBe(200);
      expect((await res.json()).msg).toBe(i === 0 ? 'credited' : 'duplicate');
    }
    expect(await balanceOf(u.token)).toBe(10);
    // A late, earlier status after the credit is harmless.
    const late = body.replace('"finished"', '"confirming"').replace('"10.00","updated', '"0.00","updated');
    expect((await (await post(late, sign(late))).json()).msg).toBe('ignored');
    expect(await payment(id, u.token)).toMatchObject({ status: 'DONE' });
    expect(await balanceOf(u.token)).toBe(10);
  });

  it('concurrent deliveries of one payment credit it once', async () => {
    const u = await s.createUser();
    const { id, url } = await createInvoice(30, u.token);
    const invoice = url.split('/').pop()!;
    const body = JSON.stringify({
      invoice_id: invoice,
      payment_id: `${invoice}-1`,
      order_id: id,
      payment_status: 'finished',
      price_amount: '30.00',
      actually_paid: '30.00',
      updated_at: new Date().toISOString(),
    });
    const partial = body.replace('"finished"', '"partially_paid"');
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => post(body, sign(body))),
      ...Array.from({ length: 3 }, () => post(partial, sign(partial))),
    ]);
    for (const r of results) expect(r.status).toBe(200);
    expect(await balanceOf(u.token)).toBe(30);
    expect(await ledger(u.id)).toHaveLength(1);
  });

  it('users see only their own payments; the ledger matches every balance', async () => {
    const other = await s.createUser();
    const mine = await createInvoice(10);
    const theirs = await s.api(endpoints.payment.history, { query: { page: 1 }, token: other.token });
    expect((theirs.body.items as { id: string }[]).map((p) => p.id)).not.toContain(mine.id);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });

  it("Payment Manager's list filters by user or invoice id, status and creation days; refuses bad filters", async () => {
    const u = await s.createUser({ username: 'payfilter_zed' });
    const a = await createInvoice(11, u.token);
    const b = await createInvoice(12, u.token);
    await choose(b.url, 'exact');
    const admin = await s.adminToken();
    const list = async (query: Record<string, string>) => {
      const res = await s.api(endpoints.payment.adminList, {
        query: { page: 1, pageSize: 500, ...query },
        token: admin,
      });
      expect(res.status).toBe(200);
      return res.body as { items: { id: string; status: string }[]; total: number };
    };
    const ids = async (query: Record<string, string>) => (await list(query)).items.map((p) => p.id).sort();
    expect(await ids({ search: 'PAYFILTER_Z' })).toEqual([a.id, b.id].sort());
    expect(await ids({ search: a.id.slice(0, 13) })).toEqual([a.id]);
    expect(await ids({ search: 'payfilter_zed', status: 'DONE' })).toEqual([b.id]);
    expect((await list({ search: 'payfilter_zed', status: 'PENDING' })).total).toBe(1);
    // The creation day, inclusive, in UTC.
    const today = new Date(s.clock.now()).toISOString().slice(0, 10);
    expect(await ids({ search: 'payfilter_zed', from: today, to: today })).toEqual([a.id, b.id].sort());
    expect(await ids({ search: 'payfilter_zed', to: '2000-01-01' })).toEqual([]);
    // A search text with LIKE's wildcards matches them literally.
    expect(await ids({ search: '%' })).toEqual([]);
    for (const bad of [
      { status: 'paid' },
      { from: '2026-13-01' },
      { from: 'yesterday' },
      { from: '2026-02-02', to: '2026-02-01' },
    ]) {
      const res = await s.api(endpoints.payment.adminList, { query: bad, token: admin });
      expect([bad, res.status, res.body.error]).toEqual([bad, 400, 'bad_input']);
    }
  });

  it('pages the history (10 per page) and refuses a bad page number', async () => {
    const u = await s.createUser();
    for (let i = 0; i < 5; i++) {
      s.clock.advance(1000);
      await createInvoice(10 + i, u.token);
    }
    const first = await s.api(endpoints.payment.history, { query: { page: 1 }, token: u.token });
    expect(first.body).toMatchObject({ page: 1, totalPages: 1 });
    expect((first.body.items as { amount: number }[]).map((p) => p.amount)).toEqual([14, 13, 12, 11, 10]);
    expect((await s.api(endpoints.payment.history, { query: { page: '0' }, token: u.token })).status).toBe(
      400,
    );
    expect((await s.api(endpoints.payment.history, { query: { page: 'abc' }, token: u.token })).status).toBe(
      400,
    );
  });
});
