import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { ingestIncomingSms } from '../gateways/index.ts';
import { normalizeSender, optKeyword } from './replies.service.ts';

// Replies, opt-outs and the history: messages are put "on the air" straight in the database (the
// dispatch tests cover the device side); incoming SMS go through the real ingestion and consumers.

let s: TestServer;
let admin: string;
let gw: { id: string; ports: string[]; numbers: string[] };
const sims = new Map<string, string>();

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  gw = await seedGateway(s.db, { sims: 3, lastUpdate: s.clock.now() });
  for (const r of await s.db.query<{ id: string; port: string }>(
    'SELECT id, port FROM sims WHERE gateway_id = $1',
    [gw.id],
  ))
    sims.set(r.port, r.id);
});
afterAll(async () => {
  await s.close();
});

let numberSeq = 18005550000;
const fresh = (n: number) => Array.from({ length: n }, () => String(++numberSeq));

async function send(token: string, numbers: string[], mess = 'Spring sale: 20% off') {
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess },
    token,
  });
  expect(res.status).toBe(200);
  return res.body.data as { campaignId: string; queued: number; skippedOptOut: number };
}

/** What the dispatcher and the device would do: the message went out of `port` and got `status`. */
async function onAir(
  campaignId: string,
  recipient: string,
  port: string,
  status = 'delivered',
  reason?: string,
) {
  await s.db.query(
    `UPDATE messages SET status = $3, sim_id = $4, gateway_id = $5, gateway_name = 'seeded', port = $6,
            sent_at = $7, done_at = $7, status_reason = $8
      WHERE campaign_id = $1::bigint AND recipient = $2`,
    [campaignId, recipient, status, sims.get(port), gw.id, port, s.clock.now(), reason ?? null],
  );
}

async function incoming(port: string, sender: string, text: string) {
  s.clock.advance(1000);
  const res = await ingestIncomingSms(s.ctx, [
    {
      gatewayId: gw.id,
      port,
      sender,
      text,
      isReport: false,
      recipient: null,
      ts: Math.floor(s.clock.now().getTime() / 1000),
    },
  ]);
  const [row] = await s.db.query<{ id: string; matched: boolean }>(
    'SELECT id, matched FROM incoming_sms WHERE id = $1',
    [res.stored[0]],
  );
  return row!;
}

const repliesOf = (userId: string) =>
  s.db.query<{ sender: string; body: string; conversation_id: string }>(
    'SELECT sender, body, conversation_id::text AS conversation_id FROM conversation_replies WHERE user_id = $1 ORDER BY id',
    [userId],
  );

describe('rules', () => {
  it('reads the opt-out keywords and normalises senders', () => {
    for (const w of [
      'STOP',
      'stop',
      ' Stop! ',
      'STOP ALL',
      'stopall',
      'Unsubscribe',
      'CANCEL',
      'end.',
      'quit',
    ])
      expect(optKeyword(w), w).toBe('stop');
    for (const w of ['START', 'unstop']) expect(optKeyword(w)).toBe('start');
    for (const w of ['please stop', 'STOPPED', 'the end', '', 'x'.repeat(100)])
      expect(optKeyword(w), w).toBeNull();
    expect(normalizeSender('+1 (800) 555-0001')).toBe('18005550001');
    expect(normalizeSender('8005550001')).toBe('18005550001');
    expect(normalizeSender('Bank')).toBeNull();
    expect(normalizeSender('+44 20 7946 0000')).toBeNull();
  });
});

