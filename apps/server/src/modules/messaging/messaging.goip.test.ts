import { endpoints } from '@simdock/contract';
import { GoipSim, type GoipSimOptions } from '@simdock/goip-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverSendingThroughSims } from '../../test/suites.ts';
import { dispatchOnce } from './dispatch.service.ts';

// Bulk SMS through a GoIP box (tools/goip-sim speaks the protocol): the platform holds each send
// and the process that holds the GoIP port runs it in the box's session (MSG, PASSWORD, SEND per
// recipient), to the address the line's keepalives came from. A WAIT never brings a second SEND,
// a line off the network (GSM_LOGOUT) hands its messages to another SIM, and the box's DELIVER
// report marks the message delivered.

let s: TestServer;
let admin: string;
let user: { id: string; token: string };
const sims: GoipSim[] = [];

serverSendingThroughSims(
  { env: { SMS_PER_SIM_PER_MINUTE: '600', SMS_LEASE_SECONDS: '30' }, sims, cancelLeftovers: true },
  (t) => {
    ({ s, admin } = t);
  },
);
beforeAll(async () => {
  user = await s.createUser();
});

let seq = 0;
/** A GoIP box added through the admin API, its lines registered with the server's GoIP port. */
async function goipBox(opts: Partial<GoipSimOptions> = {}) {
  seq += 1;
  const id = `box${seq}x`;
  const add = await s.api(endpoints.gateway.update, {
    body: { gateway: { name: `GoIP ${seq}`, kind: 'goip', url: '', userName: id, password: 'line-pw' } },
    token: admin,
  });
  expect(add.status).toBe(200);
  // The settings to enter on the box: the server's GoIP port (a free one in tests, once held).
  const server = await waitFor(async () => {
    const res = await s.api(endpoints.gateway.getSettings, { token: admin });
    const gw = res.body.gateways.find((g) => g.id === add.body.id);
    return gw?.deviceServer?.port ? gw.deviceServer : undefined;
  });
  const sim = await GoipSim.start({
    server: { host: '127.0.0.1', port: server.port },
    lines: 2,
    idPrefix: id,
    password: 'line-pw',
    keepaliveMs: 200,
    sendMs: 30,
    waitRepeatMs: 0,
    deliverMs: 20,
    reportRetryMs: 200,
    seed: seq,
    ...opts,
  });
  sims.push(sim);
  const gatewayId = String(add.body.id);
  await waitFor(async () => {
    const rows = await s.db.query("SELECT 1 FROM sims WHERE gateway_id = $1 AND state = 'ready'", [
      gatewayId,
    ]);
    return rows.length === 2;
  });
  return { sim, gatewayId, name: `GoIP ${seq}` };
}

let numberSeq = 15550100000;
async function campaign(n: number, text: string) {
  const numbers = Array.from({ length: n }, () => String(++numberSeq));
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: text },
    token: user.token,
  });
  expect(res.status).toBe(200);
  return { id: res.body.data!.campaignId as string, numbers };
}

type Row = { recipient: string; status: string; port: string | null; status_reason: string | null };
const rowsOf = (campaignId: string) =>
  s.db.query<Row>(
    'SELECT recipient, status, port, status_reason FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
    [campaignId],
  );

/** Dispatches (the clock one second on each time) until every message of the campaign is `final`. */
async function runUntil(campaignId: string, final: (r: Row) => boolean): Promise<Row[]> {
  for (let i = 0; i < 200; i++) {
    await dispatchOnce(s.ctx);
    const rows = await rowsOf(campaignId);
    if (rows.every(final)) return rows;
    await new Promise((r) => setTimeout(r, 50));
    s.clock.advance(1000);
  }
  throw new Error(`campaign ${campaignId} not done: ${JSON.stringify(await rowsOf(campaignId))}`);
}

describe('sending through a GoIP box', () => {
  it('sends each message once in the box session, from its line, and its DELIVER marks it delivered', async () => {
    const box = await goipBox();
    const text = 'Sale today: 20% off; code: SPRING ✓';
    const c = await campaign(4, text);
    const rows = await runUntil(c.id, (r) => r.status === 'delivered');
    expect(rows.map((r) => r.recipient).sort()).toEqual([...c.numbers].sort());
    const sent = box.sim.sent();
    // Every recipient got the text whole, exactly once, from the line the platform chose.
    expect(sent.map((m) => m.number).sort()).toEqual([...c.numbers].sort());
    expect(sent.every((m) => m.text === text)).toBe(true);
    for (const r of rows) expect(sent.find((m) => m.number === r.recipient)?.line).toBe(Number(r.port));
    // WAIT came before every OK (the box says so first for each SEND): never a second SEND.
    expect(box.sim.sendCounts().every((c) => c.count === 1)).toBe(true);
  });

  it("hands a line's messages to another SIM when its SIM is off the network (GSM_LOGOUT)", async () => {
    const box = await goipBox();
    // The line still looks ready to the platform (its keepalive said LOGIN) when the send comes.
    box.sim.logout(1);
    const c = await campaign(4, 'Meeting moved to 3 pm');
    const rows = await runUntil(c.id, (r) => r.status === 'delivered');
    expect(rows.every((r) => r.port === '2')).toBe(true);
    expect(box.sim.sent().every((m) => m.line === 2)).toBe(true);
    expect(
      box.sim
        .sent()
        .map((m) => m.number)
        .sort(),
    ).toEqual([...c.numbers].sort());
  });

  it("a number the network refuses fails on every line with the box's words", async () => {
    const box = await goipBox({ failingNumbers: {} });
    const c = await campaign(1, 'Your order shipped');
    box.sim.setFailingNumber(c.numbers[0]!, 21);
    const rows = await runUntil(c.id, (r) => r.status === 'failed');
    expect(rows[0]!.status_reason).toContain('errorstatus:21');
  });
});
