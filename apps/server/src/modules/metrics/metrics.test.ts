import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, recvSmsPush, seedGateway, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { scrape } from '../../test/metrics.ts';
import { openSse } from '../../test/sse.ts';
import { dispatchOnce } from '../messaging/index.ts';
import { deliverDue } from '../webhooks/index.ts';

// GET /metrics on the real server after real work: a rental whose code arrives by a device push,
// a campaign handed to a simulated gateway, a refused payment webhook, a failing outgoing webhook,
// an open live stream; and who may scrape in production.

const HTTP = 'simdock_http_request_duration_seconds';

describe('GET /metrics after real work (development: open)', () => {
  let s: TestServer;
  let admin: string;
  let gw: { id: string; numbers: string[]; ports: string[] };
  let sim: GatewaySim | undefined;
  let hook: Server;
  let hookUrl = '';

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.adminToken();
    gw = await seedGateway(s.db, { sims: 2, lastUpdate: s.clock.now() });
    await addService(s.db, { code: 'tg', name: 'Telegram', price: 1, pattern: '(\\d{5})' });
    // The user's webhook receiver answers 500: the outgoing delivery fails.
    hook = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await sim?.stop();
    hook.closeAllConnections();
    await new Promise((r) => hook.close(r));
    await s.close();
  });

  it('exports the process metrics and every SimDock metric with its help and type', async () => {
    const m = await scrape(s);
    expect(m.value('process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(m.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(m.value('nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
    for (const [name, type] of [
      [HTTP, 'histogram'],
      ['simdock_sse_streams_open', 'gauge'],
      ['simdock_queue_depth', 'gauge'],
      ['simdock_sms_dispatched_total', 'counter'],
      ['simdock_otp_latency_seconds', 'histogram'],
      ['simdock_webhook_failures_total', 'counter'],
      ['simdock_sign_in_password_checks_total', 'counter'],
    ]) {
      expect(m.text).toContain(`# TYPE ${name} ${type}\n`);
      expect(m.text).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
    }
    expect(m.value('simdock_sse_streams_open')).toBe(0);
    expect(m.value('simdock_otp_latency_seconds_count')).toBe(0);
    expect(m.value('simdock_queue_depth', { queue: 'sms' })).toBe(0);
    expect(m.value('simdock_queue_depth', { queue: 'webhooks' })).toBe(0);
    for (const [name, type] of [
      ['simdock_ready', 'gauge'],
      ['simdock_queue_oldest_seconds', 'gauge'],
      ['simdock_gateways_offline', 'gauge'],
    ]) {
      expect(m.text).toContain(`# TYPE ${name} ${type}\n`);
    }
    expect(m.value('simdock_ready')).toBe(1);
    expect(m.value('simdock_queue_oldest_seconds', { queue: 'sms' })).toBe(0);
    // The seeded gateway reported just now; one that never reported is offline.
    expect(m.value('simdock_gateways_offline')).toBe(0);
    const quiet = await seedGateway(s.db, { sims: 1, lastUpdate: new Date(0) });
    expect((await scrape(s)).value('simdock_gateways_offline')).toBe(1);
    await s.db.query('UPDATE gateways SET is_enable = false WHERE id = $1', [quiet.id]);
    expect((await scrape(s)).value('simdock_gateways_offline')).toBe(0);
  });

  it('counts a rental whose code arrives by a device push, by route template, and its OTP latency', async () => {
    const u = await s.createUser({ balance: 5 });
    expect(
      (
        await s.api(endpoints.webhooks.add, {
          body: { url: hookUrl },
          token: u.token,
          headers: await s.reauth(u),
        })
      ).status,
    ).toBe(200);
    const order = (await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token })).body
      .data;
    const port = gw.ports[gw.numbers.indexOf(order.phoneNumber)]!;
    const push = await s.post(
      `/api/gw/${gw.id}/secret/sms`,
      recvSmsPush(port, 'Telegram code 48213', s.clock.now()),
    );
    expect(push.status).toBe(200);
    expect((await s.api(endpoints.order.getByUser, { token: u.token })).body.orders[0]).toMatchObject({
      id: order.id,
      codeText: '48213',
    });
    expect((await s.call('GET', '/api/no/such/route')).status).toBe(404);

    const m = await scrape(s);
    const count = `${HTTP}_count`;
    expect(m.value(count, { method: 'POST', route: '/api/Order/create', status_code: '200' })).toBe(1);
    expect(m.value(count, { method: 'POST', route: '/api/gw/:id/:secret/sms', status_code: '200' })).toBe(1);
    expect(m.value(count, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    // Buckets are cumulative: the +Inf bucket holds every request of the series.
    expect(
      m.value(`${HTTP}_bucket`, {
        method: 'POST',
        route: '/api/Order/create',
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(1);
    // Labels are templates: no raw path (an id, the device's secret) ever becomes a label.
    const routes = new Set(m.find(count).map((x) => x.labels.route));
    expect([...routes].filter((r) => r?.includes(gw.id) || r?.includes('/secret/'))).toEqual([]);
    expect(routes.has('/api/no/such/route')).toBe(false);

    expect(m.value('simdock_otp_latency_seconds_count')).toBe(1);
    expect(m.value('simdock_otp_latency_seconds_bucket', { le: '+Inf' })).toBe(1);
    // The code queued one delivery to the user's webhook.
    expect(m.value('simdock_queue_depth', { queue: 'webhooks' })).toBe(1);
    expect(m.value('simdock_webhook_failures_total', { direction: 'outgoing' })).toBeUndefined();

    // Its receiver answers 500: one failed try, the delivery waits for its retry.
    expect(await deliverDue(s.ctx)).toBe(1);
    const after = await scrape(s);
    expect(
      after.value('simdock_webhook_failures_total', { direction: 'outgoing', reason: 'http_error' }),
    ).toBe(1);
    expect(after.value('simdock_queue_depth', { queue: 'webhooks' })).toBe(1);
    // The scrape before was timed too, under its own route.
    expect(
      after.value(count, { method: 'GET', route: '/metrics', status_code: '200' }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('counts refused payment webhooks by reason', async () => {
    const res = await fetch(`${s.url}/api/Payments/ipn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoiceId: 'x', status: 'paid' }),
    });
    expect(res.status).toBe(401);
    const m = await scrape(s);
    expect(
      m.value('simdock_webhook_failures_total', { direction: 'incoming', reason: 'missing_signature' }),
    ).toBe(1);
    expect(m.value(`${HTTP}_count`, { method: 'POST', route: '/api/Payments/ipn', status_code: '401' })).toBe(
      1,
    );
  });

  it('shows queued messages, then the dispatch to a simulated gateway by outcome', async () => {
    // Bulk SMS go through the simulator only (the seeded gateway has no device behind it).
    await s.db.query('UPDATE gateways SET is_enable = false WHERE id = $1', [gw.id]);
    sim = await GatewaySim.start({ ports: 3, sendDelayMs: 5 });
    const add = await s.api(endpoints.gateway.update, {
      body: {
        gateway: { name: 'metrics sim', url: sim.url, mac: sim.mac, userName: 'root', password: 'root' },
      },
      token: admin,
    });
    expect(add.status).toBe(200);
    expect((await s.api(endpoints.gateway.scan, { body: { id: add.body.id }, token: admin })).status).toBe(
      200,
    );
    await sim.pushesSettled();
    await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 100, MaxMsgPerDay: 1000 },
      token: admin,
    });
    const u = await s.createUser();
    const sent = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: '17005550001\n17005550002\n17005550003', mess: 'Hello from the metrics test' },
      token: u.token,
    });
    expect(sent.status).toBe(200);
    const queued = await scrape(s);
    expect(queued.value('simdock_queue_depth', { queue: 'sms' })).toBe(3);
    // The oldest due message's wait grows with the clock (the alert on stuck queues reads it).
    const waited = queued.value('simdock_queue_oldest_seconds', { queue: 'sms' });
    s.clock.advance(90_000);
    expect((await scrape(s)).value('simdock_queue_oldest_seconds', { queue: 'sms' })).toBe(waited! + 90);
    // The simulator pushes no status while the manual clock jumps: tell the server it is alive.
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE id = $2', [s.clock.now(), add.body.id]);

    const result = await dispatchOnce(s.ctx);
    expect(result).toMatchObject({ claimed: 3, accepted: 3 });
    const m = await scrape(s);
    expect(m.value('simdock_sms_dispatched_total', { outcome: 'accepted' })).toBe(3);
    expect(m.find('simdock_sms_dispatched_total').filter((x) => x.labels.outcome !== 'accepted')).toEqual([]);
    expect(m.value('simdock_queue_depth', { queue: 'sms' })).toBe(0);
    expect(m.value('simdock_queue_oldest_seconds', { queue: 'sms' })).toBe(0);
  });

  it('counts open live streams, and not as request latency', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const one = await openSse(`${s.url}/api/Order/stream`, a.token);
    const two = await openSse(`${s.url}/api/Order/stream`, b.token);
    try {
      expect((await scrape(s)).value('simdock_sse_streams_open')).toBe(2);
      one.close();
      await waitFor(async () => (await scrape(s)).value('simdock_sse_streams_open') === 1);
    } finally {
      one.close();
      two.close();
    }
    await waitFor(async () => (await scrape(s)).value('simdock_sse_streams_open') === 0);
    expect((await scrape(s)).find(`${HTTP}_count`, { route: '/api/Order/stream' })).toEqual([]);
  });

  it('is hidden from the OpenAPI document', async () => {
    const doc = await s.call<{ paths: Record<string, unknown> }>('GET', '/swagger/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.body.paths)).toContain('/api/Order/create');
  });
});

describe('GET /metrics in production', () => {
  let off: TestServer;
  let guarded: TestServer;
  const token = 'scrape-token-0123456789abcdef';

  beforeAll(async () => {
    [off, guarded] = await Promise.all([
      startTestServer({ env: { NODE_ENV: 'production' } }),
      startTestServer({ env: { NODE_ENV: 'production', METRICS_TOKEN: token } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), guarded?.close()]);
  });

  it('is off (404, like a missing route) without METRICS_TOKEN, whatever the caller sends', async () => {
    for (const headers of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
      const res = await fetch(`${off.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 0, error: 'not_found' });
    }
    expect((await fetch(`${off.url}/metrics`, { method: 'HEAD' })).status).toBe(404);
  });

  it('needs Authorization: Bearer <METRICS_TOKEN> when one is set (401 otherwise)', async () => {
    for (const authorization of [
      undefined,
      'Bearer ',
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${token}x`,
      `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
      token,
    ]) {
      const res = await fetch(`${guarded.url}/metrics`, authorization ? { headers: { authorization } } : {});
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = await res.json();
      expect(body).toMatchObject({ code: 0, error: 'unauthorized' });
      expect(JSON.stringify(body)).not.toContain('simdock_');
    }
    const m = await scrape(guarded, token);
    // The refused scrapes were counted, under the route's template.
    expect(m.value(`${HTTP}_count`, { method: 'GET', route: '/metrics', status_code: '401' })).toBe(6);
    expect(m.value('nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
  });
});