describe('replies', () => {
  it('an SMS from a recipient to the SIM that wrote to them is an unread reply in that conversation', async () => {
    const u = await s.createUser();
    const [x] = fresh(1);
    const c = await send(u.token, [x!]);
    await onAir(c.campaignId, x!, '1.01');
    const sms = await incoming('1.01', `+${x}`, 'Who is this?');
    expect(sms.matched).toBe(true);
    const replies = await repliesOf(u.id);
    expect(replies).toMatchObject([{ sender: x, body: 'Who is this?' }]);
    const [conv] = await s.db.query<{ unread_count: number; latest_sms: string }>(
      'SELECT unread_count, latest_sms FROM conversations WHERE id = $1::bigint',
      [replies[0]!.conversation_id],
    );
    expect(conv).toEqual({ unread_count: 1, latest_sms: 'Who is this?' });
    const [m] = await s.db.query<{ replied: boolean }>(
      'SELECT replied_at IS NOT NULL AS replied FROM messages WHERE campaign_id = $1::bigint',
      [c.campaignId],
    );
    expect(m!.replied).toBe(true);
  });

  it('is not a reply on another SIM, from another number, or before our message went out', async () => {
    const u = await s.createUser();
    const [x, y] = fresh(2);
    const early = await incoming('1.01', x!, 'hello?');
    expect(early.matched).toBe(false);
    const c = await send(u.token, [x!]);
    await onAir(c.campaignId, x!, '1.01');
    expect((await incoming('2.01', x!, 'wrong SIM')).matched).toBe(false);
    expect((await incoming('1.01', y!, 'never messaged')).matched).toBe(false);
    // A message that is still queued has no SIM yet.
    const queued = await send(u.token, [y!]);
    expect(queued.queued).toBe(1);
    expect((await incoming('1.01', y!, 'still nothing')).matched).toBe(false);
    expect(await repliesOf(u.id)).toEqual([]);
  });

  it('a rental code wins over a reply', async () => {
    const u = await s.createUser({ balance: 10 });
    await addService(s.db, { code: 'tgr', name: 'Telegram', textContains: 'Telegram', pattern: '(\\d{5})' });
    // Rent first (the SIM is then left alone by bulk sending), then put an older message on that SIM.
    const order = await s.api(endpoints.order.create, { body: { serviceCode: 'tgr' }, token: u.token });
    expect(order.status).toBe(200);
    const [row] = await s.db.query<{ port: string }>('SELECT port FROM orders WHERE id = $1::bigint', [
      order.body.data.id,
    ]);
    const [x] = fresh(1);
    const c = await send(u.token, [x!]);
    await onAir(c.campaignId, x!, row!.port);
    const sms = await incoming(row!.port, x!, 'Telegram code 12345');
    expect(sms.matched).toBe(true);
    const [o] = await s.db.query<{ status: string; code_text: string }>(
      'SELECT status, code_text FROM orders WHERE id = $1::bigint',
      [order.body.data.id],
    );
    expect(o).toEqual({ status: 'SUCCESS', code_text: '12345' });
    expect(await repliesOf(u.id)).toEqual([]);
    // A later SMS that is no code is a reply again.
    expect((await incoming(row!.port, x!, 'thanks')).matched).toBe(true);
    expect((await repliesOf(u.id)).map((r) => r.body)).toEqual(['thanks']);
  });

  it('STOP opts the sender out for that user (queued messages cancelled, later sends skip them); START undoes it', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const [x, y] = fresh(2);
    const c = await send(u.token, [x!, y!]);
    await onAir(c.campaignId, x!, '3.01');
    const pending = await send(u.token, [x!]);
    const otherCampaign = await send(other.token, [x!]);
    expect((await incoming('3.01', x!, 'STOP')).matched).toBe(true);
    expect(await s.db.query('SELECT number FROM opt_outs WHERE user_id = $1', [u.id])).toEqual([
      { number: x },
    ]);
    const progress = await s.api(endpoints.outreach.campaign, {
      body: { campaignId: pending.campaignId },
      token: u.token,
    });
    expect(progress.body.data).toMatchObject({ cancelled: 1, queued: 0 });
    // The other user's message to the same number is theirs to send.
    const theirs = await s.api(endpoints.outreach.campaign, {
      body: { campaignId: otherCampaign.campaignId },
      token: other.token,
    });
    expect(theirs.body.data!.queued).toBe(1);
    const again = await send(u.token, [x!, y!]);
    expect(again).toMatchObject({ queued: 1, skippedOptOut: 1 });
    expect((await incoming('3.01', x!, 'start')).matched).toBe(true);
    expect(await s.db.query('SELECT number FROM opt_outs WHERE user_id = $1', [u.id])).toEqual([]);
    expect((await send(u.token, [x!])).skippedOptOut).toBe(0);
  });
});

