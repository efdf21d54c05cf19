import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, ledgerMismatches, seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';

// Ownership: user B, signed in and with an API key of their own, can never read or change what
// belongs to user A — orders (session, REST API and SMS-Activate handler), payments, campaigns and
// their messages, conversations, MMS media, webhooks and the API key — through the real routes.
// Each refusal is a 404 (B must not even learn the thing exists), and A's data is the same after.

interface Party {
  id: string;
  token: string;
  password: string;
  key: string;
}

let s: TestServer;
let a: Party;
let b: Party;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function party(): Promise<Party> {
  const u = await s.createUser({ balance: 20 });
  const key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
    .apiKey as string;
  expect(key).toBeTruthy();
  return { id: u.id, token: u.token, password: u.password, key };
}

async function v1(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function handler(params: Record<string, string>) {
  const res = await fetch(`${s.url}/stubs/handler_api.php?${new URLSearchParams(params)}`);
  return { status: res.status, text: await res.text() };
}

/** Everything of A's that B might touch, as the database holds it. */
async function snapshotOf(userId: string) {
  const q = <T>(sql: string) => s.db.query<T & Record<string, unknown>>(sql, [userId]);
  return {
    user: await q<object>('SELECT balance::text, status, token_version FROM users WHERE id = $1'),
    key: await q<object>('SELECT * FROM api_keys WHERE user_id = $1'),
    webhooks: await q<object>('SELECT * FROM webhooks WHERE user_id = $1'),
    orders: await q<object>('SELECT id, status, code_text FROM orders WHERE user_id = $1 ORDER BY id'),
    ledger: await q<object>(
      'SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS sum FROM ledger WHERE user_id = $1',
    ),
    messages: await q<object>('SELECT id, status FROM messages WHERE user_id = $1 ORDER BY id'),
  };
}

let orderId: string;
let v1OrderId: string;
let activationId: string;
let paymentId: string;
let campaignId: string;
let conversationId: string;
let mediaName: string;
let webhookId: string;
let aKey: string;

beforeAll(async () => {
  s = await startTestServer({ env: { API_RATE_LIMIT: '100000', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const admin = await s.adminToken();
  await seedGateway(s.db, { sims: 6, lastUpdate: s.clock.now() });
  await addService(s.db, { code: 'tg', name: 'Telegram', price: 1 });
  await addService(s.db, { code: 'wa', name: 'WhatsApp', price: 1 });
  await addService(s.db, { code: 'go', name: 'Google', price: 1 });
  expect(
    (
      await s.api(endpoints.settings.update, {
        body: { MaxBatchSendSms: 100, MaxMsgPerDay: 1000 },
        token: admin,
      })
    ).status,
  ).toBe(200);
  a = await party();
  b = await party();
  aKey = a.key;

  const order = await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: a.token });
  expect(order.status).toBe(200);
  orderId = String(order.body.data.id);
  const viaApi = await v1(a.key, 'POST', '/orders', { service: 'wa' });
  expect(viaApi.status).toBe(200);
  v1OrderId = String((viaApi.body.order as { id: unknown }).id);
  const viaHandler = await handler({ api_key: a.key, action: 'getNumber', service: 'go' });
  expect(viaHandler.text).toMatch(/^ACCESS_NUMBER:/);
  activationId = viaHandler.text.split(':')[1]!;

  const pay = await s.api(endpoints.payment.create, { body: { amount: 10 }, token: a.token });
  expect(pay.status).toBe(200);
  paymentId = pay.body.result.id;

  const sent = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: '16005550101', mess: 'Hello!' },
    token: a.token,
  });
  expect(sent.status).toBe(200);
  campaignId = String(sent.body.data!.campaignId);
  const [msg] = await s.db.query<{ conversation_id: string | null }>(
    'SELECT conversation_id::text AS conversation_id FROM messages WHERE campaign_id = $1::bigint',
    [campaignId],
  );
  conversationId = msg?.conversation_id ?? '';

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
  const up = await fetch(`${s.url}/api/LiveChat/mmsUpload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.token}` },
    body: form,
  });
  expect(up.status).toBe(200);
  mediaName = ((await up.json()) as { fileName: string }).fileName;

  const hook = await s.api(endpoints.webhooks.add, {
    body: { url: 'http://127.0.0.1:9/hook-a' },
    token: a.token,
    headers: await s.reauth(a),
  });
  expect(hook.status).toBe(200);
  webhookId = String(hook.body.webhook.id);
});
afterAll(async () => {
  await s?.close();
});

