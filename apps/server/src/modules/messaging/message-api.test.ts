import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, ledgerMismatches, userWithApiKey, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { PNG } from '../../test/media.ts';
import { dispatchUntil } from '../../test/suites.ts';
import { dispatchOnce } from './dispatch.service.ts';

// The messaging API for programs against a simulated gateway over the real protocol: sending with
// the sending page's rules and prices, idempotent retries (one after another and in parallel),
// reading sent and received messages back, conversations, SIM choice, scheduling, cancel, media,
// and one user never seeing another's messages.

let s: TestServer;
let sim: GatewaySim;
let admin: string;

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '600' } });
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 20, MaxMsgPerDay: 1000, SmsPricePerSegment: 0.01, MmsPrice: 0.05 },
    token: admin,
  });
  sim = await GatewaySim.start({ ports: 4, sendDelayMs: 5 });
  await addSimGateway(s, admin, sim, 'api box');
});
afterAll(async () => {
  await sim.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s.close();
});

const programUser = (balance = 5) => userWithApiKey(s, balance);

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field.
type Json = any;
async function api(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${s.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Ticks the dispatcher until the messages are final (or `done` says so). */
const runUntil = (done: () => Promise<boolean>, ticks = 40) => dispatchUntil({ s, sim }, done, ticks);

let numberSeq = 13035550000;
const nextNumber = () => String(++numberSeq);

describe('POST /api/v1/messages', () => {
  it('sends to one or more numbers with the page’s rules and prices, and reads them back until delivered', async () => {
    const u = await programUser();
    const a = nextNumber();
    const b = nextNumber();
    const res = await api(u.key, 'POST', '/messages', {
      to: [a, `+1 (${b.slice(1, 4)}) ${b.slice(4, 7)}-${b.slice(7)}`, a],
      text: 'Hello from a program',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      duplicatesRemoved: 1,
      skippedOptOut: 0,
      cost: '0.02',
      balance: '4.98',
      repeated: false,
    });
    expect(res.body.messages).toHaveLength(2);
    expect(res.body.messages[0]).toMatchObject({
      direction: 'out',
      status: 'queued',
      phoneNumber: a,
      text: 'Hello from a program',
      segments: 1,
      cost: '0.01',
      campaignId: res.body.campaignId,
    });
    const id = res.body.messages[0].id as string;
    expect(id).toMatch(/^o\d+$/);
    await runUntil(
      async () => (await api(u.key, 'GET', `/messages/${id}`)).body.message.status === 'delivered',
    );
    const one = await api(u.key, 'GET', `/messages/${id}`);
    expect(one.body.message).toMatchObject({ id, status: 'delivered', phoneNumber: a });
    expect(one.body.message.sentAt).not.toBeNull();
    expect(one.body.message.simId).not.toBeNull();

    // Refusals in the existing error shape.
    const bad = await api(u.key, 'POST', '/messages', { to: ['123'], text: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 0, error: 'bad_input', field: 'to' });
    expect(bad.body.msg).toContain('Invalid numbers');
    const empty = await api(u.key, 'POST', '/messages', { to: a, text: '  ' });
    expect(empty.status).toBe(400);
    const many = await api(u.key, 'POST', '/messages', {
      to: Array.from({ length: 21 }, nextNumber),
      text: 'too many',
    });
    expect(many.status).toBe(400);
    expect(many.body.msg).toContain('Limit is 20');
    const poor = await programUser(0);
    const broke = await api(poor.key, 'POST', '/messages', { to: nextNumber(), text: 'no money' });
    expect(broke.status).toBe(402);
    expect(broke.body.error).toBe('balance_too_low');
  });

  it('an Idempotency-Key sends once: a retry and parallel twins answer the first send', async () => {
    const u = await programUser();
    const to = nextNumber();
    const headers = { 'idempotency-key': `retry-${to}` };
    const first = await api(u.key, 'POST', '/messages', { to, text: 'Once only' }, headers);
    expect(first.status).toBe(200);
    const again = await api(u.key, 'POST', '/messages', { to, text: 'Once only' }, headers);
    expect(again.body).toMatchObject({ campaignId: first.body.campaignId, repeated: true });
    expect(again.body.messages.map((m: Json) => m.id)).toEqual(first.body.messages.map((m: Json) => m.id));

    const twinsKey = { 'idempotency-key': `twins-${to}` };
    const twins = await Promise.all(
      Array.from({ length: 5 }, () => api(u.key, 'POST', '/messages', { to, text: 'Parallel' }, twinsKey)),
    );
    expect(twins.every((t) => t.status === 200)).toBe(true);
    expect(new Set(twins.map((t) => t.body.campaignId)).size).toBe(1);
    expect(twins.filter((t) => !t.body.repeated)).toHaveLength(1);
    const [n] = await s.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM messages WHERE user_id = $1 AND body = 'Parallel'",
      [u.id],
    );
    expect(n!.n).toBe(1);
    // Charged once: two sends of one message each.
    const info = await s.api(endpoints.user.info, { token: u.token });
    expect(info.body.balance).toBe(4.98);
  });

  it('pins a send to a chosen SIM, schedules one, cancels a queued one with its cost back', async () => {
    const u = await programUser();
    const sims = await api(u.key, 'GET', '/sims');
    expect(sims.status).toBe(200);
    expect(sims.body.sims.length).toBe(4);
    expect(sims.body.sims[0]).toMatchObject({ gateway: 'api box', ready: true, mms: true });
    const chosen = sims.body.sims[2];
    const pinned = await api(u.key, 'POST', '/messages', {
      to: [nextNumber(), nextNumber()],
      text: 'Pinned',
      simId: chosen.id,
    });
    expect(pinned.status).toBe(200);
    const ids = pinned.body.messages.map((m: Json) => m.id);
    await runUntil(async () => {
      const all = await Promise.all(ids.map((id: string) => api(u.key, 'GET', `/messages/${id}`)));
      return all.every((r) => r.body.message.status === 'delivered');
    });
    for (const id of ids)
      expect((await api(u.key, 'GET', `/messages/${id}`)).body.message.simId).toBe(chosen.id);
    const unknown = await api(u.key, 'POST', '/messages', {
      to: nextNumber(),
      text: 'x',
      simId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('sim_not_found');

    const later = new Date(s.clock.now().getTime() + 3600_000).toISOString();
    const scheduled = await api(u.key, 'POST', '/messages', {
      to: nextNumber(),
      text: 'Later',
      sendAt: later,
    });
    const sid = scheduled.body.messages[0].id;
    expect(scheduled.body.messages[0].sendAt).toBe(later);
    await dispatchOnce(s.ctx);
    expect((await api(u.key, 'GET', `/messages/${sid}`)).body.message.status).toBe('queued');
    const tooFar = await api(u.key, 'POST', '/messages', {
      to: nextNumber(),
      text: 'x',
      sendAt: new Date(s.clock.now().getTime() + 31 * 24 * 3600_000).toISOString(),
    });
    expect(tooFar.status).toBe(400);

    const before = (await s.api(endpoints.user.info, { token: u.token })).body.balance;
    const cancelled = await api(u.key, 'POST', `/messages/${sid}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toMatchObject({ id: sid, status: 'cancelled', refunded: true });
    expect((await s.api(endpoints.user.info, { token: u.token })).body.balance).toBeCloseTo(before + 0.01, 6);
    const twice = await api(u.key, 'POST', `/messages/${sid}/cancel`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('message_not_cancellable');
  });

  it('sends an uploaded file as an MMS at the MMS price', async () => {
    const u = await programUser();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cat.png');
    const up = await fetch(`${s.url}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.key}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const media = (await up.json()) as { mediaId: string; contentType: string };
    expect(media.contentType).toBe('image/png');
    const sent = await api(u.key, 'POST', '/messages', {
      to: nextNumber(),
      text: '',
      mediaId: media.mediaId,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.messages[0]).toMatchObject({ mediaId: media.mediaId, cost: '0.05', segments: 1 });
    const other = await programUser();
    const stolen = await api(other.key, 'POST', '/messages', {
      to: nextNumber(),
      text: 'x',
      mediaId: media.mediaId,
    });
    expect(stolen.status).toBe(404);
  });
});

describe('reading messages and conversations', () => {
  it('lists sent and received messages newest first, by direction, conversation and time; never another user’s', async () => {
    const u = await programUser();
    const to = nextNumber();
    const sent = await api(u.key, 'POST', '/messages', { to, text: 'Are you there?' });
    const out = sent.body.messages[0];
    await runUntil(
      async () => (await api(u.key, 'GET', `/messages/${out.id}`)).body.message.status === 'delivered',
    );
    const port = (
      await s.db.query<{ port: string }>('SELECT port FROM messages WHERE id = $1::bigint', [out.id.slice(1)])
    )[0]!.port;
    s.clock.advance(1000);
    sim.injectSms({
      port,
      from: `+${to}`,
      text: 'Yes, here',
      ts: Math.floor(s.clock.now().getTime() / 1000),
    });
    await sim.pushesSettled();
    const inbound = await waitFor(async () => {
      const r = await api(u.key, 'GET', '/messages?direction=in');
      return r.body.messages.length > 0 ? r.body.messages : undefined;
    });
    expect(inbound[0]).toMatchObject({
      direction: 'in',
      status: 'received',
      phoneNumber: to,
      text: 'Yes, here',
      conversationId: out.conversationId,
      segments: null,
      cost: null,
    });
    expect(inbound[0].id).toMatch(/^i\d+$/);
    expect((await api(u.key, 'GET', `/messages/${inbound[0].id}`)).body.message.text).toBe('Yes, here');

    const all = await api(u.key, 'GET', '/messages');
    expect(all.body.messages.map((m: Json) => m.id)).toEqual([inbound[0].id, out.id]);
    const outs = await api(u.key, 'GET', '/messages?direction=out');
    expect(outs.body.messages.map((m: Json) => m.id)).toEqual([out.id]);
    const byConv = await api(u.key, 'GET', `/messages?conversation=${out.conversationId}&limit=1`);
    expect(byConv.body).toMatchObject({ page: 1, limit: 1, hasMore: true });
    expect(byConv.body.messages).toHaveLength(1);
    const page2 = await api(u.key, 'GET', `/messages?conversation=${out.conversationId}&limit=1&page=2`);
    expect(page2.body.messages.map((m: Json) => m.id)).toEqual([out.id]);
    expect(page2.body.hasMore).toBe(false);
    const since = await api(u.key, 'GET', `/messages?since=${encodeURIComponent(inbound[0].createdAt)}`);
    expect(since.body.messages.map((m: Json) => m.id)).toEqual([inbound[0].id]);
    const badQuery = await api(u.key, 'GET', '/messages?direction=sideways');
    expect(badQuery.status).toBe(400);

    const convs = await api(u.key, 'GET', '/conversations');
    expect(convs.body.conversations[0]).toMatchObject({ id: out.conversationId, phoneNumber: to, unread: 1 });

    // Another user: not found, and none of these in their lists.
    const other = await programUser();
    expect((await api(other.key, 'GET', `/messages/${out.id}`)).status).toBe(404);
    expect((await api(other.key, 'GET', `/messages/${inbound[0].id}`)).status).toBe(404);
    expect((await api(other.key, 'POST', `/messages/${out.id}/cancel`)).status).toBe(404);
    expect((await api(other.key, 'GET', '/messages')).body.messages).toEqual([]);
    expect((await api(other.key, 'GET', '/conversations')).body.conversations).toEqual([]);
    expect((await api(other.key, 'GET', '/messages/x1')).status).toBe(400);
  });

  it('needs the scope each call declares, and the key’s allowed addresses', async () => {
    const u = await programUser();
    const make = async (scopes: string[], allowedIps?: string[]) => {
      const res = await s.api(endpoints.apikey.createKey, {
        rawBody: { name: scopes.join('+'), scopes, allowedIps },
        token: u.token,
        headers: await s.reauth(u),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.apiKey as string;
    };
    const reader = await make(['messaging:read']);
    const sender = await make(['messaging:send']);
    const renter = await make(['rental']);
    const sent = await api(sender, 'POST', '/messages', { to: nextNumber(), text: 'scoped' });
    expect(sent.status).toBe(200);
    const id = sent.body.messages[0].id;
    const refused = await api(reader, 'POST', '/messages', { to: nextNumber(), text: 'no' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'api_key_scope_missing' });
    expect(refused.body.msg).toContain('messaging:send');
    expect((await api(reader, 'GET', `/messages/${id}`)).status).toBe(200);
    expect((await api(sender, 'GET', `/messages/${id}`)).status).toBe(403);
    expect((await api(renter, 'GET', '/messages')).status).toBe(403);
    expect((await api(renter, 'GET', '/sims')).status).toBe(403);
    expect((await api(reader, 'GET', '/orders')).status).toBe(403);
    // Allowed addresses: this test calls from 127.0.0.1.
    const here = await make(['messaging:read'], ['127.0.0.0/8']);
    const elsewhere = await make(['messaging:read'], ['203.0.113.0/24', '2001:db8::/32']);
    expect((await api(here, 'GET', '/messages')).status).toBe(200);
    const away = await api(elsewhere, 'GET', '/messages');
    expect(away.status).toBe(403);
    expect(away.body).toMatchObject({ error: 'api_key_ip_refused' });
    expect(away.body.msg).toContain('127.0.0.1');
  });

  it('answers without a key with 401 in the existing error shape', async () => {
    const res = await fetch(`${s.url}/api/v1/messages`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 0, error: 'api_key_missing' });
  });
});