describe('history', () => {
  let alice: { id: string; username: string; token: string };
  let bob: { id: string; username: string; token: string };
  let start: number;
  let aliceNumbers: string[];

  beforeAll(async () => {
    // A fresh day, far from the other tests' messages.
    s.clock.set(Date.UTC(2031, 0, 10, 12, 0, 0));
    start = Date.UTC(2031, 0, 10) / 1000;
    alice = await s.createUser();
    bob = await s.createUser();
    aliceNumbers = fresh(5);
    const c = await send(alice.token, aliceNumbers, 'Line A\nLine B');
    await onAir(c.campaignId, aliceNumbers[0]!, '1.01');
    await onAir(c.campaignId, aliceNumbers[1]!, '2.01');
    await onAir(
      c.campaignId,
      aliceNumbers[2]!,
      '3.01',
      'failed',
      '6 Timeout; 21 Short message transfer rejected',
    );
    // [3] stays queued, [4] is cancelled (not history).
    await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE recipient = $1`, [aliceNumbers[4]]);
    await incoming('1.01', aliceNumbers[0]!, 'yes please');
    await incoming('1.01', aliceNumbers[0]!, 'when?');
    // The next day, bob sends one.
    s.clock.set(Date.UTC(2031, 0, 11, 9, 0, 0));
    // Tokens signed before the clock moved are expired now.
    admin = await s.adminToken();
    const b = await send(bob.token, fresh(1));
    await s.db.query(
      `UPDATE messages SET status = 'delivered', sent_at = $2 WHERE campaign_id = $1::bigint`,
      [b.campaignId, s.clock.now()],
    );
  });

  const query = (token: string, body: object) => s.api(endpoints.history.queryMsg, { body: body, token });
  const day = (d: number) => ({ strTime: start + d * 86400, endTime: start + d * 86400 + 86399 });

  it('sums the period: messages, successes, recipients who replied, and the rates', async () => {
    const res = await query(alice.token, { current: 1, size: 50, params: day(0) });
    expect(res.status).toBe(200);
    expect(res.body.data.sum).toEqual({
      numCnt: 4,
      success: 2,
      replyUserCnt: 1,
      successRate: 50,
      replyRate: 25,
    });
    expect(res.body.data.total).toBe(4);
    const failed = res.body.data.records.find((r: { receiver: string }) => r.receiver === aliceNumbers[2]);
    expect(failed).toMatchObject({
      status: 0,
      statusReason: '6 Timeout; 21 Short message transfer rejected',
      userAlias: alice.username,
      smsGateway: null,
      smsPort: null,
    });
    expect(res.body.data.records.map((r: { status: number }) => r.status).sort()).toEqual([0, 1, 1, 2]);
    // Another day: nothing of alice's.
    expect((await query(alice.token, { current: 1, size: 50, params: day(1) })).body.data).toMatchObject({
      sum: { numCnt: 0, successRate: 0, replyRate: 0 },
      records: [],
      total: 0,
    });
  });

  it('pages, filters, and defaults (page 1, size 50)', async () => {
    const p1 = await query(alice.token, { current: 1, size: 3, params: day(0) });
    const p2 = await query(alice.token, { current: 2, size: 3, params: day(0) });
    expect(p1.body.data.records).toHaveLength(3);
    expect(p2.body.data.records).toHaveLength(1);
    expect(p1.body.data.total).toBe(4);
    const ids = [...p1.body.data.records, ...p2.body.data.records].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(4);
    const onlyFailed = await query(alice.token, { params: { ...day(0), status: '0' } });
    expect(onlyFailed.body.data.records.map((r: { receiver: string }) => r.receiver)).toEqual([
      aliceNumbers[2],
    ]);
    expect(onlyFailed.body.data.sum.numCnt).toBe(4);
    const byNumber = await query(alice.token, { params: { name: aliceNumbers[1] } });
    expect(byNumber.body.data.total).toBe(1);
    expect((await query(alice.token, {})).status).toBe(200);
    for (const bad of [
      { current: 0 },
      { size: 501 },
      { params: { strTime: 10, endTime: 5 } },
      { params: { strTime: -1 } },
    ]) {
      const res = await query(alice.token, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('users see their own; Admin9 sees everyone with gateway and port, and can pick a user', async () => {
    const both = { ...day(0), endTime: day(1).endTime };
    const mine = await query(bob.token, { params: both });
    expect(mine.body.data.total).toBe(1);
    expect(mine.body.data.records[0]!.userAlias).toBe(bob.username);
    const all = await query(admin, { size: 500, params: both });
    const aliases = new Set(all.body.data.records.map((r: { userAlias: string }) => r.userAlias));
    expect(aliases).toEqual(new Set([alice.username, bob.username]));
    const delivered = all.body.data.records.find((r: { receiver: string }) => r.receiver === aliceNumbers[0]);
    expect(delivered).toMatchObject({ smsGateway: 'seeded', smsPort: '1.01', status: 1 });
    const seat = await query(admin, { params: { ...both, seatId: bob.username } });
    expect(seat.body.data.total).toBe(1);
    expect((await query(admin, { params: { ...both, seatId: 'nobody-here' } })).body.data.total).toBe(0);
  });

  it('gives sent, delivered and replies per day for the chart', async () => {
    const res = await s.api(endpoints.history.dailyStats, {
      body: { strTime: start, endTime: start + 3 * 86400 - 1 },
      token: alice.token,
    });
    expect(res.body.data.days).toEqual([
      { dayStart: start, sent: 4, delivered: 2, replies: 2 },
      { dayStart: start + 86400, sent: 0, delivered: 0, replies: 0 },
      { dayStart: start + 2 * 86400, sent: 0, delivered: 0, replies: 0 },
    ]);
    const everyone = await s.api(endpoints.history.dailyStats, {
      body: { strTime: start, endTime: start + 2 * 86400 - 1 },
      token: admin,
    });
    expect(everyone.body.data.days[1]).toMatchObject({ sent: 1, delivered: 1 });
    const tooLong = await s.api(endpoints.history.dailyStats, {
      body: { strTime: 0, endTime: 400 * 86400 },
      token: alice.token,
    });
    expect(tooLong.status).toBe(400);
  });

  it('exports the filtered records as CSV', async () => {
    const res = await fetch(`${s.url}/api/MassOutreach/exportmsg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ params: day(0) }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,receiver,sms,userAlias,status,statusReason,statusDetail,smsGateway,smsPort,time',
    );
    expect(lines).toHaveLength(5);
    // A plain reason, with the device's text as its detail.
    expect(
      lines.some((l) =>
        l.includes(",The recipient's network refused it,6 Timeout; 21 Short message transfer rejected,"),
      ),
    ).toBe(true);
  });

  it('lists the newest first by number, not by text, across a digit boundary of the ids', async () => {
    const [max] = await s.db.query<{ n: number }>('SELECT coalesce(max(id), 0)::int AS n FROM messages');
    const next = 10 ** String(max!.n).length;
    const u = await s.createUser();
    await send(u.token, fresh(next - max!.n + 3));
    const res = await query(u.token, { size: 500, params: {} });
    const ids = res.body.data.records.map((r: { id: string }) => Number(r.id));
    expect(ids.some((id: number) => id >= next) && ids.some((id: number) => id < next)).toBe(true);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});
