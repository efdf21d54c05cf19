import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints, WEBHOOK_MAX_TRIES, WEBHOOK_RETRY_DELAYS_S } from '@simdock/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seal } from '../../crypto.ts';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { ingestIncomingSms } from '../gateways/index.ts';
import { isPrivateAddress } from './url-safety.ts';
import { deliverDue } from './webhooks.service.ts';

// Webhooks against a local receiver: the signature verifies, failed tries are retried with
// backoff, exactly one successful delivery is recorded, the test event, the URL limit and the
// SSRF guard.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver; `plan` says what each next request gets (a status, or 'slow' past the timeout). */
class Receiver {
  received: Received[] = [];
  plan: (number | 'slow')[] = [];
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        const next = this.plan.shift() ?? 200;
        if (next === 'slow') setTimeout(() => res.writeHead(200).end('late'), 3500).unref();
        else res.writeHead(next).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

let s: TestServer;
let rx: Receiver;
let gw: { id: string; numbers: string[]; ports: string[] };

beforeAll(async () => {
  s = await startTestServer();
  rx = new Receiver();
  await rx.start();
  gw = await seedGateway(s.db, { sims: 6, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
});
beforeEach(async () => {
  rx.received = [];
  rx.plan = [];
  await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
});
afterAll(async () => {
  await rx.stop();
  await s.close();
});

async function rentAndReceive(token: string, text: string) {
  const order = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token })).body.data;
  await ingestIncomingSms(s.ctx, [
    {
      gatewayId: gw.id,
      port: gw.ports[gw.numbers.indexOf(order.phoneNumber)]!,
      isReport: false,
      ts: null,
      sender: 'Telegram',
      recipient: null,
      text,
      dedupeKey: randomUUID(),
    },
  ]);
  return order as { id: string; phoneNumber: string };
}

const verify = (secret: string, r: Received) =>
  `sha256=${createHmac('sha256', secret).update(`${r.headers['x-simdock-timestamp']}.${r.body}`).digest('hex')}`;

