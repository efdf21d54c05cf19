import { randomUUID } from 'node:crypto';
import { amountText, endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../context.ts';
import { addSimGateway, ledgerMismatches } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { serverSendingThroughSims } from '../../test/suites.ts';
import { dispatchOnce, recordSendReports } from './dispatch.service.ts';
import { refundEndedMessages } from './refunds.service.ts';

// Priced messaging on a real server (both databases): the admin's prices, the charge when a send
// is accepted (one ledger row), the 402 that queues nothing, refunds of failed and cancelled
// messages (batched, exactly once, also with two processes refunding at once), chat replies.

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];

serverSendingThroughSims(
  { env: { SMS_PER_SIM_PER_MINUTE: '600', SMS_MAX_ATTEMPTS: '2' }, sims, cancelLeftovers: false },
  (t) => {
    ({ s, admin } = t);
  },
);

const setPrices = (prices: Record<string, unknown>) =>
  s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000, ...prices },
    token: admin,
  });
let numberSeq = 17300000000;
const numbers = (n: number) => Array.from({ length: n }, () => String(++numberSeq));
const send = (token: string, to: string[], mess = 'Hello there') =>
  s.api(endpoints.outreach.sendMassSms, { body: { number: to.join('\n'), mess }, token });
// Amounts as decimal text with at least two places (the scale SQL keeps varies with the operands).
const balanceOf = async (userId: string) =>
  amountText(
    (await s.db.query<{ b: string }>('SELECT balance::text AS b FROM users WHERE id = $1', [userId]))[0]!.b,
  );
const ledgerOf = async (userId: string) =>
  (
    await s.db.query<{ kind: string; amount: string; ref: string | null; balance_after: string }>(
      `SELECT kind, amount::text AS amount, ref, balance_after::text AS balance_after
         FROM ledger WHERE user_id = $1 ORDER BY id`,
      [userId],
    )
  ).map((l) => ({ ...l, amount: amountText(l.amount), balance_after: amountText(l.balance_after) }));

/** A device's report: this task failed for a reason no other SIM would change. */
const failReport = (m: { tid: number; recipient: string; port: string }): SendResult => ({
  tid: m.tid,
  outcome: 'failed',
  number: m.recipient,
  port: m.port,
  deviceText: '21 Short message transfer rejected',
});

async function gateway(sim: GatewaySim) {
  sims.push(sim);
  await addSimGateway(s, admin, sim, `prices ${sims.length}`);
}

/** Dispatches (one second per tick) until no message of the user is queued, sending or sent. */
async function runUntilFinal(userId: string) {
  for (let i = 0; i < 40; i++) {
    await dispatchOnce(s.ctx);
    for (const sim of sims) await sim.pushesSettled();
    const open = await s.db.query(
      `SELECT 1 FROM messages WHERE user_id = $1 AND status IN ('queued', 'sending', 'sent')`,
      [userId],
    );
    if (open.length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
  }
  throw new Error('messages not final');
}

describe('prices', () => {
  it('are set by an admin (4 decimals, audited), read by everyone, and refused when not prices', async () => {
    const saved = await setPrices({ SmsPricePerSegment: 0.0075, MmsPrice: '0.02' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ smsPricePerSegment: 0.0075, mmsPrice: 0.02 });
    const u = await s.createUser();
    expect((await s.api(endpoints.outreach.getSettings, { token: u.token })).body).toMatchObject({
      smsPricePerSegment: 0.0075,
      mmsPrice: 0.02,
    });
    expect((await s.api(endpoints.settings.get, { token: admin })).body).toMatchObject({
      smsPricePerSegment: 0.0075,
      mmsPrice: 0.02,
    });
    expect((await s.api(endpoints.gateway.getSettings, { token: admin })).body).toMatchObject({
      smsPricePerSegment: 0.0075,
      mmsPrice: 0.02,
    });
    const [audit] = await s.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_log WHERE kind = 'settings.update' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit!.after).toMatchObject({ smsPricePerSegment: 0.0075, mmsPrice: 0.02 });
    // Left out: kept.
    expect((await setPrices({})).body).toMatchObject({ smsPricePerSegment: 0.0075, mmsPrice: 0.02 });
    for (const [field, bad] of [
      ['SmsPricePerSegment', -0.01],
      ['SmsPricePerSegment', 0.00001],
      ['SmsPricePerSegment', '1e-3'],
      ['MmsPrice', 'abc'],
      ['MmsPrice', true],
    ] as const) {
      const res = await setPrices({ [field]: bad });
      expect(res.status, `${field}=${String(bad)}`).toBe(400);
      expect(res.body.msg).toMatch(/at most four decimals/);
    }
    expect(
      (await s.api(endpoints.settings.update, { body: { SmsPricePerSegment: 0 }, token: u.token })).status,
    ).toBe(403);
  });
});

