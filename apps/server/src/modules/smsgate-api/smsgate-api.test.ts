import { createHmac } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import {
  SmsGateClient as Client,
  HttpError,
  fetchClient as http,
  type Receiver,
  startReceiver,
  WebHookEventType,
} from '@simdock/phone-sim/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { dispatchOnce } from '../messaging/index.ts';
import { deliverDue } from '../webhooks/index.ts';

// A tool made for SMSGate sends through SimDock by changing its base URL: the published
// `android-sms-gateway` npm client, pointed at the real server (a simulated multi-port box sends),
// registers a webhook, sends, reads the state until Delivered and receives the signed webhook.

let s: TestServer;
let sim: GatewaySim;
let receiver: Receiver;
let user: { id: string; username: string; password: string; token: string };
let key: string;
let client: InstanceType<typeof Client>;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', SMS_PER_SIM_PER_MINUTE: '600' } });
  const admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 100, MaxMsgPerDay: 1000 },
    token: admin,
  });
  sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
  await addSimGateway(s, admin, sim, 'smsgate door box');
  receiver = await startReceiver();
  user = await s.createUser({ balance: 5 });
  key = (await s.api(endpoints.apikey.reset, { token: user.token, headers: await s.reauth(user) })).body
    .apiKey;
  client = new Client(user.username, key, http, `${s.url}/3rdparty/v1`);
});
afterAll(async () => {
  await sim.stop();
  await receiver.close();
  await s.close();
});

/** Dispatches and delivers webhooks until `done`. */
async function runUntil(done: () => Promise<boolean>) {
  for (let i = 0; i < 40; i++) {
    await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    await dispatchOnce(s.ctx);
    await sim.pushesSettled();
    await deliverDue(s.ctx);
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
  }
  throw new Error('not done in time');
}

describe('the android-sms-gateway client against SimDock', () => {
  it('registers a webhook, sends, reads the state until Delivered and receives the signed webhook', async () => {
    const hook = await client.registerWebhook({
      url: `${receiver.url}/hook`,
      event: WebHookEventType.SmsDelivered,
    });
    expect(hook).toMatchObject({ url: `${receiver.url}/hook`, event: 'sms:delivered' });
    expect((await client.getWebhooks()).map((w) => w.id)).toContain(hook.id);

    const state = await client.send({
      id: 'order-1234',
      message: 'Your order shipped',
      phoneNumbers: ['+13035557001'],
    });
    expect(state).toMatchObject({
      id: 'order-1234',
      state: 'Pending',
      recipients: [{ phoneNumber: '+13035557001', state: 'Pending' }],
    });
    await runUntil(async () => (await client.getState('order-1234')).state === 'Delivered');
    expect(await client.getState('order-1234')).toMatchObject({
      id: 'order-1234',
      state: 'Delivered',
      recipients: [{ phoneNumber: '+13035557001', state: 'Delivered' }],
    });

    // The delivery report may land after the last delivery pass: the job runs until it is sent.
    const got = await waitFor(async () => {
      await deliverDue(s.ctx);
      return receiver.got.find((g) => g.path === '/hook');
    });
    const body = JSON.parse(got.raw);
    expect(body).toMatchObject({ event: 'sms:delivered', payload: { messageId: 'order-1234' } });
    expect(typeof body.id).toBe('string');
    // Signed as SMSGate signs: hex HMAC-SHA256 over the body followed by X-Timestamp, with the
    // URL's secret (shown on the API Key page).
    const list = await s.api(endpoints.webhooks.list, { token: user.token });
    const secret = list.body.webhooks.find((w: { url: string }) => w.url === `${receiver.url}/hook`)!.secret;
    const ts = String(got.headers['x-timestamp']);
    expect(got.headers['x-signature']).toBe(
      createHmac('sha256', secret!)
        .update(got.raw + ts)
        .digest('hex'),
    );

    await client.deleteWebhook(String(hook.id));
    expect((await client.getWebhooks()).map((w) => w.id)).not.toContain(hook.id);
  });

  it('answers as SMSGate does: 409 for a used id, 404 for an unknown one, 401 for a wrong key or username', async () => {
    await client.send({ id: 'dup-1', message: 'Once', phoneNumbers: ['+13035557002'] });
    const dup = await client
      .send({ id: 'dup-1', message: 'Twice', phoneNumbers: ['+13035557002'] })
      .catch((e) => e);
    expect(dup).toBeInstanceOf(HttpError);
    expect((dup as HttpError).status).toBe(409);
    expect(JSON.parse((dup as HttpError).body)).toMatchObject({
      message: 'message with the same ID already exists',
    });
    const [n] = await s.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM messages WHERE body IN ('Once', 'Twice')",
    );
    expect(n!.n).toBe(1);

    const unknown = await client.getState('no-such-id').catch((e) => e);
    expect((unknown as HttpError).status).toBe(404);
    expect(JSON.parse((unknown as HttpError).body)).toHaveProperty('message');

    const wrongKey = new Client(user.username, 'sd_wrong', http, `${s.url}/3rdparty/v1`);
    expect(((await wrongKey.getState('dup-1').catch((e) => e)) as HttpError).status).toBe(401);
    const wrongUser = new Client('somebody-else', key, http, `${s.url}/3rdparty/v1`);
    expect(((await wrongUser.getState('dup-1').catch((e) => e)) as HttpError).status).toBe(401);

    const bad = await client.send({ message: 'x', phoneNumbers: ['123'] }).catch((e) => e);
    expect((bad as HttpError).status).toBe(400);
    expect(JSON.parse((bad as HttpError).body).message).toContain('Invalid numbers');
    const ping = await client
      .registerWebhook({ url: `${receiver.url}/ping`, event: WebHookEventType.SystemPing })
      .catch((e) => e);
    expect((ping as HttpError).status).toBe(400);
    expect(await client.getHealth()).toMatchObject({ status: 'pass' });
  });
});

