import { endpoints } from '@simdock/contract';
// Top-up through NOWPayments, end to end: the real server (PAYMENT_PROVIDER=nowpayments) against
// tools/payment-sim, which speaks the provider's protocol (invoices, signed IPNs with retries,
// status and list queries). Every balance and ledger row is checked.
import { PaymentSim } from '@simdock/payment-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, startTestServer, type TestServer } from '../../test/index.ts';
import { reconcile } from './payments.service.ts';

const API_KEY = 'np-key-for-tests';
const IPN_SECRET = 'np-ipn-secret-for-tests';

let sim: PaymentSim;
let s: TestServer;

beforeAll(async () => {
  sim = await PaymentSim.start({
    apiKey: API_KEY,
    ipnSecret: IPN_SECRET,
    stepDelayMs: 2,
    ipnRetries: 2,
    ipnRetryIntervalMs: 20,
    ipnTimeoutMs: 2000,
  });
  s = await startTestServer({
    env: {
      PAYMENT_PROVIDER: 'nowpayments',
      NOWPAYMENTS_API_URL: sim.apiUrl,
      NOWPAYMENTS_API_KEY: API_KEY,
      NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
      NOWPAYMENTS_EMAIL: sim.email,
      NOWPAYMENTS_PASSWORD: sim.password,
      NOWPAYMENTS_TIMEOUT_MS: '1000',
      PAYMENT_INVOICE_TTL_HOURS: '1',
    },
  });
});
afterAll(async () => {
  await s.close();
  await sim.stop();
});
afterEach(async () => {
  sim.setModes({ duplicate: false, reorder: false, forge: null, repeatDeposit: null, apiFault: null });
  await sim.settled(5000);
  expect(await ledgerMismatches(s.db)).toEqual([]);
});

