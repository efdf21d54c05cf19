import { endpoints } from '@simdock/contract';
import { GatewaySim, type SimOptions } from '@simdock/gateway-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSimGateway, waitFor } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverSendingThroughSims } from '../../test/suites.ts';
import { type DispatchResult, dispatchOnce, failOverdueResults, taskId } from './dispatch.service.ts';

// The dispatcher against simulated gateways over the real protocol: success, failure with its
// reason, retry on another SIM, a gateway going offline mid-campaign, crashed dispatchers.

let s: TestServer;
let admin: string;
let user: { id: string; token: string };
const sims: GatewaySim[] = [];

// Each test starts with no gateway and no pending message.
serverSendingThroughSims(
  // One message per SIM per second: a tick (1 s) gives each SIM one message.
  { env: { SMS_PER_SIM_PER_MINUTE: '60', SMS_LEASE_SECONDS: '30' }, sims, cancelLeftovers: true },
  (t) => {
    ({ s, admin } = t);
  },
);
beforeAll(async () => {
  user = await s.createUser();
});

let seq = 0;
async function gateway(opts: SimOptions = {}): Promise<{ sim: GatewaySim; id: string; name: string }> {
  const sim = await GatewaySim.start({ ports: 4, sendDelayMs: 5, ...opts });
  sims.push(sim);
  seq += 1;
  const name = `dispatch ${seq}`;
  return { sim, id: await addSimGateway(s, admin, sim, name), name };
}

let numberSeq = 17000000000;
async function campaign(n: number, text = 'Hello from the test'): Promise<{ id: string; numbers: string[] }> {
  const numbers = Array.from({ length: n }, () => String(++numberSeq));
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: text },
    token: user.token,
  });
  expect(res.status).toBe(200);
  return { id: res.body.data!.campaignId, numbers };
}

type Row = {
  id: string;
  recipient: string;
  status: string;
  attempt: number;
  port: string | null;
  gateway_name: string | null;
  status_reason: string | null;
  tried: number;
};
const rowsOf = (campaignId: string) =>
  s.db.query<Row>(
    `SELECT id::text AS id, recipient, status, attempt, port, gateway_name, status_reason,
            cardinality(tried_sims)::int AS tried
       FROM messages WHERE campaign_id = $1::bigint ORDER BY id`,
    [campaignId],
  );

