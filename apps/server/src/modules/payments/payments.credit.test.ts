// A provider payment's credit follows its largest confirmed paid amount; signed webhooks must name
// a matching order and invoice; and bad amounts in a signed webhook are a 400, never a 500.
// Sandbox provider through the real server and the test database.
import { createHmac } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, startTestServer, type TestServer } from '../../test/index.ts';
import { SANDBOX_SIGNATURE_HEADER } from './providers/sandbox.ts';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterEach(async () => {
  expect(await ledgerMismatches(s.db)).toEqual([]);
});
afterAll(() => s.close());

// The sandbox signs with a key derived from the app secret (the test config's).
const key = createHmac('sha256', 'test-secret-test-secret-test-secret-0123')
  .update('simdock-sandbox-payments')
  .digest();
const sign = (raw: string) => createHmac('sha256', key).update(raw).digest('hex');
const post = (raw: string, signed = true) =>
  fetch(`${s.url}/api/Payments/ipn`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signed ? { [SANDBOX_SIGNATURE_HEADER]: sign(raw) } : {}),
    },
    body: raw,
  });

const balanceOf = async (token: string) =>
  (await s.api(endpoints.user.info, { token })).body.balance as number;
const ledger = (userId: string) =>
  s.db.query<{ amount: string }>(
    `SELECT amount::text AS amount FROM ledger WHERE user_id = $1 AND kind = 'topup' ORDER BY id`,
    [userId],
  );

async function invoiceFor(amount: number) {
  const u = await s.createUser();
  const res = await s.api(endpoints.payment.create, { body: { amount }, token: u.token });
  expect(res.status).toBe(200);
  const { id, url } = res.body.result as { id: string; url: string };
  const invoice = url.split('/').pop()!;
  /** A webhook body of this top-up's one provider payment. */
  const body = (status: string, paid: string, over: Record<string, unknown> = {}) =>
    JSON.stringify({
      invoice_id: invoice,
      payment_id: `${invoice}-1`,
      order_id: id,
      payment_status: status,
      price_amount: amount.toFixed(2),
      actually_paid: paid,
      updated_at: new Date().toISOString(),
      ...over,
    });
  return { user: u, id, invoice, body };
}

async function adminRow(id: string) {
  const res = await s.api(endpoints.payment.adminList, {
    query: { page: 1, pageSize: 100 },
    token: await s.adminToken(),
  });
  return (res.body.items as { id: string; amountReal: number; status: string; gwStatus: string }[]).find(
    (p) => p.id === id,
  );
}

describe('credit follows the largest confirmed paid amount', () => {
  it('partially_paid 5 then finished 20 credits 20 in all, the increase once', async () => {
    const t = await invoiceFor(20);
    const partial = t.body('partially_paid', '5.00');
    const finished = t.body('finished', '20.00');
    expect((await (await post(partial)).json()).msg).toBe('credited');
    expect(await balanceOf(t.user.token)).toBe(5);
    expect((await (await post(finished)).json()).msg).toBe('credited');
    expect(await balanceOf(t.user.token)).toBe(20);
    // Repeats of either, and a late smaller one, add nothing.
    for (const raw of [partial, finished, partial, finished]) {
      const res = await post(raw);
      expect(res.status).toBe(200);
      expect((await res.json()).msg).toBe('duplicate');
    }
    expect(await balanceOf(t.user.token)).toBe(20);
    expect((await ledger(t.user.id)).map((r) => r.amount)).toEqual(['5.00', '15.00']);
    expect(await adminRow(t.id)).toMatchObject({ amountReal: 20, status: 'DONE', gwStatus: 'finished' });
  });

  it('repeated and concurrent partial and finished webhooks credit exactly the largest amount', async () => {
    const t = await invoiceFor(20);
    const partial = t.body('partially_paid', '5.00');
    const finished = t.body('finished', '20.00');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 3 === 0 ? finished : partial)),
    );
    for (const r of results) expect(r.status).toBe(200);
    const msgs = await Promise.all(results.map(async (r) => (await r.json()).msg as string));
    expect(msgs.filter((m) => m === 'credited').length).toBeGreaterThanOrEqual(1);
    expect(msgs.filter((m) => m === 'credited').length).toBeLessThanOrEqual(2);
    expect(await balanceOf(t.user.token)).toBe(20);
    const rows = (await ledger(t.user.id)).map((r) => Number(r.amount));
    expect(rows.reduce((a, b) => a + b, 0)).toBe(20);
    expect(await adminRow(t.id)).toMatchObject({ amountReal: 20, status: 'DONE' });
  });

  it('a finished payment followed by a smaller partial one stays at the larger credit', async () => {
    const t = await invoiceFor(20);
    await post(t.body('finished', '20.00'));
    expect((await (await post(t.body('partially_paid', '5.00'))).json()).msg).toBe('duplicate');
    expect(await balanceOf(t.user.token)).toBe(20);
    expect(await ledger(t.user.id)).toHaveLength(1);
  });
});