const balance = async (token: string) => (await s.api(endpoints.user.info, { token })).body.balance as number;
const ledger = (userId: string) =>
  s.db.query<{ amount: string; kind: string }>(
    'SELECT amount::text AS amount, kind FROM ledger WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
const row = async (id: string) => {
  const res = await s.api(endpoints.payment.adminList, {
    query: { page: 1, pageSize: 500 },
    token: await s.adminToken(),
  });
  return (res.body.items as Record<string, unknown>[]).find((p) => p.id === id);
};

/** A user with a fresh invoice at the simulator. */
async function invoice(amount = 10) {
  const u = await s.createUser();
  const res = await s.api(endpoints.payment.create, { body: { amount }, token: u.token });
  expect(res.status).toBe(200);
  const { id, url } = res.body.result as { id: string; url: string };
  const iid = new URL(url).searchParams.get('iid')!;
  return { u, id, url, iid };
}

/** The payer acts on the hosted page; waits until every IPN (and retry) has been delivered. */
async function pay(
  iid: string,
  outcome: 'exact' | 'partial' | 'over' | 'fail' | 'expire' | 'abandon',
  amount?: string,
) {
  const p = sim.pay(iid, { outcome, ...(amount ? { amount } : {}) });
  await sim.settled(5000);
  return p;
}

describe('NOWPayments top-up against payment-sim', () => {
  it('the invoice carries our order id, amount, coin and webhook URL; its page is the hosted invoice', async () => {
    const { id, url, iid } = await invoice(12.34);
    expect(url).toBe(`${sim.url}/payment/?iid=${iid}`);
    expect(sim.invoice(iid)).toMatchObject({
      orderId: id,
      ipnCallbackUrl: `${s.url}/api/Payments/ipn`,
      successUrl: `${s.url}/topup?payment=${id}`,
    });
    expect(await row(id)).toMatchObject({
      status: 'PENDING',
      amount: 12.34,
      gwStatus: null,
      provider: 'nowpayments',
    });
  });

  it('exact: DONE, gwStatus finished, credited 10.00 once', async () => {
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'exact');
    expect(await row(id)).toMatchObject({ status: 'DONE', gwStatus: 'finished', amountReal: 10 });
    expect(await balance(u.token)).toBe(10);
    expect(await ledger(u.id)).toEqual([{ amount: '10.00', kind: 'topup' }]);
  });

  it('partial: DONE for what arrived (rounded down to cents)', async () => {
    const { u, id, iid } = await invoice(20);
    await pay(iid, 'partial', '7.456789');
    expect(await row(id)).toMatchObject({ status: 'DONE', gwStatus: 'partially_paid', amountReal: 7.45 });
    expect(await balance(u.token)).toBe(7.45);
  });

  it('over-payment: credited what arrived', async () => {
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'over', '15.5');
    expect(await row(id)).toMatchObject({ status: 'DONE', amountReal: 15.5 });
    expect(await balance(u.token)).toBe(15.5);
  });

  it('failure and expiry: FAILED, nothing credited', async () => {
    const a = await invoice(10);
    await pay(a.iid, 'fail', '3');
    expect(await row(a.id)).toMatchObject({ status: 'FAILED', gwStatus: 'failed', amountReal: 0 });
    const b = await invoice(10);
    await pay(b.iid, 'expire');
    expect(await row(b.id)).toMatchObject({ status: 'FAILED', gwStatus: 'expired' });
    expect(await balance(a.u.token)).toBe(0);
    expect(await ledger(b.u.id)).toEqual([]);
  });

  it('duplicate IPNs: credited once', async () => {
    sim.setModes({ duplicate: true });
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'exact');
    expect(
      sim
        .ipnLog()
        .filter((d) => String(d.invoiceId) === iid && d.kind === 'duplicate' && d.httpStatus === 200).length,
    ).toBeGreaterThan(0);
    expect(await row(id)).toMatchObject({ status: 'DONE', gwStatus: 'finished' });
    expect(await ledger(u.id)).toEqual([{ amount: '10.00', kind: 'topup' }]);
  });

  it('reordered IPNs (confirming after finished): stays DONE, gwStatus finished', async () => {
    sim.setModes({ reorder: true });
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'exact');
    expect(await row(id)).toMatchObject({ status: 'DONE', gwStatus: 'finished' });
    expect(await balance(u.token)).toBe(10);
  });

  it('repeated deposit: credited as its own payment, added to amountReal, flagged for an admin', async () => {
    sim.setModes({ repeatDeposit: '4' });
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'exact');
    await sim.settled(5000);
    expect(await row(id)).toMatchObject({ status: 'DONE', amountReal: 14, flag: 'repeat_deposit' });
    expect(await balance(u.token)).toBe(14);
    expect(await ledger(u.id)).toEqual([
      { amount: '10.00', kind: 'topup' },
      { amount: '4.00', kind: 'topup' },
    ]);
  });

  it('forged IPNs are refused (401), logged, and change nothing; the reconciliation then finds the payment', async () => {
    sim.setModes({ forge: 'wrong-secret' });
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'exact');
    expect(sim.ipnLog().some((d) => d.httpStatus === 401)).toBe(true);
    expect(s.logs.some((l) => l.includes('payment webhook refused') && l.includes('bad_signature'))).toBe(
      true,
    );
    expect(await row(id)).toMatchObject({ status: 'PENDING' });
    expect(await balance(u.token)).toBe(0);
    // The real payment is found by asking the provider (a lost or refused webhook costs nothing).
    s.clock.advance(11 * 60_000);
    await reconcile(s.ctx);
    expect(await row(id)).toMatchObject({ status: 'DONE', gwStatus: 'finished', amountReal: 10 });
    expect(await balance(u.token)).toBe(10);
  });

  it('an IPN whose amount is not decimal text of the fixed form is refused (400) and moves nothing', async () => {
    // "1e3" was credited as 1,000 once, and junk answered 200: every signed IPN below is refused whole.
    for (const bad of ['1e3', '1E2', 'abc', '-5', '', ' 10', '0x10', 'Infinity', true, { value: 10 }, [10]]) {
      sim.setModes({ extraFields: { actually_paid: bad } });
      try {
        const { u, id, iid } = await invoice(10);
        await pay(iid, 'exact');
        const ipns = sim.ipnLog().filter((d) => d.invoiceId === Number(iid));
        expect(ipns.length, JSON.stringify(bad)).toBeGreaterThan(0);
        expect(
          ipns.map((d) => d.httpStatus),
          JSON.stringify(bad),
        ).toEqual(ipns.map(() => 400));
        expect(await row(id), JSON.stringify(bad)).toMatchObject({ status: 'PENDING', gwStatus: null });
        expect(await balance(u.token)).toBe(0);
        expect(await ledger(u.id)).toEqual([]);
      } finally {
        sim.setModes({ extraFields: {} });
      }
    }
    // The same payment with a well-formed amount as text is credited exactly.
    sim.setModes({ extraFields: { actually_paid: '10.50' } });
    try {
      const { u, iid } = await invoice(10);
      await pay(iid, 'exact');
      expect(await ledger(u.id)).toEqual([{ amount: '10.50', kind: 'topup' }]);
    } finally {
      sim.setModes({ extraFields: {} });
    }
  });

  it('a refund after the credit keeps DONE, never debits, and flags the top-up', async () => {
    const { u, id, iid } = await invoice(10);
    const p = await pay(iid, 'exact');
    await sim.setStatus(p!.id, 'refunded');
    await sim.settled(5000);
    expect(await row(id)).toMatchObject({
      status: 'DONE',
      gwStatus: 'refunded',
      flag: 'refunded_after_credit',
    });
    expect(await balance(u.token)).toBe(10);
  });

  it('abandoned invoice: no IPN ever; FAILED (expired) after its lifetime through the reconciliation', async () => {
    const { u, id, iid } = await invoice(10);
    await pay(iid, 'abandon');
    s.clock.advance(30 * 60_000);
    await reconcile(s.ctx);
    expect(await row(id)).toMatchObject({ status: 'PENDING' });
    s.clock.advance(31 * 60_000);
    await reconcile(s.ctx);
    expect(await row(id)).toMatchObject({ status: 'FAILED', gwStatus: 'expired' });
    expect(await balance(u.token)).toBe(0);
  });

  it('a provider that is down: clear 503, and no payment is stored', async () => {
    const u = await s.createUser();
    for (const apiFault of ['http500', 'hang'] as const) {
      sim.setModes({ apiFault });
      const res = await s.api(endpoints.payment.create, { body: { amount: 10 }, token: u.token });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 0, error: 'payment_provider_unavailable' });
      expect(res.body.msg).toMatch(/not reachable right now/);
    }
    const rows = await s.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payments WHERE user_id = $1',
      [u.id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
