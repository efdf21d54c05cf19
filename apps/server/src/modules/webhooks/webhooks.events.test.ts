import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints, WEBHOOK_MAX_TRIES, WEBHOOK_RETRY_DELAYS_S } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SendResult } from '../../context.ts';
import { addSimGateway, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { dispatchOnce } from '../messaging/index.ts';
import { addWebhookFor, deliverDue, listWebhooksOf, removeWebhookOf } from './webhooks.service.ts';

// Messaging events on webhooks, end to end: a simulated gateway sends (and reports) the messages,
// a local receiver takes the POSTs. Each event with its body, per-URL events, per-message order
// under retries, one event id across retries and a redelivery, one `campaign.finished`, the
// redeliver ownership, and SMSGate's format with its signature.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver; `plan` says what status each next request gets (default 200). */
class Receiver {
  received: Received[] = [];
  plan: number[] = [];
  private server!: Server;
  base = '';
  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body });
        res.writeHead(this.plan.shift() ?? 200).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  url(path: string) {
    return `${this.base}/${path}`;
  }
  at(path: string) {
    return this.received.filter((r) => r.path === `/${path}`);
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

let s: TestServer;
let admin: string;
let rx: Receiver;
let sim: GatewaySim;
let gatewayId: string;

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  rx = new Receiver();
  await rx.start();
  sim = await GatewaySim.start({ ports: 4, sendDelayMs: 5, dlrDelayMs: 5 });
  gatewayId = await addSimGateway(s, admin, sim, 'webhook events');
});
beforeEach(async () => {
  rx.received = [];
  rx.plan = [];
  sim.setOutcome(() => 'ok');
  // The tests move the clock far ahead: the gateway is online as of now.
  await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gatewayId, s.clock.now()]);
});
afterEach(async () => {
  await sim.setFaults({ dropPushes: false });
  // Deliveries a test left pending do not reach the next one.
  await s.db.query(`UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending'`);
});
afterAll(async () => {
  await sim.stop();
  await rx.stop();
  await s.close();
});

/** A background job of the server, run once now (through the registry, as the workers do). */
async function runJob(name: string) {
  const job = s.ctx.registry.jobs.find((j) => j.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run(s.ctx);
}
const failOverdueResults = () => runJob('messaging-result-timeout');

/** A device's send results, handed to the report consumers as a push would. */
async function report(results: SendResult[]) {
  for (const consume of s.ctx.registry.reportConsumers) await consume(s.ctx, gatewayId, results);
}

let numberSeq = 16005550000;
const fresh = (n: number) => Array.from({ length: n }, () => String(++numberSeq));

async function send(token: string, numbers: string[], mess = 'Spring sale') {
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess },
    token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.data!.campaignId);
}

type Row = { id: string; recipient: string; status: string; port: string | null; tid: number | null };
const rowsOf = (campaignId: string) =>
  s.db.query<Row>(
    'SELECT id::text AS id, recipient, status, port, tid FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
    [campaignId],
  );

/** Dispatcher ticks (a second apart) until every message of the campaign ended. */
async function runUntilDone(campaignId: string): Promise<Row[]> {
  for (let i = 0; i < 60; i++) {
    await dispatchOnce(s.ctx);
    await sim.pushesSettled();
    const rows = await rowsOf(campaignId);
    if (rows.every((r) => ['delivered', 'failed', 'cancelled'].includes(r.status))) return rows;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
  }
  throw new Error(`campaign ${campaignId} did not end: ${JSON.stringify(await rowsOf(campaignId))}`);
}

/** Runs the delivery job until nothing is due now. */
async function deliverAll() {
  while ((await deliverDue(s.ctx)) > 0) {
    // more may have become due (a later event of a message that just went out)
  }
}