/** Ticks (moving the clock one second each time) until every message of the campaign is final. */
async function runUntilDone(
  campaignId: string,
  ticks = 60,
  tick = () => dispatchOnce(s.ctx),
): Promise<Row[]> {
  for (let i = 0; i < ticks; i++) {
    await tick();
    for (const sim of sims) await sim.pushesSettled();
    const rows = await rowsOf(campaignId);
    if (rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
  }
  throw new Error(`campaign ${campaignId} not done: ${JSON.stringify(await rowsOf(campaignId))}`);
}

/** How often each recipient was actually transmitted by the simulators. */
function transmissions(): Map<string, number> {
  const out = new Map<string, number>();
  for (const sim of sims)
    for (const t of sim.sentTasks())
      for (const r of t.results)
        if (r.outcome === 'ok' || r.outcome === 'fail' || r.outcome === 'unregistered')
          out.set(r.to, (out.get(r.to) ?? 0) + 1);
  return out;
}

describe('dispatch', () => {
  it('sends through the SIMs, one port per task, and records success from the status report', async () => {
    const gw = await gateway();
    const c = await campaign(6);
    const rows = await runUntilDone(c.id);
    expect(rows.every((r) => r.status === 'delivered' && r.gateway_name === gw.name)).toBe(true);
    // Per-SIM rate: one message per SIM per tick, so the first tick used all 4 SIMs once.
    const tasks = gw.sim.sentTasks();
    expect(tasks.map((t) => t.tid).sort()).toEqual(rows.map((r) => taskId(r.id, 0)).sort());
    expect(
      tasks.every((t) => t.from !== undefined && /^\d+$/.test(t.from) && t.recipients.length === 1),
    ).toBe(true);
    expect(new Set(rows.slice(0, 4).map((r) => r.port)).size).toBe(4);
    expect([...transmissions().values()].every((n) => n === 1)).toBe(true);
    // Progress and history agree.
    const progress = await s.api(endpoints.outreach.campaign, {
      body: { campaignId: c.id },
      token: user.token,
    });
    expect(progress.body.data).toMatchObject({ total: 6, delivered: 6, queued: 0, finished: true });
    const history = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 10, params: {} },
      token: admin,
    });
    const rec = history.body.data.records.find((r: { receiver: string }) => r.receiver === c.numbers[0]);
    expect(rec).toMatchObject({ status: 1, smsGateway: gw.name, statusReason: null });
    expect(rec!.smsPort).toMatch(/^\d\.01$/);
    // The conversation remembers the SIM that wrote.
    const [conv] = await s.db.query<{ sim_id: string | null }>(
      'SELECT sim_id FROM conversations WHERE user_id = $1 AND receiver = $2',
      [user.id, c.numbers[0]],
    );
    expect(conv!.sim_id).not.toBeNull();
  });

  it('retries on another SIM when a SIM cannot send, and fails with the reason after the last attempt', async () => {
    const gw = await gateway();
    const c = await campaign(3);
    const retried = c.numbers[0]!;
    const doomed = c.numbers[1]!;
    const firstPort = new Map<string, string>();
    gw.sim.setOutcome(({ to, port }) => {
      if (to === doomed) return 'fail';
      if (to === retried && (firstPort.get(to) ?? port) === port) {
        firstPort.set(to, port);
        return 'unregistered';
      }
      return 'ok';
    });
    const rows = await runUntilDone(c.id);
    const byTo = new Map(rows.map((r) => [r.recipient, r]));
    expect(byTo.get(retried)).toMatchObject({
      status: 'delivered',
      attempt: 1,
      tried: 1,
      status_reason: null,
    });
    expect(byTo.get(retried)!.port).not.toBe(firstPort.get(retried));
    expect(byTo.get(doomed)).toMatchObject({
      status: 'failed',
      attempt: 2,
      status_reason: '6 Timeout; 21 Short message transfer rejected',
    });
    // Three attempts, on three different SIMs.
    const ports = gw.sim
      .sentTasks()
      .filter((t) => t.recipients[0] === doomed)
      .map((t) => t.port);
    expect(new Set(ports).size).toBe(3);
    const history = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 50, params: { status: 0 } },
      token: user.token,
    });
    expect(history.body.data.records.map((r: { receiver: string }) => r.receiver)).toContain(doomed);
    expect(history.body.data.records[0]).toMatchObject({ smsGateway: null, smsPort: null });
  });

  it('moves the rest of a campaign to another gateway when one goes offline mid-campaign', async () => {
    const a = await gateway();
    const b = await gateway();
    const c = await campaign(20);
    const first = await dispatchOnce(s.ctx);
    expect(first.claimed).toBe(8);
    // The first messages' results are in before the gateway goes away.
    await waitFor(async () => (await rowsOf(c.id)).filter((r) => r.status === 'delivered').length === 8);
    await a.sim.setFaults({ offline: true });
    s.clock.advance(1000);
    const second = await dispatchOnce(s.ctx);
    expect(second).toMatchObject({ claimed: 8, requeued: 4, accepted: 4 });
    const rows = await runUntilDone(c.id);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    expect(rows.filter((r) => r.gateway_name === a.name)).toHaveLength(4);
    expect(rows.filter((r) => r.gateway_name === b.name)).toHaveLength(16);
    const sent = transmissions();
    expect(c.numbers.every((n) => sent.get(n) === 1)).toBe(true);
  });

  it('two dispatchers, one killed after its claim: each message is sent exactly once', async () => {
    await gateway();
    await gateway();
    const c = await campaign(24);
    const killed = new Error('dispatcher killed');
    // Dispatcher A claims, then dies before calling any device; B runs while A dies. (Started side
    // by side, whichever locks the SIMs' pace rows first takes the whole tick and the other claims
    // nothing: which one is a race, so B starts once A holds its claim.)
    let bRun: Promise<DispatchResult> | undefined;
    const [a] = await Promise.allSettled([
      dispatchOnce(s.ctx, {
        afterClaim: () => {
          bRun = dispatchOnce(s.ctx);
          throw killed;
        },
      }),
    ]);
    expect(a.status).toBe('rejected');
    const [b] = await Promise.allSettled([bRun!]);
    const claimedByA = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1::bigint AND status = 'sending'`,
      [c.id],
    );
    const bClaimed = b.status === 'fulfilled' ? (b.value as DispatchResult).claimed : 0;
    // A's claim holds the SIMs' capacity for this tick: B claims none of its messages.
    expect(claimedByA[0]!.n + bClaimed).toBe(8);
    expect(claimedByA[0]!.n).toBeGreaterThan(0);
    // Until the lease runs out, A's messages stay claimed; then they are claimed again and sent.
    const rows = await runUntilDone(c.id, 120);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    const sent = transmissions();
    expect(c.numbers.map((n) => sent.get(n) ?? 0)).toEqual(c.numbers.map(() => 1));
  });

  it('a dispatcher killed after the device took its tasks: the claim is re-sent as a duplicate, never twice', async () => {
    // Slow transmission: the results arrive after the lease has run out and the claim was re-taken.
    const gw = await gateway({ sendDelayMs: 400 });
    const c = await campaign(4);
    await expect(
      dispatchOnce(s.ctx, {
        afterSend: () => {
          throw new Error('dispatcher killed');
        },
      }),
    ).rejects.toThrow('killed');
    s.clock.advance(31_000);
    const again = await dispatchOnce(s.ctx);
    expect(again).toMatchObject({ claimed: 4, accepted: 4 });
    expect(gw.sim.sentTasks().filter((t) => t.status.startsWith('13')).length).toBe(4);
    const rows = await runUntilDone(c.id);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    const sent = transmissions();
    expect(c.numbers.map((n) => sent.get(n) ?? 0)).toEqual([1, 1, 1, 1]);
  });

  it('retries on the same SIM when it is the only one, up to the last attempt', async () => {
    const gw = await gateway({ ports: 1 });
    const c = await campaign(1);
    gw.sim.setOutcome(() => 'unregistered');
    // The SIM is backed off after each refusal: ticks move the clock a second at a time.
    const rows = await runUntilDone(c.id, 400);
    expect(rows[0]).toMatchObject({ status: 'failed', attempt: 2, status_reason: '5 SIM Unregistered' });
    expect(gw.sim.sentTasks()).toHaveLength(3);
  });

  it('fails a message whose result never came, after SMS_RESULT_TIMEOUT_MINUTES', async () => {
    const gw = await gateway();
    const c = await campaign(2);
    await gw.sim.setFaults({ dropPushes: true });
    await dispatchOnce(s.ctx);
    await new Promise((r) => setTimeout(r, 100));
    expect((await rowsOf(c.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
    s.clock.advance(29 * 60_000);
    expect(await failOverdueResults(s.ctx)).toBe(0);
    s.clock.advance(2 * 60_000);
    expect(await failOverdueResults(s.ctx)).toBe(2);
    expect((await rowsOf(c.id)).map((r) => [r.status, r.status_reason])).toEqual([
      ['failed', 'No result from the gateway within 30 minutes.'],
      ['failed', 'No result from the gateway within 30 minutes.'],
    ]);
  });

  it('leaves SIMs with an open rental alone', async () => {
    const gw = await gateway();
    const [sim] = await s.db.query<{ id: string; port: string; number: string }>(
      `SELECT id, port, number FROM sims WHERE gateway_id = $1 ORDER BY port LIMIT 1`,
      [gw.id],
    );
    expect(
      (
        await s.api(endpoints.service.update, {
          body: { name: 'Rent', code: `r${seq}`, price: 1, stock: 10 },
          token: admin,
        })
      ).status,
    ).toBe(200);
    await s.db.query(
      `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, sim_id, port,
                           phone_number, price, status, created_at, expires_at)
       SELECT $1, id, code, name, $2, 'x', $3, $4, $5, 1, 'WAIT_CODE', now(), now() + interval '1 day'
         FROM services WHERE code = $6`,
      [user.id, gw.id, sim!.id, sim!.port, sim!.number, `r${seq}`],
    );
    const c = await campaign(6);
    const rows = await runUntilDone(c.id);
    expect(rows.every((r) => r.status === 'delivered' && r.port !== sim!.port)).toBe(true);
  });
});
