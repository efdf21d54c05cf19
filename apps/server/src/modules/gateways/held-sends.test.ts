import { GoipSim } from '@simdock/goip-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../context.ts';
import { seal } from '../../crypto.ts';
import { waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { datagramPorts } from './datagram-ports.ts';
import { insertGateway } from './gateways.queries.ts';
import { startHeldSends } from './held-sends.ts';
import { sendSmsTasks } from './sending.service.ts';

// The sends the platform holds for a GoIP box, below the messaging module: held at once in any
// process, run by the holder of the port at most five sessions per box at a time (the box refuses
// a sixth), and settled as sent (never sent again) when the holder stopped in the middle of one.

let s: TestServer;
const reports: SendResult[] = [];
const boxes: GoipSim[] = [];
let seq = 0;

beforeAll(async () => {
  s = await startTestServer();
  s.ctx.registry.reportConsumers.push(async (_ctx, _gw, results) => {
    reports.push(...results);
  });
});
afterAll(async () => {
  for (const b of boxes) await b.stop();
  await s.close();
});

async function goipBox(lines: number, opts: Partial<Parameters<typeof GoipSim.start>[0]> = {}) {
  seq += 1;
  const id = `held${seq}x`;
  const gw = await insertGateway(s.db, {
    name: `GoIP ${seq}`,
    url: '',
    mac: null,
    userName: id,
    isEnable: true,
    driver: 'goip',
    externalId: id,
    mode: null,
    passwordEnc: seal(s.ctx.config.APP_SECRET, 'pw'),
    signingKeyEnc: null,
    pushSecret: `unused-${seq}`,
    createdAt: new Date(),
  });
  const bound = await waitFor(async () => datagramPorts(s.ctx).get('goip'));
  const box = await GoipSim.start({
    server: { host: '127.0.0.1', port: bound.localPort },
    lines,
    idPrefix: id,
    password: 'pw',
    keepaliveMs: 200,
    deliverMs: null,
    seed: seq,
    ...opts,
  });
  boxes.push(box);
  await waitFor(async () => box.lines().every((l) => l.registered), 10_000);
  return { box, gatewayId: gw!.id };
}

let tid = 5000;

describe('held sends', () => {
  it('runs at most five sessions on a box at once, so the box never refuses one as busy', async () => {
    const { box, gatewayId } = await goipBox(8, { sendMs: 300, waitRepeatMs: 0 });
    const tasks = Array.from({ length: 8 }, (_, i) => ({
      tid: ++tid,
      to: `1555020${String(i).padStart(4, '0')}`,
      sms: 'Doors open at 9',
      from: String(i + 1),
    }));
    const answer = await sendSmsTasks(s.ctx, gatewayId, tasks);
    expect(answer).toMatchObject({ ok: true });
    expect(answer.ok && answer.outcomes.every((o) => o.outcome === 'accepted')).toBe(true);
    await waitFor(async () => tasks.every((t) => reports.some((r) => r.tid === t.tid)), 15_000);
    expect(tasks.map((t) => reports.find((r) => r.tid === t.tid)?.outcome)).toEqual(tasks.map(() => 'sent'));
    expect(
      box
        .sent()
        .map((m) => [m.line, m.number])
        .sort(),
    ).toEqual(tasks.map((t) => [Number(t.from), t.to]).sort());
    const refused = box
      .lines()
      .flatMap((l) => box.packets(l.line).filter((p) => p.dir === 'out' && / BUSY$/.test(p.text)));
    expect(refused).toEqual([]);
  });

  it('a task handed over twice is held once; a send a stopped holder left mid-session counts as sent, never again', async () => {
    const { gatewayId } = await goipBox(1, { sendMs: 50 });
    const task = { tid: ++tid, to: '15550209999', sms: 'Once only', from: '1' };
    await sendSmsTasks(s.ctx, gatewayId, [task]);
    await sendSmsTasks(s.ctx, gatewayId, [task]);
    const rows = await s.db.query('SELECT 1 FROM gateway_outbox WHERE tid = $1', [task.tid]);
    expect(rows).toHaveLength(1);
    await waitFor(async () => reports.find((r) => r.tid === task.tid), 10_000);

    // Another process held the port and was in the middle of a session when it died.
    const orphan = ++tid;
    await s.db.query(
      `INSERT INTO gateway_outbox (gateway_id, tid, port, recipient, body, state, attempts, not_before, created_at, updated_at)
       VALUES ($1, $2, '1', '15550208888', 'Left mid-session', 'sending', 1, now(), now(), now())`,
      [gatewayId, orphan],
    );
    // The process that takes the port over settles it before it sends anything.
    const stop = startHeldSends(s.ctx, 'goip', datagramPorts(s.ctx).get('goip')!);
    try {
      const settled = await waitFor(async () => reports.find((r) => r.tid === orphan), 10_000);
      expect(settled).toMatchObject({
        outcome: 'sent',
        number: '15550208888',
        deviceText: 'the server stopped during the send',
      });
      const after = await s.db.query<{ state: string }>('SELECT state FROM gateway_outbox WHERE tid = $1', [
        orphan,
      ]);
      expect(after[0]?.state).toBe('sent');
    } finally {
      await stop();
    }
  });
});