describe('saving settings', () => {
  it('a field left out of a save keeps its stored value, for each field', async () => {
    const a = {
      MaxBatchSendSms: 1000,
      MaxMsgPerDay: 100000,
      SimMaxSmsPerDay: 300,
      SimMaxSmsPerMonth: 5000,
      SimLockAfterFailures: 7,
      SimCooldownMinutes: 45,
      SmsPricePerSegment: 0.0075,
      MmsPrice: 0.02,
    };
    const b = {
      MaxBatchSendSms: 20,
      MaxMsgPerDay: 30,
      SimMaxSmsPerDay: 40,
      SimMaxSmsPerMonth: 50,
      SimLockAfterFailures: 6,
      SimCooldownMinutes: 70,
      SmsPricePerSegment: 0.01,
      MmsPrice: 0.05,
    };
    /** The read-back name of a saved field: `MaxMsgPerDay` is read as `maxMsgPerDay`. */
    const read = (o: Record<string, number>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k[0]!.toLowerCase() + k.slice(1), v]));
    try {
      for (const left of Object.keys(a) as (keyof typeof a)[]) {
        expect((await s.api(endpoints.settings.update, { body: a, token: admin })).status).toBe(200);
        const { [left]: _out, ...partial } = b;
        const saved = await s.api(endpoints.settings.update, { body: partial, token: admin });
        expect(saved.status, left).toBe(200);
        const want = read({ ...b, [left]: a[left] });
        expect(saved.body, `${left} left out`).toMatchObject(want);
        expect(
          (await s.api(endpoints.settings.get, { token: admin })).body,
          `${left} left out`,
        ).toMatchObject(want);
      }
      // An empty save changes nothing at all.
      expect((await s.api(endpoints.settings.update, { body: a, token: admin })).status).toBe(200);
      expect((await s.api(endpoints.settings.update, { token: admin })).body).toMatchObject(read(a));
    } finally {
      // Back to the defaults the other tests here run with.
      await setPrices({
        SmsPricePerSegment: 0,
        MmsPrice: 0,
        SimMaxSmsPerDay: 0,
        SimMaxSmsPerMonth: 0,
        SimLockAfterFailures: 5,
        SimCooldownMinutes: 60,
      });
    }
  });
});

