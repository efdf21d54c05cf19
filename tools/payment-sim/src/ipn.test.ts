import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimOptions } from './options.ts';
import { PaymentSim } from './sim.ts';
import { api, type IpnReceiver, ipnJson, type ReceivedIpn, startIpnReceiver } from './testkit.ts';

const SECRET = 'ipn-secret-1';

// A reference verifier written here, in the test: deep sort with arrays kept, JSON.stringify, HMAC.
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortDeep(o[k])]),
    );
  }
  return v;
}
function validSig(r: ReceivedIpn, secret = SECRET): boolean {
  const expected = createHmac('sha512', secret)
    .update(JSON.stringify(sortDeep(JSON.parse(r.raw))))
    .digest('hex');
  return r.headers['x-nowpayments-sig'] === expected;
}
const statuses = (rs: ReceivedIpn[]) => rs.map((r) => ipnJson(r).payment_status);

describe('IPNs', () => {
  let rx: IpnReceiver;
  let sim: PaymentSim | undefined;
  beforeAll(async () => {
    rx = await startIpnReceiver();
  });
  afterAll(() => rx.close());
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
    rx.requests.length = 0;
    rx.answer = () => ({});
  });

  async function start(opts: SimOptions = {}) {
    sim = await PaymentSim.start({
      ipnSecret: SECRET,
      stepDelayMs: 2,
      ipnRetryIntervalMs: 20,
      ipnRetries: 3,
      // Long enough for a loaded machine: an IPN that times out is resent later, out of order.
      ipnTimeoutMs: 5000,
      ...opts,
    });
    const inv = sim.createInvoice({
      price_amount: 10,
      price_currency: 'usd',
      pay_currency: 'usdttrc20',
      order_id: 'order-7',
      order_description: 'Top-up 10 USD / SimDock',
      ipn_callback_url: rx.url,
    });
    return { sim, inv };
  }

  it('exact payment: the full status walk, each IPN correctly signed, keys unsorted, nested fee', async () => {
    const { sim, inv } = await start();
    const p = sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    expect(statuses(rx.requests)).toEqual(['waiting', 'confirming', 'confirmed', 'sending', 'finished']);
    for (const r of rx.requests) {
      expect(validSig(r)).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
    }
    const last = rx.requests.at(-1) as ReceivedIpn;
    const body = ipnJson(last);
    expect(body).toMatchObject({
      payment_id: p?.id,
      invoice_id: inv.id,
      parent_payment_id: null,
      order_id: 'order-7',
      order_description: 'Top-up 10 USD / SimDock',
      price_amount: 10,
      price_currency: 'usd',
      pay_amount: 10,
      actually_paid: 10,
      pay_currency: 'usdttrc20',
      payment_extra_ids: null,
      fee: { currency: 'usdttrc20' },
    });
    expect(typeof body.purchase_id).toBe('string');
    expect(typeof body.updated_at).toBe('number');
    expect(Number.isInteger(body.outcome_amount)).toBe(false); // a fractional amount on the wire
    // keys are not sorted on the wire, at the top level nor inside fee
    const keys = Object.keys(body);
    expect(keys).not.toEqual([...keys].sort());
    const feeKeys = Object.keys(body.fee as object);
    expect(feeKeys).not.toEqual([...feeKeys].sort());
    // a raw-bytes HMAC or a shallow sort does not match
    expect(createHmac('sha512', SECRET).update(last.raw).digest('hex')).not.toBe(
      last.headers['x-nowpayments-sig'],
    );
    const shallow = JSON.stringify(body, Object.keys(body).sort());
    expect(createHmac('sha512', SECRET).update(shallow).digest('hex')).not.toBe(
      last.headers['x-nowpayments-sig'],
    );
    // waiting carries nothing paid yet
    expect(ipnJson(rx.requests[0] as ReceivedIpn).actually_paid).toBe(0);
    expect(sim.ipnLog().every((d) => d.ok && d.attempt === 1 && d.httpStatus === 200)).toBe(true);
  });

  it('partial, over-payment, failure and expiry end in their statuses with the right actually_paid', async () => {
    const { sim } = await start();
    const mk = () => sim.createInvoice({ price_amount: 10, price_currency: 'usd', ipn_callback_url: rx.url });
    const partial = sim.pay(mk().id, { outcome: 'partial', amount: '4.567891' });
    const over = sim.pay(mk().id, { outcome: 'over', amount: 12.25 });
    const fail = sim.pay(mk().id, { outcome: 'fail' });
    const expire = sim.pay(mk().id, { outcome: 'expire' });
    await sim.settled(3000);
    const of = (id: number | undefined) => rx.requests.filter((r) => ipnJson(r).payment_id === id);
    expect(statuses(of(partial?.id))).toEqual([
      'waiting',
      'confirming',
      'confirmed',
      'sending',
      'partially_paid',
    ]);
    expect(ipnJson(of(partial?.id).at(-1) as ReceivedIpn)).toMatchObject({
      actually_paid: 4.567891,
      pay_amount: 10,
    });
    expect(statuses(of(over?.id)).at(-1)).toBe('finished');
    expect(ipnJson(of(over?.id).at(-1) as ReceivedIpn).actually_paid).toBe(12.25);
    expect(statuses(of(fail?.id))).toEqual(['waiting', 'failed']);
    expect(statuses(of(expire?.id))).toEqual(['waiting', 'expired']);
    expect(ipnJson(of(expire?.id).at(-1) as ReceivedIpn).actually_paid).toBe(0);
    expect(rx.requests.every((r) => validSig(r))).toBe(true);
  });

  it('abandoned invoice: no payment and no IPN ever', async () => {
    const { sim, inv } = await start();
    expect(sim.pay(inv.id, { outcome: 'abandon' })).toBeNull();
    await sim.settled(1000);
    await new Promise((r) => setTimeout(r, 30));
    expect(rx.requests).toHaveLength(0);
    expect(sim.paymentsOf(inv.id)).toHaveLength(0);
  });

  it('non-USD coin: pay_amount at the configured rate', async () => {
    const { sim } = await start({ rates: { trx: '0.3' } });
    const inv = sim.createInvoice({
      price_amount: 10,
      price_currency: 'usd',
      pay_currency: 'trx',
      ipn_callback_url: rx.url,
    });
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    expect(ipnJson(rx.requests.at(-1) as ReceivedIpn)).toMatchObject({
      pay_amount: 33.333333,
      actually_paid: 33.333333,
    });
  });

  it('retries an IPN answered with an error, up to N resends at the interval', async () => {
    const { sim, inv } = await start({ ipnRetries: 2 });
    rx.answer = (r) => ({ status: ipnJson(r).payment_status === 'confirmed' ? 500 : 200 });
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    const log = sim.ipnLog().filter((d) => d.status === 'confirmed');
    expect(log.map((d) => [d.attempt, d.kind, d.httpStatus])).toEqual([
      [1, 'normal', 500],
      [2, 'retry', 500],
      [3, 'retry', 500],
    ]);
    expect(new Set(log.map((d) => d.ipnId)).size).toBe(1);
    expect(new Set(log.map((d) => d.body)).size).toBe(1);
  });

  it('a slow answer counts as failed and is resent; a later success stops the retries', async () => {
    const { sim, inv } = await start({ ipnTimeoutMs: 100, ipnRetries: 4 });
    let slowOnce = true;
    rx.answer = (r) => {
      if (ipnJson(r).payment_status === 'finished' && slowOnce) {
        slowOnce = false;
        return { delayMs: 250 };
      }
      return {};
    };
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    const log = sim.ipnLog().filter((d) => d.status === 'finished');
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ ok: false, httpStatus: null, error: 'timeout after 100 ms' });
    expect(log[1]).toMatchObject({ ok: true, attempt: 2, kind: 'retry', httpStatus: 200 });
  });

  it('an unreachable receiver is retried and logged with the error', async () => {
    const { sim } = await start({ ipnRetries: 1 });
    const closed = await startIpnReceiver();
    await closed.close(); // a port nobody listens on any more
    const inv = sim.createInvoice({ price_amount: 10, price_currency: 'usd', ipn_callback_url: closed.url });
    sim.pay(inv.id, { outcome: 'expire' });
    await sim.settled(3000);
    const log = sim.ipnLog();
    expect(log).toHaveLength(4);
    expect(log.every((d) => !d.ok && d.error !== null && d.httpStatus === null)).toBe(true);
  });

  it('duplicate mode delivers every IPN twice, byte-identical', async () => {
    const { sim, inv } = await start({ modes: { duplicate: true } });
    sim.pay(inv.id, { outcome: 'fail' });
    await sim.settled(3000);
    expect(statuses(rx.requests)).toEqual(['waiting', 'waiting', 'failed', 'failed']);
    expect(rx.requests[0]?.raw).toBe(rx.requests[1]?.raw);
    expect(rx.requests[0]?.headers['x-nowpayments-sig']).toBe(rx.requests[1]?.headers['x-nowpayments-sig']);
  });

  it('reorder mode sends confirming after the final status', async () => {
    const { sim, inv } = await start();
    await api(sim.url, 'POST', '/__sim/modes', { body: { reorder: true } });
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    expect(statuses(rx.requests)).toEqual(['waiting', 'confirmed', 'sending', 'finished', 'confirming']);
    expect(sim.payment(ipnJson(rx.requests[0] as ReceivedIpn).payment_id as number)?.status).toBe('finished');
    expect(rx.requests.every((r) => validSig(r))).toBe(true);
  });

  it('forged modes: wrong secret, tampered body, no signature', async () => {
    const { sim, inv } = await start();
    sim.setModes({ forge: 'wrong-secret' });
    const a = sim.pay(inv.id, { outcome: 'fail' });
    await sim.settled(3000);
    sim.setModes({ forge: 'tampered-body' });
    await sim.resend(a?.id as number);
    sim.setModes({ forge: 'no-signature' });
    await sim.resend(a?.id as number);
    await sim.settled(3000);
    const [w1, w2, tampered, unsigned] = rx.requests;
    expect(validSig(w1 as ReceivedIpn)).toBe(false);
    expect(validSig(w1 as ReceivedIpn, `${SECRET}-forged`)).toBe(true);
    expect(validSig(w2 as ReceivedIpn)).toBe(false);
    expect(validSig(tampered as ReceivedIpn)).toBe(false);
    expect(ipnJson(tampered as ReceivedIpn).actually_paid).toBe(1000);
    expect(unsigned?.headers['x-nowpayments-sig']).toBeUndefined();
    expect(sim.ipnLog().map((d) => d.forged)).toEqual([
      'wrong-secret',
      'wrong-secret',
      'tampered-body',
      'no-signature',
    ]);
  });

  it('repeat deposit: a new payment with parent_payment_id, same invoice, after finished', async () => {
    const { sim, inv } = await start({ modes: { repeatDeposit: '2.5' } });
    const p = sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    const child = rx.requests.map(ipnJson).filter((b) => b.parent_payment_id === p?.id);
    expect(child.map((b) => b.payment_status)).toEqual(['confirming', 'finished']);
    expect(child[1]).toMatchObject({ invoice_id: inv.id, actually_paid: 2.5, order_id: 'order-7' });
    expect(child[1]?.payment_id).not.toBe(p?.id);
    expect(sim.paymentsOf(inv.id)).toHaveLength(2);
    // through the control API, a partially_paid re-deposit
    const r = await api(sim.url, 'POST', `/__sim/payments/${p?.id}/repeat-deposit`, {
      body: { amount: '1.25', status: 'partially_paid' },
    });
    expect(r.json.payment).toMatchObject({ parent_payment_id: p?.id, origin_type: 'REPEATED' });
    await sim.settled(3000);
    expect(ipnJson(rx.requests.at(-1) as ReceivedIpn)).toMatchObject({
      payment_status: 'partially_paid',
      actually_paid: 1.25,
    });
  });

  it('python dialect: body with spaces and \\u escapes, signed over its own sorted compact form', async () => {
    const { sim } = await start({ modes: { dialect: 'python' } });
    const inv = sim.createInvoice({
      price_amount: 10,
      price_currency: 'usd',
      order_description: 'Пополнение / top-up',
      ipn_callback_url: rx.url,
    });
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    const last = rx.requests.at(-1) as ReceivedIpn;
    expect(last.raw).toContain('"actually_paid": 10.0');
    expect(last.raw).toContain('\\u041f');
    expect(validSig(last)).toBe(false); // JSON.parse + JSON.stringify loses 10.0 and the escapes
    const text = JSON.stringify(sortDeep(JSON.parse(last.raw)))
      .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .replace(
        /("(?:actually_paid|pay_amount|price_amount|withdrawalFee|actually_paid_at_fiat)":)(\d+)([,}])/g,
        '$1$2.0$3',
      );
    expect(createHmac('sha512', SECRET).update(text).digest('hex')).toBe(last.headers['x-nowpayments-sig']);
  });

  it('extra fields are part of the body and of the signature; set-status and resend through the control API', async () => {
    const { sim, inv } = await start({
      modes: { extraFields: { tags: ['a/b', { y: 1, x: 2 }], note: 'é' } },
    });
    const r = await api(sim.url, 'POST', `/__sim/invoices/${inv.id}/pay`, { body: { outcome: 'exact' } });
    const id = (r.json.payment as { payment_id: number }).payment_id;
    await api(sim.url, 'POST', '/__sim/settle', { body: { timeoutMs: 3000 } });
    await api(sim.url, 'POST', `/__sim/payments/${id}/status`, { body: { status: 'refunded' } });
    await api(sim.url, 'POST', `/__sim/payments/${id}/resend`);
    const log = (await api(sim.url, 'GET', '/__sim/ipn-log')).json.deliveries as {
      status: string;
      kind: string;
    }[];
    expect(log.slice(-2).map((d) => [d.status, d.kind])).toEqual([
      ['refunded', 'normal'],
      ['refunded', 'resend'],
    ]);
    expect(ipnJson(rx.requests.at(-1) as ReceivedIpn).tags).toEqual(['a/b', { y: 1, x: 2 }]);
    expect(rx.requests.every((x) => validSig(x))).toBe(true);
    await api(sim.url, 'POST', '/__sim/reset');
    expect((await api(sim.url, 'GET', '/__sim/state')).json.invoices).toEqual([]);
  });

  it('no IPN secret → no IPNs at all', async () => {
    const { sim, inv } = await start({ ipnSecret: '' });
    sim.pay(inv.id, { outcome: 'exact' });
    await sim.settled(3000);
    expect(rx.requests).toHaveLength(0);
    expect(sim.payment(sim.paymentsOf(inv.id)[0]?.id ?? 0)?.status).toBe('finished');
  });

  it('a waiting payment created by the API is paid later through the control API', async () => {
    const { sim } = await start({ apiKey: 'k' });
    const created = await api(sim.apiUrl, 'POST', '/payment', {
      headers: { 'x-api-key': 'k' },
      body: { price_amount: 15, price_currency: 'usd', pay_currency: 'usdttrc20', ipn_callback_url: rx.url },
    });
    expect(created.json.payment_status).toBe('waiting');
    await sim.settled(3000);
    await api(sim.url, 'POST', `/__sim/payments/${created.json.payment_id}/pay`, {
      body: { outcome: 'over', amount: 20 },
    });
    await sim.settled(3000);
    expect(statuses(rx.requests)).toEqual(['waiting', 'confirming', 'confirmed', 'sending', 'finished']);
  });
});