async function addHook(user: { token: string; password: string }, path: string, events?: string[]) {
  const res = await s.api(endpoints.webhooks.add, {
    rawBody: { url: rx.url(path), ...(events ? { events } : {}) },
    token: user.token,
    headers: await s.reauth(user),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.webhook as { id: string; secret: string; events: string[]; format: string };
}

const bodies = (list: Received[]) => list.map((r) => JSON.parse(r.body));
const signature = (secret: string, r: Received) =>
  `sha256=${createHmac('sha256', secret).update(`${r.headers['x-simdock-timestamp']}.${r.body}`).digest('hex')}`;

describe('messaging events', () => {
  it('each event arrives with its body: sent, delivered, failed (once, after the retries), received, campaign.finished', async () => {
    const u = await s.createUser();
    const hook = await addHook(u, 'all');
    expect(hook.events).toEqual([
      'code.received',
      'message.received',
      'message.sent',
      'message.delivered',
      'message.failed',
      'campaign.finished',
    ]);
    expect(hook.format).toBe('simdock');
    const [ok, doomed] = fresh(2);
    // The doomed number fails on every SIM: retried on others, then failed for good.
    sim.setOutcome(({ to }) => (to === doomed ? 'fail' : 'ok'));
    const campaignId = await send(u.token, [ok!, doomed!], 'Hello there');
    const rows = await runUntilDone(campaignId);
    const okRow = rows.find((r) => r.recipient === ok)!;
    const doomedRow = rows.find((r) => r.recipient === doomed)!;
    expect([okRow.status, doomedRow.status]).toEqual(['delivered', 'failed']);

    // The recipient answers the SIM that wrote to them.
    s.clock.advance(1000);
    sim.injectSms({ port: okRow.port!, from: `+${ok}`, text: 'Who is this?' });
    await sim.pushesSettled();
    await waitFor(async () => {
      const r = await s.db.query('SELECT 1 FROM conversation_replies WHERE user_id = $1', [u.id]);
      return r.length > 0;
    });
    await deliverAll();

    const got = bodies(rx.at('all'));
    const of = (event: string, messageId?: string) =>
      got.filter((b) => b.event === event && (messageId === undefined || b.data.messageId === messageId));
    expect(of('message.sent', `o${okRow.id}`)).toHaveLength(1);
    expect(of('message.delivered', `o${okRow.id}`)).toHaveLength(1);
    // Sent three times (three SIMs), failed once: one `message.sent`, one `message.failed`.
    expect(of('message.sent', `o${doomedRow.id}`)).toHaveLength(1);
    expect(of('message.failed')).toHaveLength(1);
    expect(of('campaign.finished')).toHaveLength(1);
    expect(of('message.received')).toHaveLength(1);
    expect(got).toHaveLength(6);

    const [conv] = await s.db.query<{ id: string }>(
      'SELECT id::text AS id FROM conversations WHERE user_id = $1 AND receiver = $2',
      [u.id, ok],
    );
    const delivered = of('message.delivered')[0];
    expect(delivered).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      event: 'message.delivered',
      createdAt: expect.any(String),
      data: {
        messageId: `o${okRow.id}`,
        campaignId,
        campaignRef: null,
        conversationId: conv!.id,
        direction: 'out',
        phoneNumber: ok,
        simNumber: null,
        text: 'Hello there',
        status: 'delivered',
        reason: null,
      },
    });
    expect(of('message.failed')[0].data).toMatchObject({
      messageId: `o${doomedRow.id}`,
      status: 'failed',
      reason: '6 Timeout; 21 Short message transfer rejected',
    });
    expect(of('campaign.finished')[0].data).toEqual({
      campaignId,
      campaignRef: null,
      delivered: 1,
      failed: 1,
      cancelled: 0,
    });
    const [reply] = await s.db.query<{ id: string }>(
      'SELECT id::text AS id FROM conversation_replies WHERE user_id = $1',
      [u.id],
    );
    const [simRow] = await s.db.query<{ number: string }>(
      'SELECT number FROM sims WHERE gateway_id = $1 AND port = $2',
      [gatewayId, okRow.port],
    );
    expect(of('message.received')[0].data).toEqual({
      messageId: `i${reply!.id}`,
      campaignId: null,
      campaignRef: null,
      conversationId: conv!.id,
      direction: 'in',
      phoneNumber: ok,
      simNumber: simRow!.number,
      text: 'Who is this?',
      status: 'received',
      reason: null,
    });
    // Per message, in order: sent before delivered.
    const order = got.map((b) => `${b.event}:${b.data.messageId ?? ''}`);
    expect(order.indexOf(`message.sent:o${okRow.id}`)).toBeLessThan(
      order.indexOf(`message.delivered:o${okRow.id}`),
    );
    for (const r of rx.at('all')) {
      expect(r.headers['x-simdock-signature']).toBe(signature(hook.secret, r));
      expect(r.headers['x-simdock-event']).toBe(JSON.parse(r.body).event);
      expect(r.headers['x-simdock-event-id']).toBe(JSON.parse(r.body).id);
    }
    // The delivery log shows the event ids.
    const log = (await s.api(endpoints.webhooks.deliveries, { token: u.token })).body.deliveries;
    expect(log).toHaveLength(6);
    expect(log.map((d: { eventId: string }) => d.eventId).sort()).toEqual(got.map((b) => b.id).sort());
  });

  it('each URL receives the events it chose; the choice can be changed; the test event goes to every URL', async () => {
    const u = await s.createUser();
    const a = await addHook(u, 'a', ['message.delivered']);
    const b = await addHook(u, 'b', ['campaign.finished', 'message.received']);
    expect(a.events).toEqual(['message.delivered']);
    expect(b.events).toEqual(['message.received', 'campaign.finished']);
    await runUntilDone(await send(u.token, fresh(1)));
    await deliverAll();
    expect(bodies(rx.at('a')).map((x) => x.event)).toEqual(['message.delivered']);
    expect(bodies(rx.at('b')).map((x) => x.event)).toEqual(['campaign.finished']);

    const changed = await s.api(endpoints.webhooks.events, {
      body: { id: a.id, events: ['message.sent', 'message.sent'] },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.webhook.events).toEqual(['message.sent']);
    rx.received = [];
    await runUntilDone(await send(u.token, fresh(1)));
    await deliverAll();
    expect(bodies(rx.at('a')).map((x) => x.event)).toEqual(['message.sent']);
    const listed = (await s.api(endpoints.webhooks.list, { token: u.token })).body.webhooks;
    expect(listed.find((w: { id: string }) => w.id === a.id)!.events).toEqual(['message.sent']);

    // The rental's event is `code.received`; its earlier name `sms-incoming` is still accepted (kept
    // and answered by the new name, once even when both are given).
    const renamed = await s.api(endpoints.webhooks.events, {
      body: { id: a.id, events: ['sms-incoming', 'message.sent', 'code.received'] },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.webhook.events).toEqual(['code.received', 'message.sent']);
    const old = await addHook(u, 'old-name', ['sms-incoming']);
    expect(old.events).toEqual(['code.received']);

    // Refused: no event, an unknown one, another user's URL.
    expect(
      (
        await s.api(endpoints.webhooks.events, {
          body: { id: a.id, events: [] },
          token: u.token,
          headers: await s.reauth(u),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await s.api(endpoints.webhooks.events, {
          rawBody: { id: a.id, events: ['sms:sent'] },
          token: u.token,
          headers: await s.reauth(u),
        })
      ).status,
    ).toBe(400);
    const other = await s.createUser();
    const stranger = await s.api(endpoints.webhooks.events, {
      body: { id: a.id, events: ['message.sent'] },
      token: other.token,
      headers: await s.reauth(other),
    });
    expect(stranger.status).toBe(404);

    rx.received = [];
    const test = await s.api(endpoints.webhooks.test, { token: u.token });
    expect(test.body.msg).toBe('Test event delivered to 3 of 3 URLs.');
    expect(rx.received.map((r) => JSON.parse(r.body).event)).toEqual(['test', 'test', 'test']);
  });

  it('one message’s events go out in order: its `delivered` waits while its `sent` is retried', async () => {
    const u = await s.createUser();
    const hook = await addHook(u, 'ordered', ['message.sent', 'message.delivered']);
    // Reports are held back so that the `sent` delivery is queued (and failing) before `delivered`.
    await sim.setFaults({ dropPushes: true });
    const campaignId = await send(u.token, fresh(1));
    await dispatchOnce(s.ctx);
    const [row] = await rowsOf(campaignId);
    expect(row!.status).toBe('sent');
    rx.plan = [500, 503, 500];
    expect(await deliverDue(s.ctx)).toBe(1);

    // The device's report: delivered. Its delivery is due now but waits for the retried `sent`.
    await report([
      { tid: row!.tid!, outcome: 'delivered', number: row!.recipient, port: row!.port!, deviceText: '' },
    ]);
    expect(await deliverDue(s.ctx)).toBe(0);
    for (const delay of WEBHOOK_RETRY_DELAYS_S.slice(0, 3)) {
      s.clock.advance(delay * 1000);
      // Only the `sent` is tried; the `delivered` goes once `sent` got through.
      await deliverAll();
    }
    const seen = rx.at('ordered');
    expect(seen.map((r) => r.headers['x-simdock-event'])).toEqual([
      'message.sent',
      'message.sent',
      'message.sent',
      'message.sent',
      'message.delivered',
    ]);
    // De-duplication: every try of the `sent` carries the same event id (and delivery id).
    const sentTries = seen.slice(0, 4);
    expect(new Set(sentTries.map((r) => r.headers['x-simdock-event-id'])).size).toBe(1);
    expect(new Set(sentTries.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    expect(new Set(sentTries.map((r) => r.headers['x-simdock-delivery'])).size).toBe(1);
    expect(sentTries[0]!.headers['x-simdock-event-id']).not.toBe(seen[4]!.headers['x-simdock-event-id']);

    // A redelivery: a new delivery, the same event id and body.
    const log = (await s.api(endpoints.webhooks.deliveries, { token: u.token })).body.deliveries;
    const sentDelivery = log.find((d: { event: string }) => d.event === 'message.sent');
    expect(sentDelivery).toMatchObject({ status: 'delivered', attempts: 4 });
    rx.received = [];
    const again = await s.api(endpoints.webhooks.redeliver, {
      body: { id: sentDelivery!.id },
      token: u.token,
    });
    expect(again.status).toBe(200);
    expect(again.body.msg).toBe('Delivered again.');
    expect(again.body.deliveries).toMatchObject([
      { event: 'message.sent', eventId: sentDelivery!.eventId, status: 'delivered', attempts: 1 },
    ]);
    expect(again.body.deliveries[0]!.id).not.toBe(sentDelivery!.id);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.headers['x-simdock-event-id']).toBe(sentDelivery!.eventId);
    expect(rx.received[0]!.body).toBe(sentTries[0]!.body);
    expect(rx.received[0]!.headers['x-simdock-signature']).toBe(signature(hook.secret, rx.received[0]!));
  });

  it('an earlier event that failed for good no longer holds the later ones', async () => {
    const u = await s.createUser();
    await addHook(u, 'giveup', ['message.sent', 'message.failed']);
    await sim.setFaults({ dropPushes: true });
    const campaignId = await send(u.token, fresh(1));
    await dispatchOnce(s.ctx);
    rx.plan = Array.from({ length: WEBHOOK_MAX_TRIES }, () => 500);
    expect(await deliverDue(s.ctx)).toBe(1);
    // No result in time: the message fails; its `failed` waits for the `sent` being retried.
    s.clock.advance(31 * 60_000);
    await failOverdueResults();
    expect((await rowsOf(campaignId))[0]!.status).toBe('failed');
    for (const delay of WEBHOOK_RETRY_DELAYS_S) {
      const before = rx.at('giveup').length;
      await deliverAll();
      if (rx.at('giveup').length > before) {
        expect(rx.at('giveup').at(-1)!.headers['x-simdock-event']).toBe('message.sent');
      }
      s.clock.advance(delay * 1000);
    }
    await deliverAll();
    const events = rx.at('giveup').map((r) => r.headers['x-simdock-event']);
    expect(events).toEqual([
      ...Array.from({ length: WEBHOOK_MAX_TRIES }, () => 'message.sent'),
      'message.failed',
    ]);
  });

  it('campaign.finished once, with reports processed at the same time; a cancelled message is not failed', async () => {
    const u = await s.createUser();
    await addHook(u, 'finish', ['campaign.finished', 'message.failed']);
    await sim.setFaults({ dropPushes: true });
    const campaigns: string[] = [];
    for (let i = 0; i < 3; i++) campaigns.push(await send(u.token, fresh(4)));
    for (let i = 0; i < 10; i++) {
      await dispatchOnce(s.ctx);
      s.clock.advance(1000);
      const all = (await Promise.all(campaigns.map(rowsOf))).flat();
      if (all.every((r) => r.status === 'sent')) break;
    }
    // Every message's report in its own transaction, all at once (several connections on PostgreSQL).
    const rows = (await Promise.all(campaigns.map(rowsOf))).flat();
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    await Promise.all(
      rows.map((r) =>
        report([{ tid: r.tid!, outcome: 'delivered', number: r.recipient, port: r.port!, deviceText: '' }]),
      ),
    );
    // Each campaign ended in the transaction of its last report (none left for the catch-up job).
    const finishedCount = async () =>
      (
        await s.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1 AND event = 'campaign.finished'`,
          [u.id],
        )
      )[0]!.n;
    expect(await finishedCount()).toBe(3);
    // The same reports again, the catch-up job and the timeout change nothing.
    await report(
      rows.map((r) => ({
        tid: r.tid!,
        outcome: 'delivered' as const,
        number: r.recipient,
        port: r.port!,
        deviceText: '',
      })),
    );
    await runJob('messaging-campaign-finish');
    await failOverdueResults();
    expect(await finishedCount()).toBe(3);
    await deliverAll();
    const got = bodies(rx.at('finish'));
    expect(got.map((b) => b.data.campaignId).sort()).toEqual([...campaigns].sort());
    expect(got.every((b) => b.data.delivered === 4 && b.data.failed === 0)).toBe(true);

    // A campaign cancelled before any device took it: finished (cancelled 3), no `message.failed`.
    await s.db.query('UPDATE gateways SET is_enable = false WHERE id = $1', [gatewayId]);
    rx.received = [];
    try {
      const c = await send(u.token, fresh(3));
      const cancel = await s.api(endpoints.outreach.cancel, { body: { campaignId: c }, token: u.token });
      expect(cancel.body.data.cancelled).toBe(3);
      await deliverAll();
      expect(bodies(rx.at('finish'))).toMatchObject([
        { event: 'campaign.finished', data: { campaignId: c, delivered: 0, failed: 0, cancelled: 3 } },
      ]);
    } finally {
      await s.db.query('UPDATE gateways SET is_enable = true WHERE id = $1', [gatewayId]);
    }
  });

  it('redelivers only the caller’s own deliveries', async () => {
    const u = await s.createUser();
    await addHook(u, 'mine');
    await s.api(endpoints.webhooks.test, { token: u.token });
    const [d] = (await s.api(endpoints.webhooks.deliveries, { token: u.token })).body.deliveries;
    const other = await s.createUser();
    expect(
      (await s.api(endpoints.webhooks.redeliver, { body: { id: d!.id }, token: other.token })).status,
    ).toBe(404);
    expect((await s.api(endpoints.webhooks.redeliver, { body: { id: 'x1' }, token: u.token })).status).toBe(
      404,
    );
    expect(
      (await s.api(endpoints.webhooks.redeliver, { body: { id: '999999999' }, token: u.token })).status,
    ).toBe(404);
    rx.received = [];
    rx.plan = [500];
    const failed = await s.api(endpoints.webhooks.redeliver, { body: { id: d!.id }, token: u.token });
    expect(failed.status).toBe(200);
    expect(failed.body.msg).toBe('Not delivered: HTTP 500.');
    expect(failed.body.deliveries[0]).toMatchObject({ eventId: d!.eventId, status: 'failed', attempts: 1 });
    // One try: a failed redelivery is not retried.
    s.clock.advance(3600_000);
    expect(await deliverDue(s.ctx)).toBe(0);
    expect(rx.received).toHaveLength(1);
  });
});

describe('SMSGate format', () => {
  it('a program’s webhook gets SMSGate bodies signed over body + X-Timestamp; campaign.finished is not sent', async () => {
    const u = await s.createUser();
    const hook = await addWebhookFor(s.ctx, u.id, {
      url: rx.url('gate'),
      format: 'smsgate',
      events: ['message.sent', 'message.delivered'],
      id: 'my-hook-1',
    });
    expect(hook).toMatchObject({
      clientId: 'my-hook-1',
      format: 'smsgate',
      events: ['message.sent', 'message.delivered'],
    });
    await expect(
      addWebhookFor(s.ctx, u.id, { url: rx.url('gate'), format: 'smsgate', events: ['campaign.finished'] }),
    ).rejects.toMatchObject({ code: 'bad_input' });
    // Registered again under its id: replaced, not added.
    const again = await addWebhookFor(s.ctx, u.id, {
      url: rx.url('gate'),
      format: 'smsgate',
      events: ['message.sent', 'message.delivered', 'message.failed'],
      id: 'my-hook-1',
      // SMSGate signs with one key per phone: the program gives it.
      secret: 'phone-key-1',
    });
    expect(again.id).toBe(hook.id);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(again.secret).toBe('phone-key-1');
    // One URL may take several of a program's webhooks (SMSGate registers one per event).
    await addWebhookFor(s.ctx, u.id, {
      url: rx.url('gate'),
      format: 'smsgate',
      events: ['message.received'],
      id: 'rx',
    });
    expect((await listWebhooksOf(s.ctx, u.id)).map((w) => w.clientId).sort()).toEqual(['my-hook-1', 'rx']);

    const [number] = fresh(1);
    const campaignId = await send(u.token, [number!], 'Your order shipped');
    await s.db.query(`UPDATE campaigns SET client_ref = 'order-77' WHERE id = $1::bigint`, [campaignId]);
    await runUntilDone(campaignId);
    await deliverAll();
    const got = rx.at('gate');
    expect(got.map((r) => JSON.parse(r.body).event)).toEqual(['sms:sent', 'sms:delivered']);
    const ts = Math.floor(s.clock.now().getTime() / 1000);
    for (const r of got) {
      expect(r.headers['x-timestamp']).toBe(String(ts));
      expect(r.headers['x-signature']).toBe(
        createHmac('sha256', 'phone-key-1')
          .update(r.body + r.headers['x-timestamp'])
          .digest('hex'),
      );
      expect(r.headers['x-signature']).not.toBe(
        createHmac('sha256', 'wrong')
          .update(r.body + r.headers['x-timestamp'])
          .digest('hex'),
      );
      expect(r.headers['x-simdock-signature']).toBeUndefined();
    }
    const [sent, delivered] = got.map((r) => JSON.parse(r.body));
    expect(sent).toEqual({
      deviceId: 'simdock',
      event: 'sms:sent',
      id: expect.stringMatching(/^evt_/),
      webhookId: 'my-hook-1',
      payload: {
        messageId: 'order-77',
        sender: null,
        recipient: `+${number}`,
        phoneNumber: `+${number}`,
        simNumber: null,
        partsCount: 1,
        sentAt: expect.any(String),
      },
    });
    expect(delivered.payload).toMatchObject({ messageId: 'order-77', deliveredAt: expect.any(String) });
    expect(delivered.id).not.toBe(sent.id);
    // The same event in both formats has the same id.
    const [row] = await s.db.query<{ event_id: string }>(
      `SELECT event_id FROM webhook_deliveries WHERE user_id = $1 AND event = 'message.sent'`,
      [u.id],
    );
    expect(sent.id).toBe(row!.event_id);

    // The test event reaches every URL; SMSGate's is a system:ping.
    rx.received = [];
    await s.api(endpoints.webhooks.test, { body: { id: hook.id }, token: u.token });
    expect(JSON.parse(rx.received[0]!.body)).toMatchObject({
      event: 'system:ping',
      webhookId: 'my-hook-1',
      payload: { health: { status: 'pass' } },
    });

    expect(await removeWebhookOf(s.ctx, u.id, 'my-hook-1')).toBe(true);
    expect(await removeWebhookOf(s.ctx, u.id, 'my-hook-1')).toBe(false);
    const other = await s.createUser();
    expect(await removeWebhookOf(s.ctx, other.id, 'rx')).toBe(false);
    expect((await listWebhooksOf(s.ctx, u.id)).map((w) => w.clientId)).toEqual(['rx']);
  });

  it('event ids of logged deliveries (migration 020) are made as the server makes them', async () => {
    const { eventIdOf } = await import('./events.ts');
    const ref = 'order_code:42:0f0e0d0c-0000-4000-8000-000000000001';
    const [row] = await s.db.query<{ id: string }>(
      `SELECT 'evt_' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 24) AS id`,
      [ref],
    );
    expect(row!.id).toBe(eventIdOf(ref));
  });
});