describe('charging a send', () => {
  beforeAll(async () => {
    await setPrices({ SmsPricePerSegment: '0.0075', MmsPrice: '0.02' });
  });

  it('charges segments × price in one ledger row when the send is accepted', async () => {
    const u = await s.createUser({ balance: 1 });
    // Variants rotate: 2 recipients get the 1-segment text, 1 gets the 2-segment UCS-2 text (71 chars).
    const long = 'Ж'.repeat(71);
    const res = await send(u.token, numbers(3), `Short\n${long}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ queued: 3, cost: 0.03, balance: 0.97 });
    const id = res.body.data!.campaignId as string;
    const costs = await s.db.query<{ cost: string }>(
      'SELECT cost::text AS cost FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
      [id],
    );
    expect(costs.map((c) => c.cost)).toEqual(['0.0075', '0.0150', '0.0075']);
    expect(await ledgerOf(u.id)).toEqual([
      { kind: 'topup', amount: '1.00', ref: null, balance_after: '1.00' },
      { kind: 'message_charge', amount: '-0.03', ref: `campaign:${id}`, balance_after: '0.97' },
    ]);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });

  it('answers 402 with the cost and the balance when the balance does not cover it, and queues nothing', async () => {
    const u = await s.createUser({ balance: 0.01 });
    const res = await send(u.token, numbers(3));
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 0, error: 'balance_too_low' });
    expect(res.body.msg).toContain('$0.0225');
    expect(res.body.msg).toContain('$0.01');
    expect(await s.db.query('SELECT 1 FROM campaigns WHERE user_id = $1', [u.id])).toHaveLength(0);
    expect(await s.db.query('SELECT 1 FROM messages WHERE user_id = $1', [u.id])).toHaveLength(0);
    expect(await s.db.query('SELECT used FROM messaging_daily_usage WHERE user_id = $1', [u.id])).toEqual([]);
    expect(await balanceOf(u.id)).toBe('0.01');
  });

  it('is free at price 0: no ledger row, cost 0', async () => {
    await setPrices({ SmsPricePerSegment: 0 });
    try {
      const u = await s.createUser();
      const res = await send(u.token, numbers(2));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ cost: 0, balance: 0 });
      expect(await ledgerOf(u.id)).toEqual([]);
    } finally {
      await setPrices({ SmsPricePerSegment: '0.0075' });
    }
  });
});

describe('refunds', () => {
  beforeAll(async () => {
    await setPrices({ SmsPricePerSegment: '0.0075', MmsPrice: '0.02' });
  });

  it('gives back cancelled messages in one ledger row, once', async () => {
    const u = await s.createUser({ balance: 1 });
    // No gateway enabled: everything stays queued.
    const res = await send(u.token, numbers(40));
    const id = res.body.data!.campaignId as string;
    expect(await balanceOf(u.id)).toBe('0.70');
    const cancel = await s.api(endpoints.outreach.cancel, { body: { campaignId: id }, token: u.token });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await balanceOf(u.id)).toBe('1.00');
    const refunds = (await ledgerOf(u.id)).filter((l) => l.kind === 'message_refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: '0.30', balance_after: '1.00' });
    expect(refunds[0]!.ref).toMatch(new RegExp(`^campaign:${id}:messages:\\d+-\\d+$`));
    // Again: nothing more.
    expect(
      (await s.api(endpoints.outreach.cancel, { body: { campaignId: id }, token: u.token })).status,
    ).toBe(200);
    expect(await refundEndedMessages(s.ctx)).toBe(0);
    expect(await balanceOf(u.id)).toBe('1.00');
    const [c] = await s.db.query<{ cost: string; refunded: string }>(
      'SELECT cost::text AS cost, refunded::text AS refunded FROM campaigns WHERE id = $1::bigint',
      [id],
    );
    expect({ cost: amountText(c!.cost), refunded: amountText(c!.refunded) }).toEqual({
      cost: '0.30',
      refunded: '0.30',
    });
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });

  it('gives back messages that end failed, not delivered ones, once, even when the report comes twice', async () => {
    const sim = await GatewaySim.start({ ports: 4, sendDelayMs: 5 });
    await gateway(sim);
    const u = await s.createUser({ balance: 1 });
    const to = numbers(10);
    const failing = new Set(to.slice(0, 4));
    sim.setOutcome((t) => (failing.has(t.to) ? 'fail' : 'ok'));
    const res = await send(u.token, to);
    expect(res.status).toBe(200);
    await runUntilFinal(u.id);
    const rows = await s.db.query<{ recipient: string; status: string; refunded: boolean }>(
      `SELECT recipient, status, refunded_at IS NOT NULL AS refunded FROM messages WHERE user_id = $1`,
      [u.id],
    );
    expect(
      rows
        .filter((r) => r.status === 'failed')
        .map((r) => r.recipient)
        .sort(),
    ).toEqual([...failing].sort());
    expect(rows.every((r) => r.refunded === (r.status === 'failed'))).toBe(true);
    // Charged 10 × 0.0075, 4 given back.
    expect(await balanceOf(u.id)).toBe('0.955');
    // The same failure reported again: nothing changes.
    const failed = await s.db.query<{ gateway_id: string; tid: number; recipient: string; port: string }>(
      `SELECT gateway_id, tid, recipient, port FROM messages WHERE user_id = $1 AND status = 'failed'`,
      [u.id],
    );
    await recordSendReports(s.ctx, failed[0]!.gateway_id, failed.map(failReport));
    await refundEndedMessages(s.ctx);
    expect(await balanceOf(u.id)).toBe('0.955');
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });

  it('two processes recording the same failures at once refund each message exactly once', async () => {
    const second = await startTestServer({ testDb: { db: s.db, drop: async () => {} } });
    try {
      const u = await s.createUser({ balance: 1 });
      expect((await send(u.token, numbers(20))).status).toBe(200);
      // Handed to a device (as a dispatcher leaves them), awaiting their results.
      const gatewayId = randomUUID();
      const sent = await s.db.query<{ gateway_id: string; tid: number; recipient: string; port: string }>(
        `UPDATE messages SET status = 'sent', gateway_id = $2, tid = id::int, port = '1.01', sent_at = now()
          WHERE user_id = $1 RETURNING gateway_id, tid, recipient, port`,
        [u.id, gatewayId],
      );
      const reports = sent.map(failReport);
      await Promise.all([
        recordSendReports(s.ctx, gatewayId, reports),
        recordSendReports(second.ctx, gatewayId, reports),
        refundEndedMessages(second.ctx),
      ]);
      await refundEndedMessages(s.ctx);
      expect(await balanceOf(u.id)).toBe('1.00');
      const refunds = (await ledgerOf(u.id)).filter((l) => l.kind === 'message_refund');
      expect(refunds.reduce((sum, r) => sum + Number(r.amount), 0)).toBeCloseTo(0.15, 10);
      expect(await ledgerMismatches(s.db)).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('two processes refunding at once give each message back exactly once', async () => {
    const second = await startTestServer({ testDb: { db: s.db, drop: async () => {} } });
    try {
      const users = await Promise.all([1, 2, 3].map(() => s.createUser({ balance: 5 })));
      for (const u of users) expect((await send(u.token, numbers(150))).status).toBe(200);
      // Ended without a refund yet (as a crash right after the change would leave them).
      await s.db.query(
        `UPDATE messages SET status = 'failed', done_at = now()
          WHERE user_id = ANY($1::uuid[]) AND status = 'queued'`,
        [users.map((u) => u.id)],
      );
      const [a, b] = await Promise.all([refundEndedMessages(s.ctx), refundEndedMessages(second.ctx)]);
      expect(a + b).toBe(450);
      for (const u of users) {
        expect(await balanceOf(u.id)).toBe('5.00');
        const refunds = (await ledgerOf(u.id)).filter((l) => l.kind === 'message_refund');
        expect(refunds.reduce((sum, r) => sum + Number(r.amount), 0)).toBeCloseTo(1.125, 10);
        expect(refunds.length).toBeLessThanOrEqual(2);
      }
      expect(await ledgerMismatches(s.db)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});

describe('chat replies', () => {
  it('are charged by segments, an MMS at its price, and a 402 sends nothing', async () => {
    await setPrices({ SmsPricePerSegment: '0.0075', MmsPrice: '0.02' });
    const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
    await gateway(sim);
    const u = await s.createUser({ balance: 0.02 });
    const [to] = numbers(1);
    expect((await send(u.token, [to!])).status).toBe(200);
    await runUntilFinal(u.id);
    const [conv] = await s.db.query<{ id: string }>(
      'SELECT id::text AS id FROM conversations WHERE user_id = $1',
      [u.id],
    );
    const reply = (sms: string) =>
      s.api(endpoints.livechat.reply, {
        body: { conversationId: conv!.id, sms, toNumber: to! },
        token: u.token,
      });
    const ok = await reply('Thanks!');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await balanceOf(u.id)).toBe('0.005');
    const charges = (await ledgerOf(u.id)).filter((l) => l.kind === 'message_charge');
    expect(charges.at(-1)).toMatchObject({ amount: '-0.0075', balance_after: '0.005' });
    expect(charges.at(-1)!.ref).toMatch(/^message:\d+$/);
    const poor = await reply('Are you there?');
    expect(poor.status).toBe(402);
    expect(poor.body.msg).toContain('$0.0075');
    expect(
      await s.db.query(`SELECT 1 FROM messages WHERE user_id = $1 AND campaign_id IS NULL`, [u.id]),
    ).toHaveLength(1);
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });
});
