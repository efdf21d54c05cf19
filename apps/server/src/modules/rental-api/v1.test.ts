import { randomUUID } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { type SeededGateway, smsToNumber, userWithApiKey } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { serverWithGatewayAndServices } from '../../test/suites.ts';

// The REST API for programs (/api/v1, Bearer API key): services, idempotent create, get, list,
// cancel, finish, another SMS, balance and ledger; per-key rate limits with X-RateLimit-* and 429.

let s: TestServer;
let gw: SeededGateway;

serverWithGatewayAndServices(
  {
    sims: 8,
    env: { API_RATE_LIMIT: '40', API_RATE_WINDOW_SECONDS: '60' },
    services: [
      { code: 'tg', name: 'Telegram', price: 1.25 },
      { code: 'go', name: 'Google', price: 0.5, pattern: 'G-(\\d{6})', repeatable: true },
    ],
  },
  (t) => {
    ({ s, gw } = t);
  },
);

const keyed = (balance = 10) => userWithApiKey(s, balance);

async function api(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field.
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const deliver = (phone: string, text: string) => smsToNumber(s.ctx, gw, phone, text);

describe('/api/v1', () => {
  it('lists services with price and availability', async () => {
    const u = await keyed();
    const res = await api(u.key, 'GET', '/services');
    expect(res.status).toBe(200);
    expect(res.body.services).toEqual([
      {
        code: 'go',
        name: 'Google',
        description: '',
        price: 0.5,
        available: 7, // 8 SIMs, 1 kept for sending (20 %)
        rentTimeMinutes: 20,
        isRepeatable: true,
      },
      {
        code: 'tg',
        name: 'Telegram',
        description: '',
        price: 1.25,
        available: 7, // 8 SIMs, 1 kept for sending (20 %)
        rentTimeMinutes: 20,
        isRepeatable: false,
      },
    ]);
  });

  it('creates an order once per Idempotency-Key: a retried request never buys twice', async () => {
    const u = await keyed(10);
    const key = randomUUID();
    const first = await api(u.key, 'POST', '/orders', { service: 'tg' }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.body.order).toMatchObject({
      service: 'tg',
      status: 'WAIT_CODE',
      price: 1.25,
      code: null,
      codes: [],
      canGetAnotherSms: false,
      finished: false,
    });
    expect(first.body.order.activationId).toBe(Number(first.body.order.id));
    expect(first.body.order.phoneNumber).toMatch(/^\d+$/);
    // The same key, in sequence and in parallel: the same order, one charge.
    const again = await api(u.key, 'POST', '/orders', { service: 'tg' }, { 'idempotency-key': key });
    expect(again.body.order.id).toBe(first.body.order.id);
    const burst = await Promise.all(
      Array.from({ length: 4 }, () =>
        api(u.key, 'POST', '/orders', { service: 'tg' }, { 'idempotency-key': key }),
      ),
    );
    expect(new Set(burst.map((r) => r.body.order.id))).toEqual(new Set([first.body.order.id]));
    expect((await api(u.key, 'GET', '/balance')).body).toEqual({ balance: 8.75, currency: 'USD' });
    // The same key for another service is a conflict, not a second rent.
    const other = await api(u.key, 'POST', '/orders', { service: 'go' }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    // Without a key, each request rents.
    const b = await api(u.key, 'POST', '/orders', { service: 'tg' });
    expect(b.body.order.id).not.toBe(first.body.order.id);
    const list = await api(u.key, 'GET', '/orders?limit=10');
    expect(list.body.total).toBe(2);
    expect(list.body.orders.map((o: { id: string }) => o.id)).toEqual([b.body.order.id, first.body.order.id]);
  });

  it('refuses clearly: 402 balance, 404 service, 409 max price, 400 input, 404 foreign order', async () => {
    const u = await keyed(1);
    const other = await keyed(10);
    expect((await api(u.key, 'POST', '/orders', { service: 'tg' })).body).toMatchObject({
      error: 'balance_too_low',
    });
    expect((await api(u.key, 'POST', '/orders', { service: 'tg' })).status).toBe(402);
    expect((await api(u.key, 'POST', '/orders', { service: 'nope' })).status).toBe(404);
    const max = await api(u.key, 'POST', '/orders', { service: 'go', maxPrice: 0.25 });
    expect(max).toMatchObject({ status: 409, body: { error: 'price_above_max' } });
    expect((await api(u.key, 'POST', '/orders', { service: 7 })).status).toBe(400);
    expect(
      (await api(u.key, 'POST', '/orders', { service: 'go' }, { 'idempotency-key': 'has space' })).status,
    ).toBe(400);
    const mine = (await api(other.key, 'POST', '/orders', { service: 'go' })).body.order;
    expect((await api(u.key, 'GET', `/orders/${mine.id}`)).status).toBe(404);
    expect((await api(u.key, 'POST', `/orders/${mine.id}/cancel`)).status).toBe(404);
    expect((await api(u.key, 'GET', '/orders/abc')).status).toBe(404);
    expect((await api(u.key, 'GET', '/orders?limit=1000')).status).toBe(400);
  });

  it('get, cancel (early refused, then refunded) and finish', async () => {
    const u = await keyed(10);
    const a = (await api(u.key, 'POST', '/orders', { service: 'tg' })).body.order;
    const early = await api(u.key, 'POST', `/orders/${a.id}/cancel`);
    expect(early).toMatchObject({ status: 409, body: { error: 'cancel_too_early' } });
    s.clock.advance(121_000);
    await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
    const cancelled = await api(u.key, 'POST', `/orders/${a.id}/cancel`);
    expect(cancelled.body.order.status).toBe('CANCEL');
    expect((await api(u.key, 'POST', `/orders/${a.id}/cancel`)).body.error).toBe('order_already_cancelled');

    const b = (await api(u.key, 'POST', '/orders', { service: 'tg' })).body.order;
    expect((await api(u.key, 'POST', `/orders/${b.id}/finish`)).body.error).toBe('order_no_code');
    await deliver(b.phoneNumber, 'Telegram code 55123');
    const got = (await api(u.key, 'GET', `/orders/${b.id}`)).body.order;
    expect(got).toMatchObject({ status: 'SUCCESS', code: '55123', smsText: 'Telegram code 55123' });
    expect(got.codes).toEqual([
      { code: '55123', text: 'Telegram code 55123', receivedAt: s.clock.now().toISOString() },
    ]);
    expect((await api(u.key, 'POST', `/orders/${b.id}/cancel`)).body.error).toBe('order_has_code');
    expect((await api(u.key, 'POST', `/orders/${b.id}/another-sms`)).body.error).toBe('order_not_repeatable');
    const finished = await api(u.key, 'POST', `/orders/${b.id}/finish`);
    expect(finished.body.order.finished).toBe(true);
  });

  it('another SMS for repeatable services: waits, then records the next code', async () => {
    const u = await keyed(10);
    const o = (await api(u.key, 'POST', '/orders', { service: 'go' })).body.order;
    expect(o.canGetAnotherSms).toBe(false);
    expect((await api(u.key, 'POST', `/orders/${o.id}/another-sms`)).body.error).toBe('order_no_code');
    await deliver(o.phoneNumber, 'G-100001 Google');
    const withCode = (await api(u.key, 'GET', `/orders/${o.id}`)).body.order;
    expect(withCode).toMatchObject({ code: '100001', canGetAnotherSms: true, waitingForAnotherSms: false });
    const asked = await api(u.key, 'POST', `/orders/${o.id}/another-sms`);
    expect(asked.body.order).toMatchObject({ code: '100001', waitingForAnotherSms: true });
    s.clock.advance(1000);
    await deliver(o.phoneNumber, 'G-100002 Google');
    const next = (await api(u.key, 'GET', `/orders/${o.id}`)).body.order;
    expect(next).toMatchObject({ code: '100002', waitingForAnotherSms: false, status: 'SUCCESS' });
    expect(next.codes.map((c: { code: string }) => c.code)).toEqual(['100001', '100002']);
    // Charged once for both codes.
    expect((await api(u.key, 'GET', '/balance')).body.balance).toBe(9.5);
    await api(u.key, 'POST', `/orders/${o.id}/finish`);
    expect((await api(u.key, 'POST', `/orders/${o.id}/another-sms`)).body.error).toBe('order_closed');
    // A finished order takes no more codes.
    await deliver(o.phoneNumber, 'G-100003 Google');
    expect((await api(u.key, 'GET', `/orders/${o.id}`)).body.order.code).toBe('100002');
  });

  it('the ledger lists every movement and adds up to the balance', async () => {
    const u = await keyed(10);
    const a = (await api(u.key, 'POST', '/orders', { service: 'tg' })).body.order;
    s.clock.advance(121_000);
    await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
    await api(u.key, 'POST', `/orders/${a.id}/cancel`);
    const b = (await api(u.key, 'POST', '/orders', { service: 'go' })).body.order;
    const ledger = await api(u.key, 'GET', '/ledger');
    expect(ledger.status).toBe(200);
    expect(ledger.body.total).toBe(4);
    expect(
      ledger.body.entries.map((e: { amount: number; kind: string; ref: string | null }) => [
        e.amount,
        e.kind,
        e.ref,
      ]),
    ).toEqual([
      [-0.5, 'order_charge', `order:${b.id}`],
      [1.25, 'refund', `order:${a.id}`],
      [-1.25, 'order_charge', `order:${a.id}`],
      [10, 'topup', null],
    ]);
    expect(ledger.body.balance).toBe(9.5);
    const page = await api(u.key, 'GET', '/ledger?limit=1&offset=1');
    expect(page.body.entries).toHaveLength(1);
    expect(page.body.entries[0].kind).toBe('refund');
  });
});

describe('rate limits per key', () => {
  it('counts every call in the database, sends X-RateLimit-* and answers 429 past the limit', async () => {
    const limited = await startTestServer({ env: { API_RATE_LIMIT: '5', API_RATE_WINDOW_SECONDS: '60' } });
    try {
      const u = await limited.createUser({ balance: 1 });
      const key = (
        await limited.api(endpoints.apikey.reset, { token: u.token, headers: await limited.reauth(u) })
      ).body.apiKey;
      const other = await limited.createUser();
      const otherKey = (
        await limited.api(endpoints.apikey.reset, {
          token: other.token,
          headers: await limited.reauth(other),
        })
      ).body.apiKey;
      const call = (k: string) =>
        fetch(`${limited.url}/api/v1/balance`, { headers: { authorization: `Bearer ${k}` } });
      // The window is aligned to the clock: start at its beginning.
      limited.clock.set(Math.ceil(limited.clock.now().getTime() / 60_000) * 60_000);
      const seen: [number, string | null][] = [];
      for (let i = 0; i < 5; i++) {
        const r = await call(key);
        seen.push([r.status, r.headers.get('x-ratelimit-remaining')]);
      }
      expect(seen).toEqual([
        [200, '4'],
        [200, '3'],
        [200, '2'],
        [200, '1'],
        [200, '0'],
      ]);
      const over = await call(key);
      expect(over.status).toBe(429);
      expect(over.headers.get('x-ratelimit-limit')).toBe('5');
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(over.headers.get('x-ratelimit-reset')).toBe('60');
      expect(over.headers.get('retry-after')).toBe('60');
      expect(await over.json()).toMatchObject({ code: 0, error: 'too_many_requests' });
      // The handler shares the limit: 429 with Hero's envelope.
      const handler = await fetch(`${limited.url}/stubs/handler_api.php?api_key=${key}&action=getBalance`);
      expect(handler.status).toBe(429);
      expect(await handler.json()).toMatchObject({ title: 'RATE_LIMIT' });
      // Another key is not affected; a reset key keeps the count (it is per user).
      expect((await call(otherKey)).status).toBe(200);
      const fresh = (
        await limited.api(endpoints.apikey.reset, { token: u.token, headers: await limited.reauth(u) })
      ).body.apiKey;
      expect((await call(fresh)).status).toBe(429);
      // The next window starts again.
      limited.clock.advance(60_000);
      const next = await call(fresh);
      expect(next.status).toBe(200);
      expect(next.headers.get('x-ratelimit-remaining')).toBe('4');
      // Parallel calls each get their own count: exactly the limit passes.
      const burst = await Promise.all(Array.from({ length: 10 }, () => call(fresh)));
      expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
    } finally {
      await limited.close();
    }
  });
});

describe('documentation', () => {
  it('Swagger documents the REST API and every handler action with examples', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: walks the OpenAPI document.
    const doc = (await s.call<any>('GET', '/swagger/json')).body;
    for (const path of [
      '/api/v1/services',
      '/api/v1/orders',
      '/api/v1/orders/{id}',
      '/api/v1/orders/{id}/another-sms',
      '/api/v1/balance',
      '/api/v1/ledger',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/v1/orders'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/v1/orders'].post.parameters.map((p: { name: string }) => p.name)).toContain(
      'idempotency-key',
    );
    const handler = doc.paths['/stubs/handler_api.php'];
    expect(handler.get.security).toEqual([{ apiKeyParam: [] }]);
    const description: string = handler.get.description;
    for (const action of [
      'getBalance',
      'getNumber',
      'getNumberV2',
      'setStatus',
      'getStatus',
      'getStatusV2',
      'getFullSms',
      'getActiveActivations',
      'getHistory',
      'getPrices',
      'getNumbersStatus',
      'getTopCountriesByService',
      'getCountries',
      'getServicesList',
      'getOperators',
      'finishActivation',
      'cancelActivation',
    ]) {
      expect(description, action).toContain(`| ${action} |`);
    }
    expect(description).toContain('ACCESS_NUMBER:42:15550000001');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