describe('signed webhooks are checked against the stored order', () => {
  it('an invoice id that is not the order’s invoice is refused with 400 and changes nothing', async () => {
    const a = await invoiceFor(10);
    const b = await invoiceFor(10);
    // Signed, names a's order, but b's invoice (and a made-up one).
    for (const invoice of [b.invoice, 'sbx_000000000000000000000000']) {
      const raw = a.body('finished', '10.00', { invoice_id: invoice });
      const res = await post(raw);
      expect(res.status, invoice).toBe(400);
      expect(await res.json()).toMatchObject({ code: 0, error: 'bad_input' });
    }
    expect(await balanceOf(a.user.token)).toBe(0);
    expect(await balanceOf(b.user.token)).toBe(0);
    expect(await adminRow(a.id)).toMatchObject({ status: 'PENDING', amountReal: 0 });
    // The matching one still goes through afterwards (the refusal recorded no event).
    expect((await (await post(a.body('finished', '10.00'))).json()).msg).toBe('credited');
    expect(await balanceOf(a.user.token)).toBe(10);
  });

  it.each([['-50'], ['-50.00'], ['NaN'], ['Infinity'], ['-Infinity'], ['1e999'], [''], ['0x10']])(
    'a signed webhook paying %j is a 400 and credits nothing',
    async (paid) => {
      const t = await invoiceFor(10);
      for (const raw of [t.body('finished', paid), t.body('finished', '10.00', { price_amount: paid })]) {
        const res = await post(raw);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 0, error: 'bad_input' });
      }
      // Numbers too (JSON has no NaN, but -50 and huge numbers are valid JSON).
      for (const raw of [
        t.body('finished', '0').replace('"actually_paid":"0"', '"actually_paid":-50'),
        t.body('finished', '0').replace('"actually_paid":"0"', '"actually_paid":1e999'),
      ]) {
        expect((await post(raw)).status).toBe(400);
      }
      expect(await balanceOf(t.user.token)).toBe(0);
      expect(await adminRow(t.id)).toMatchObject({ status: 'PENDING' });
    },
  );
});

describe('the Bearer scheme is case-insensitive', () => {
  it('a session token works with bearer, BEARER and Bearer', async () => {
    const u = await s.createUser();
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await fetch(`${s.url}/api/user/info`, {
        method: 'POST',
        headers: { authorization: `${scheme} ${u.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('an API key works with bearer on /api/v1', async () => {
    const u = await s.createUser({ balance: 3 });
    const apiKey: string = (
      await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })
    ).body.apiKey;
    for (const scheme of ['Bearer', 'bearer', 'bEaReR']) {
      const res = await fetch(`${s.url}/api/v1/balance`, {
        headers: { authorization: `${scheme} ${apiKey}` },
      });
      expect(res.status, scheme).toBe(200);
    }
    const wrong = await fetch(`${s.url}/api/v1/balance`, { headers: { authorization: `Token ${apiKey}` } });
    expect(wrong.status).toBe(401);
  });
});