describe('webhook deliveries', () => {
  it('signs each POST, retries failures with backoff, and records exactly one success', async () => {
    const u = await s.createUser({ balance: 5 });
    const added = await s.api(endpoints.webhooks.add, {
      body: { url: rx.url },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(added.status).toBe(200);
    const secret: string = added.body.webhook.secret!;
    expect(secret).toMatch(/^whsec_/);

    rx.plan = [500, 'slow', 404];
    const receivedAt = s.clock.now();
    const order = await rentAndReceive(u.token, 'Telegram code 31415');

    // Try 1 fails (500); the next is due after the first delay, not before.
    expect(await deliverDue(s.ctx)).toBe(1);
    expect(await deliverDue(s.ctx)).toBe(0);
    for (const delay of WEBHOOK_RETRY_DELAYS_S.slice(0, 3)) {
      s.clock.advance(delay * 1000 - 1000);
      expect(await deliverDue(s.ctx)).toBe(0);
      s.clock.advance(1000);
      expect(await deliverDue(s.ctx)).toBe(1);
    }
    // Tries 2 (no answer in 3 s) and 3 (404) failed; try 4 succeeded. Nothing more is sent.
    s.clock.advance(3600_000);
    expect(await deliverDue(s.ctx)).toBe(0);
    expect(rx.received).toHaveLength(4);

    for (const r of rx.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-simdock-event']).toBe('code.received');
      expect(r.headers['x-simdock-signature']).toBe(verify(secret, r));
      expect(verify('whsec_wrong', r)).not.toBe(r.headers['x-simdock-signature']);
    }
    expect(new Set(rx.received.map((r) => r.headers['x-simdock-delivery'])).size).toBe(1);
    expect(JSON.parse(rx.received[0]!.body)).toEqual({
      event: 'code.received',
      activationId: Number(order.id),
      orderId: order.id,
      service: 'tg',
      phone: order.phoneNumber,
      code: '31415',
      text: 'Telegram code 31415',
      receivedAt: receivedAt.toISOString(),
    });

    const log = await s.api(endpoints.webhooks.deliveries, { token: u.token });
    expect(log.body.deliveries).toHaveLength(1);
    expect(log.body.deliveries[0]).toMatchObject({
      url: rx.url,
      event: 'code.received',
      status: 'delivered',
      attempts: 4,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    const attempts = await s.db.query<{ ok: boolean; http_status: number | null; error: string | null }>(
      `SELECT a.ok, a.http_status, a.error FROM webhook_attempts a
         JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.user_id = $1 ORDER BY a.id`,
      [u.id],
    );
    expect(attempts.map((a) => [a.ok, a.http_status])).toEqual(
      [
        [false, 500],
        [false, null],
        [true, 200],
      ].length === 3
        ? [
            [false, 500],
            [false, null],
            [false, 404],
            [true, 200],
          ]
        : [],
    );
    expect(attempts[1]!.error).toMatch(/within 3 s/);
    expect(attempts.filter((a) => a.ok)).toHaveLength(1);
  });

  it('gives up after the last try and marks the delivery failed', async () => {
    const u = await s.createUser({ balance: 5 });
    await s.api(endpoints.webhooks.add, {
      body: { url: rx.url },
      token: u.token,
      headers: await s.reauth(u),
    });
    rx.plan = Array.from({ length: 20 }, () => 503);
    await rentAndReceive(u.token, 'Telegram code 27182');
    expect(await deliverDue(s.ctx)).toBe(1);
    for (const delay of WEBHOOK_RETRY_DELAYS_S) {
      s.clock.advance(delay * 1000);
      expect(await deliverDue(s.ctx)).toBe(1);
    }
    s.clock.advance(3600_000);
    expect(await deliverDue(s.ctx)).toBe(0);
    expect(rx.received).toHaveLength(WEBHOOK_MAX_TRIES);
    expect(WEBHOOK_MAX_TRIES).toBeGreaterThanOrEqual(7);
    const res = await s.api(endpoints.webhooks.deliveries, { token: u.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const log = res.body.deliveries;
    expect(log[0]).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_TRIES, lastStatus: 503 });
  });

  it('two workers at once send each delivery once (claimed with SKIP LOCKED and a lease)', async () => {
    const u = await s.createUser({ balance: 5 });
    await s.api(endpoints.webhooks.add, {
      body: { url: rx.url },
      token: u.token,
      headers: await s.reauth(u),
    });
    await rentAndReceive(u.token, 'Telegram code 11111');
    await rentAndReceive(u.token, 'Telegram code 22222');
    await rentAndReceive(u.token, 'Telegram code 33333');
    const counts = await Promise.all([deliverDue(s.ctx, 2), deliverDue(s.ctx, 2), deliverDue(s.ctx, 2)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await deliverDue(s.ctx)).toBe(0);
    const codes = rx.received.map((r) => JSON.parse(r.body).code).sort();
    expect(codes).toEqual(['11111', '22222', '33333']);
  });
});

describe('managing webhooks', () => {
  it('up to 3 URLs; delete; the test event reaches the receiver and is logged', async () => {
    const u = await s.createUser();
    expect((await s.api(endpoints.webhooks.test, { token: u.token })).status).toBe(400);
    for (const n of [1, 2, 3]) {
      expect(
        (
          await s.api(endpoints.webhooks.add, {
            body: { url: `${rx.url}?n=${n}` },
            token: u.token,
            headers: await s.reauth(u),
          })
        ).status,
      ).toBe(200);
      s.clock.advance(1000);
    }
    const dup = await s.api(endpoints.webhooks.add, {
      body: { url: `${rx.url}?n=1` },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(dup.status).toBe(409);
    const fourth = await s.api(endpoints.webhooks.add, {
      body: { url: `${rx.url}?n=4` },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(fourth).toMatchObject({ status: 409, body: { error: 'webhook_limit' } });
    const list = (await s.api(endpoints.webhooks.list, { token: u.token })).body;
    expect(list.max).toBe(3);
    expect(list.webhooks).toHaveLength(3);

    rx.plan = [200, 500, 200];
    const test = await s.api(endpoints.webhooks.test, { token: u.token });
    expect(test.status).toBe(200);
    expect(test.body.msg).toBe('Test event delivered to 2 of 3 URLs.');
    expect(test.body.deliveries.map((d: { status: string }) => d.status).sort()).toEqual([
      'delivered',
      'delivered',
      'failed',
    ]);
    expect(rx.received).toHaveLength(3);
    expect(JSON.parse(rx.received[0]!.body)).toMatchObject({ event: 'test', code: '123456' });
    // A test is one try: nothing is retried.
    s.clock.advance(3600_000);
    expect(await deliverDue(s.ctx)).toBe(0);

    const one = await s.api(endpoints.webhooks.test, { body: { id: list.webhooks[0]!.id }, token: u.token });
    expect(one.body.deliveries).toHaveLength(1);
    expect(one.body.deliveries[0]!.url).toBe(`${rx.url}?n=1`);

    const other = await s.createUser();
    expect(
      (await s.api(endpoints.webhooks.delete, { body: { id: list.webhooks[0]!.id }, token: other.token }))
        .status,
    ).toBe(404);
    expect(
      (await s.api(endpoints.webhooks.test, { body: { id: list.webhooks[0]!.id }, token: other.token }))
        .status,
    ).toBe(404);
    expect((await s.api(endpoints.webhooks.delete, { body: { id: 'nope' }, token: u.token })).status).toBe(
      404,
    );
    expect(
      (await s.api(endpoints.webhooks.delete, { body: { id: list.webhooks[0]!.id }, token: u.token })).status,
    ).toBe(200);
    expect((await s.api(endpoints.webhooks.list, { token: u.token })).body.webhooks).toHaveLength(2);
  });

  it('a secret sealed under an earlier APP_SECRET: listed as null, its deliveries fail with a reason, no 500', async () => {
    const u = await s.createUser();
    expect(
      (
        await s.api(endpoints.webhooks.add, {
          body: { url: rx.url },
          token: u.token,
          headers: await s.reauth(u),
        })
      ).status,
    ).toBe(200);
    await s.db.query('UPDATE webhooks SET secret_enc = $2 WHERE user_id = $1', [
      u.id,
      seal('an-earlier-app-secret-of-32-characters', 'whsec_old'),
    ]);
    const list = await s.api(endpoints.webhooks.list, { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.webhooks).toMatchObject([{ url: rx.url, secret: null }]);
    const test = await s.api(endpoints.webhooks.test, { token: u.token });
    expect(test.status).toBe(200);
    expect(test.body.deliveries).toMatchObject([
      { status: 'failed', lastError: expect.stringContaining('APP_SECRET') },
    ]);
    expect(rx.received).toHaveLength(0);
  });

  it('refuses malformed URLs', async () => {
    const u = await s.createUser();
    for (const url of [
      'not a url',
      'ftp://example.com/x',
      'http://user:pw@example.com/x',
      'javascript:alert(1)',
      '',
    ]) {
      const res = await s.api(endpoints.webhooks.add, {
        body: { url },
        token: u.token,
        headers: await s.reauth(u),
      });
      expect(res.status, url).toBe(400);
    }
  });
});

describe('SSRF guard', () => {
  it('knows private, loopback, link-local and reserved addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('in production refuses webhook URLs that point to the server’s own network', async () => {
    const prod = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
    try {
      const u = await prod.createUser();
      for (const url of [
        rx.url,
        'http://localhost:8080/x',
        'http://10.0.0.5/x',
        'http://[::1]:9/x',
        'http://169.254.169.254/latest',
      ]) {
        const res = await prod.api(endpoints.webhooks.add, {
          body: { url },
          token: u.token,
          headers: await prod.reauth(u),
        });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBe('webhook_url_refused');
      }
    } finally {
      await prod.close();
    }
  });
});