describe('input rules', () => {
  it('a NUL in an id (path or body) or a webhook field is a 400 in SMSGate’s shape, never a 500', async () => {
    const auth = `Basic ${Buffer.from(`${user.username}:${key}`).toString('base64')}`;
    const cases: [string, string, unknown?][] = [
      ['GET', '/3rdparty/v1/message/%00'],
      ['GET', '/3rdparty/v1/messages/a%00b'],
      ['DELETE', '/3rdparty/v1/webhooks/%00'],
      ['POST', '/3rdparty/v1/message', { id: 'a\u0000', message: 'x', phoneNumbers: ['+13035557001'] }],
      ['POST', '/3rdparty/v1/messages', { id: '\u0000', message: 'x', phoneNumbers: ['+13035557001'] }],
      ['POST', '/3rdparty/v1/webhooks', { id: 'a\u0000', url: `${receiver.url}/x`, event: 'sms:sent' }],
      ['POST', '/3rdparty/v1/webhooks', { url: `${receiver.url}/x\u0000`, event: 'sms:sent' }],
      ['POST', '/3rdparty/v1/webhooks', { url: `${receiver.url}/x`, event: 'sms:sent', deviceId: '\u0000' }],
    ];
    const logged = s.logs.length;
    for (const [method, path, body] of cases) {
      const res = await fetch(`${s.url}${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect([res.status, path, body]).toEqual([400, path, body]);
      expect((await res.json()).message).toMatch(/NUL/);
    }
    expect(s.logs.slice(logged).some((l) => l.includes('"level":50'))).toBe(false);
    expect((await client.getWebhooks()).some((w) => w.url.startsWith(`${receiver.url}/x`))).toBe(false);
  });
});

describe('scopes', () => {
  it('a messaging:read key lists webhooks but cannot register or delete one (403); messaging:send can', async () => {
    const keyWith = async (scope: string) =>
      (
        await s.api(endpoints.apikey.createKey, {
          rawBody: { name: scope, scopes: [scope] },
          token: user.token,
          headers: await s.reauth(user),
        })
      ).body.apiKey as string;
    const reader = new Client(user.username, await keyWith('messaging:read'), http, `${s.url}/3rdparty/v1`);
    const writer = new Client(user.username, await keyWith('messaging:send'), http, `${s.url}/3rdparty/v1`);
    const url = `${receiver.url}/scoped`;
    const refused = await reader
      .registerWebhook({ url, event: WebHookEventType.SmsReceived })
      .catch((e) => e);
    expect((refused as HttpError).status).toBe(403);
    expect(JSON.parse((refused as HttpError).body).message).toMatch(/messaging:send/);
    expect((await client.getWebhooks()).some((w) => w.url === url)).toBe(false);

    const hook = await writer.registerWebhook({ url, event: WebHookEventType.SmsReceived });
    expect((await reader.getWebhooks()).map((w) => w.id)).toContain(hook.id);
    const notDeleted = await reader.deleteWebhook(String(hook.id)).catch((e) => e);
    expect((notDeleted as HttpError).status).toBe(403);
    expect((await reader.getWebhooks()).map((w) => w.id)).toContain(hook.id);
    await writer.deleteWebhook(String(hook.id));
    expect((await reader.getWebhooks()).map((w) => w.id)).not.toContain(hook.id);
  });
});