describe("user B and user A's things", () => {
  let before: Awaited<ReturnType<typeof snapshotOf>>;
  beforeAll(async () => {
    before = await snapshotOf(a.id);
  });

  it('orders: B cannot see, cancel, finish or ask again for any of A’s orders, by any API', async () => {
    for (const id of [orderId, v1OrderId, activationId]) expect(id).toMatch(/^[\w-]+$/);
    expect((await s.api(endpoints.order.getByUser, { token: b.token })).body.orders).toEqual([]);
    const cancel = await s.api(endpoints.order.cancel, { body: { orderId }, token: b.token });
    expect(cancel.status).toBe(404);
    for (const id of [orderId, v1OrderId, activationId]) {
      expect((await v1(b.key, 'GET', `/orders/${id}`)).status, id).toBe(404);
      for (const act of ['cancel', 'finish', 'another-sms'])
        expect((await v1(b.key, 'POST', `/orders/${id}/${act}`)).status, `${act} ${id}`).toBe(404);
    }
    expect((await v1(b.key, 'GET', '/orders')).body).toMatchObject({ orders: [] });
    for (const params of <Record<string, string>[]>[
      { action: 'getStatus', id: activationId },
      { action: 'getStatusV2', id: activationId },
      { action: 'getFullSms', id: activationId },
      { action: 'setStatus', id: activationId, status: '8' },
      { action: 'setStatus', id: activationId, status: '6' },
      { action: 'setStatus', id: activationId, status: '3' },
    ]) {
      const res = await handler({ api_key: b.key, ...params });
      expect(res.text, JSON.stringify(params)).toMatch(/^(NO_ACTIVATION|WRONG_ACTIVATION_ID|BAD_ID)/);
    }
    const active = await handler({ api_key: b.key, action: 'getActiveActivations' });
    expect(active.text).not.toContain(activationId);
  });

  it('payments: B’s history never lists A’s top-up', async () => {
    const history = await fetch(`${s.url}/api/Payments/history`, {
      headers: { authorization: `Bearer ${b.token}` },
    });
    const text = await history.text();
    expect(history.status).toBe(200);
    expect(text).not.toContain(paymentId);
    expect(JSON.parse(text).items).toEqual([]);
  });

  it('campaigns and their messages: B can neither read, list, export nor cancel them', async () => {
    const campaign = await s.api(endpoints.outreach.campaign, { body: { campaignId }, token: b.token });
    expect(campaign.status === 404 || campaign.body.data === null).toBe(true);
    const cancel = await s.api(endpoints.outreach.cancel, { body: { campaignId }, token: b.token });
    expect(cancel.status).toBe(404);
    const query = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 100, params: {} },
      token: b.token,
    });
    expect(query.status).toBe(200);
    expect(JSON.stringify(query.body)).not.toContain('16005550101');
    const exported = await fetch(`${s.url}/api/MassOutreach/exportmsg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await exported.text()).not.toContain('16005550101');
  });

  it('conversations: B can neither list, read, edit nor reply to A’s', async () => {
    expect(conversationId).toMatch(/^\d+$/);
    const list = await s.api(endpoints.livechat.queryConversation, { token: b.token });
    expect(list.body.data.records).toEqual([]);
    expect(
      (await s.api(endpoints.livechat.queryConversationDetail, { body: { conversationId }, token: b.token }))
        .status,
    ).toBe(404);
    const edit = await s.api(endpoints.livechat.updateConversation, {
      body: { conversationId, contactName: 'pwned', note: 'pwned' },
      token: b.token,
    });
    expect(edit.status).toBe(404);
    const reply = await s.api(endpoints.livechat.reply, {
      body: { conversationId, sms: 'hi from B', toNumber: '16005550101' },
      token: b.token,
    });
    expect(reply.status).toBe(404);
    // Nor send A's uploaded media as their own MMS.
    const mms = await s.api(endpoints.livechat.reply, {
      body: { conversationId, sms: '', toNumber: '16005550101', mmsType: 1, mmsFile: mediaName },
      token: b.token,
    });
    expect(mms.status).toBe(404);
  });

  it('media: B cannot fetch A’s MMS file, nor attach it to a message of B’s own', async () => {
    const res = await fetch(`${s.url}/api/media/${mediaName}`, {
      headers: { authorization: `Bearer ${b.token}` },
    });
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    // B's own conversation, A's file.
    const sent = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: '16005550202', mess: 'Hi' },
      token: b.token,
    });
    expect(sent.status).toBe(200);
    const [row] = await s.db.query<{ conversation_id: string }>(
      'SELECT conversation_id::text AS conversation_id FROM messages WHERE campaign_id = $1::bigint',
      [String(sent.body.data!.campaignId)],
    );
    const mms = await s.api(endpoints.livechat.reply, {
      body: {
        conversationId: row!.conversation_id,
        sms: '',
        toNumber: '16005550202',
        mmsType: 1,
        mmsFile: mediaName,
      },
      token: b.token,
    });
    expect(mms.status).toBeGreaterThanOrEqual(400);
    expect(mms.status).toBeLessThan(500);
    const own = await fetch(`${s.url}/api/media/${mediaName}`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(own.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await own.arrayBuffer()), PNG)).toBe(0);
  });

  it('webhooks and the API key: B cannot see, test or delete A’s webhook, and B’s key calls are B’s', async () => {
    const hooks = await s.api(endpoints.webhooks.list, { token: b.token });
    expect(hooks.body.webhooks).toEqual([]);
    expect(webhookId).toMatch(/^[0-9a-f-]{36}$/);
    const test = await s.api(endpoints.webhooks.test, { body: { id: webhookId }, token: b.token });
    expect(test.status).toBe(404);
    const del = await s.api(endpoints.webhooks.delete, { body: { id: webhookId }, token: b.token });
    expect(del.status).toBe(404);
    expect((await s.api(endpoints.webhooks.list, { token: a.token })).body.webhooks).toHaveLength(1);
    // B reads and resets B's key: A's key is untouched and still works.
    const bKey = await s.api(endpoints.apikey.get, { token: b.token });
    expect(bKey.body.apiKey).not.toBe(aKey);
    expect((await s.api(endpoints.apikey.reset, { token: b.token, headers: await s.reauth(b) })).status).toBe(
      200,
    );
    expect((await s.api(endpoints.apikey.delete, { token: b.token })).status).toBe(200);
    expect((await s.api(endpoints.apikey.get, { token: a.token })).body.apiKey).toBe(aKey);
    expect((await v1(aKey, 'GET', '/balance')).status).toBe(200);
    // The balance B's key reports is B's.
    const mine = await s.api(endpoints.user.info, { token: b.token });
    const other = await s.api(endpoints.user.info, { token: a.token });
    expect(mine.body.apiKey ?? null).not.toBe(aKey);
    expect(other.body.apiKey).toBe(aKey);
  });

  it('left A’s orders, money, messages and key exactly as they were', async () => {
    expect(await snapshotOf(a.id)).toEqual(before);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });
});
