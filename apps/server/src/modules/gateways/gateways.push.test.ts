import type { Gateway, GatewayReport } from '@simdock/contract';
import { GatewaySim, type SimOptions } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArrivingSms, ReportConsumer, SendResult, SmsConsumer, StoredSms } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { recvSmsPush, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { startWorkers } from '../../workers/index.ts';
import { runDuePullCatchUps } from './catchup.service.ts';
import { insertIncomingSmsMany } from './inbox.queries.ts';
import { sampleUptime } from './jobs.ts';
import { LAST_SEEN_EVERY_MS } from './last-seen.ts';

const DEVICE_PW = 'Dev1ce-Pa55-push';

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];
const bodies: string[] = [];
/** Every SMS handed to consumers; the test consumer takes those whose text starts with "take:". */
const handed: StoredSms[] = [];
const testConsumer: SmsConsumer = async (_q, sms) => {
  handed.push(sms);
  return sms.text.startsWith('take:');
};

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  s.ctx.registry.smsConsumers.push(testConsumer);
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test-side convenience for asserting on JSON
async function api<T = Record<string, any>>(path: string, body: unknown, token = admin) {
  const res = await s.post<T>(path, body, token);
  bodies.push(JSON.stringify(res.body));
  return res;
}

/** A simulator added as a gateway and scanned: subscribed to our status and SMS push URLs. */
async function scannedGateway(opts: SimOptions = {}): Promise<{ sim: GatewaySim; gw: Gateway }> {
  const sim = await GatewaySim.start({ ports: 4, password: DEVICE_PW, ...opts });
  sims.push(sim);
  const add = await api<Gateway>('/api/Admin/updateGateway', {
    gateway: {
      name: `push ${sims.length}`,
      url: sim.url,
      mac: sim.mac,
      userName: 'root',
      password: DEVICE_PW,
    },
  });
  expect(add.status).toBe(200);
  const scan = await api<Gateway>('/api/Admin/gatewayScan', { id: add.body.id });
  expect(scan.status).toBe(200);
  // The device sends a first dev-status right after subscribing; let it land.
  await sim.pushesSettled();
  return { sim, gw: scan.body };
}

const gatewayRow = async (id: string) =>
  (
    await s.db.query<{ last_update: Date | null; total_sim: number }>(
      'SELECT last_update, total_sim FROM gateways WHERE id = $1',
      [id],
    )
  )[0]!;
const smsOf = (id: string) =>
  s.db.query<{
    id: string;
    port: string;
    sender: string;
    body: string;
    matched: boolean;
    is_report: boolean;
    iccid: string | null;
  }>(
    'SELECT id, port, sender, body, matched, is_report, iccid FROM incoming_sms WHERE gateway_id = $1 ORDER BY device_ts, body',
    [id],
  );
const report = async (id: string) => (await api<GatewayReport>('/api/Admin/gatewayReport', { id })).body;
const onlineStatus = async (id: string) =>
  ((await api('/api/Admin/getSettings', {})).body.gateways as Gateway[]).find((g) => g.id === id)!
    .onlineStatus;

function push(url: string, body: unknown, contentType = 'application/json') {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
}

const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');

describe('online status', () => {
  it('stays Online while periodic pushes arrive and flips Offline after 3 minutes of silence', async () => {
    const { sim, gw } = await scannedGateway({ pushIntervalMs: 30 });
    expect(await onlineStatus(gw.id)).toBe('Online');
    for (let i = 0; i < 3; i++) {
      s.clock.advance(150_000);
      const now = s.clock.now().getTime();
      // A periodic push refreshes lastUpdate to the (moved) server clock. Waits on that state, not
      // on one push: under load a push sent before the move can land after it, and a loaded
      // machine can delay the 30 ms loop by seconds.
      await waitFor(async () => ((await gatewayRow(gw.id)).last_update?.getTime() ?? 0) >= now, 20_000);
      expect(await onlineStatus(gw.id)).toBe('Online');
    }
    await sim.setFaults({ dropPushes: true });
    await sim.pushesSettled();
    const last = (await gatewayRow(gw.id)).last_update!.getTime();
    s.clock.set(last + 180_000);
    expect(await onlineStatus(gw.id)).toBe('Online');
    s.clock.advance(1000);
    expect(await onlineStatus(gw.id)).toBe('Offline');
    const listed = (await api('/api/Admin/getSettings', {})).body;
    expect(listed.serverTime).toBe(s.clock.now().toISOString());

    // The uptime sampler records the minute once per gateway, as seen on the server clock.
    await sampleUptime(s.ctx);
    expect(await sampleUptime(s.ctx)).toBe(0);
    const [row] = await s.db.query<{ online: boolean }>(
      'SELECT online FROM gateway_uptime WHERE gateway_id = $1',
      [gw.id],
    );
    expect(row!.online).toBe(false);
    await sim.setFaults({ dropPushes: false });
  });

  it('keeps a gateway with traffic Online, writing lastUpdate from its SMS once per window', async () => {
    const { sim, gw } = await scannedGateway({ pushIntervalMs: 3_600_000 });
    const lastUpdate = async () => (await gatewayRow(gw.id)).last_update?.getTime();
    const sms = async (text: string) => {
      sim.injectSms({ port: '1.01', from: '+15550001', text });
      await sim.pushesSettled();
    };
    s.clock.advance(60_000);
    const first = s.clock.now().getTime();
    await sms('take: seen 1');
    expect(await lastUpdate()).toBe(first);
    // Within the window the SMS is stored, and lastUpdate is not written again.
    s.clock.advance(LAST_SEEN_EVERY_MS - 1);
    await sms('take: seen 2');
    expect(await lastUpdate()).toBe(first);
    s.clock.advance(1);
    await sms('take: seen 3');
    expect(await lastUpdate()).toBe(s.clock.now().getTime());
    expect((await smsOf(gw.id)).map((r) => r.body)).toEqual(['take: seen 1', 'take: seen 2', 'take: seen 3']);
    expect(await onlineStatus(gw.id)).toBe('Online');
  });
});

describe('push authentication', () => {
  it('refuses a wrong secret (401) and an unknown gateway (404), logs it without the secret, stores nothing', async () => {
    const { gw } = await scannedGateway();
    const before = await gatewayRow(gw.id);
    s.clock.advance(10_000);
    const sms = {
      type: 'recv-sms',
      sms_num: 1,
      sms: [[0, '1.01', 1_700_000_000, '+15550001', '', b64('take: 1234')]],
    };
    const wrong = gw.pushUrls.sms.replace(/\/[^/]+\/sms$/, '/WrongSecretValue123/sms');
    const unknown = gw.pushUrls.sms.replace(gw.id, '00000000-0000-4000-8000-000000000000');
    const r1 = await push(wrong, sms);
    expect(r1.status).toBe(401);
    expect(r1.body).toMatchObject({ code: 0, error: 'unauthorized' });
    expect((await push(unknown, sms)).status).toBe(404);
    expect((await push(`${s.url}/api/gw/not-a-uuid/abc/status`, {})).status).toBe(404);
    const wrongStatus = gw.pushUrls.status.replace(/\/[^/]+\/status$/, '/WrongSecretValue123/status');
    expect((await push(wrongStatus, { type: 'port-status', port: '1.01', st: 0 })).status).toBe(401);

    expect(await smsOf(gw.id)).toEqual([]);
    expect((await gatewayRow(gw.id)).last_update).toEqual(before.last_update);
    expect((await report(gw.id)).sims.find((x) => x.port === '1.01')!.state).toBe('ready');
    const logs = s.logs.join('\n');
    expect(logs).toContain('device push refused');
    expect(logs).toMatch(/"refused":"unauthorized"/);
    expect(logs).toMatch(/"refused":"gateway_not_found"/);
    expect(logs).not.toContain('WrongSecretValue123');
    const secret = gw.pushUrls.status.split('/').at(-2)!;
    expect(logs).not.toContain(secret);
  });
});

describe('incoming SMS', () => {
  it('stores a duplicated recv-sms once and hands it to the consumers once', async () => {
    const { sim, gw } = await scannedGateway();
    await sim.setFaults({ duplicatePushes: true });
    const before = handed.length;
    sim.injectSms({ port: '2.01', from: '+15557654321', text: 'take: your code is 778899 ✓' });
    await sim.pushesSettled();
    const rows = await smsOf(gw.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      port: '2.01',
      sender: '+15557654321',
      body: 'take: your code is 778899 ✓',
      matched: true,
      is_report: false,
      iccid: sim.slot('2.01')!.iccid,
    });
    const mine = handed.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: rows[0]!.id,
      gatewayId: gw.id,
      port: '2.01',
      simNumber: sim.slot('2.01')!.sn,
      text: 'take: your code is 778899 ✓',
    });
    await sim.setFaults({ duplicatePushes: false });
  });

  it('accepts the plain-text forward and JSON sent as text, and stores receipts without handing them on', async () => {
    const { gw } = await scannedGateway();
    const before = handed.length;
    const text = 'Sender: +15550002222\r\nReceiver: "3.01"\r\n\r\nleave: hello from the web UI forward';
    const q = '?port=3A&sender=%2B15550002222&mac=00-30-f1-00-00-01&iccid=8901';
    expect((await push(gw.pushUrls.sms + q, text, 'application/octet-stream')).body).toEqual({
      code: 200,
      reason: 'OK',
    });
    expect((await push(gw.pushUrls.sms + q, text, 'text/plain')).status).toBe(200);
    const json = {
      type: 'recv-sms',
      sms_num: 2,
      sms: [
        [0, '4B', 1_700_000_100, '+15550003333', '', b64('leave: json as text/plain')],
        [1, '1.01', 1_700_000_200, '+12063130004', '15551112222', '0 23/11/14,22:13:20+00'],
      ],
    };
    expect((await push(gw.pushUrls.sms, JSON.stringify(json), 'text/plain;charset=utf-8')).status).toBe(200);
    const rows = await smsOf(gw.id);
    expect(rows.map((r) => [r.port, r.sender, r.body, r.is_report, r.matched])).toEqual([
      ['4.02', '+15550003333', 'leave: json as text/plain', false, false],
      ['1.01', '+12063130004', '0 23/11/14,22:13:20+00', true, false],
      // The text forward (sent twice within the minute) is one SMS.
      ['3.01', '+15550002222', 'leave: hello from the web UI forward', false, false],
    ]);
    expect(handed.length - before).toBe(2);
    expect(handed.slice(before).every((h) => !h.text.startsWith('0 23/'))).toBe(true);
    expect((await push(gw.pushUrls.sms, { type: 'nonsense' })).status).toBe(400);
  });

  it('runs the same ingestion for the admin simulate control, every time', async () => {
    const { gw } = await scannedGateway();
    const before = handed.length;
    for (let i = 0; i < 2; i++) {
      const res = await api('/api/Admin/simulateSms', {
        gatewayId: gw.id,
        port: '1A',
        from: '+15550009999',
        text: 'take: 4242',
      });
      expect(res.body).toEqual({ code: 1, msg: 'SMS received on port 1.01.' });
    }
    expect((await smsOf(gw.id)).map((r) => [r.port, r.body, r.matched])).toEqual([
      ['1.01', 'take: 4242', true],
      ['1.01', 'take: 4242', true],
    ]);
    expect(handed.length - before).toBe(2);
    expect(
      (await api('/api/Admin/simulateSms', { gatewayId: gw.id, port: 'zz', from: 'x', text: 'y' })).status,
    ).toBe(400);
  });

  it('keeps the SMS when a consumer throws', async () => {
    const { gw } = await scannedGateway();
    const boom: SmsConsumer = async (q) => {
      await q.query(`UPDATE gateways SET name = 'changed by a failing consumer' WHERE id = $1`, [gw.id]);
      await q.defer(`UPDATE gateways SET name = 'deferred by a failing consumer' WHERE id = $1`, [gw.id]);
      throw new Error('consumer exploded');
    };
    s.ctx.registry.smsConsumers.unshift(boom);
    try {
      await api('/api/Admin/simulateSms', {
        gatewayId: gw.id,
        port: '1.01',
        from: '+1555',
        text: 'take: after boom',
      });
    } finally {
      s.ctx.registry.smsConsumers.splice(s.ctx.registry.smsConsumers.indexOf(boom), 1);
    }
    expect((await smsOf(gw.id)).map((r) => [r.body, r.matched])).toEqual([['take: after boom', true]]);
    // Its writes were rolled back to the savepoint, the deferred one too.
    expect((await report(gw.id)).gateway.name).not.toMatch(/by a failing consumer/);
    expect(s.logs.join('\n')).toContain('consumer exploded');
  });
});

describe('incoming SMS arriving together (group commit)', () => {
  it('stores every SMS of many concurrent pushes once, in one go, and hands each on once', async () => {
    const [a, b] = [await scannedGateway(), await scannedGateway()];
    const before = handed.length;
    const at = new Date(Date.now() - 60_000);
    const pushes = [];
    for (let i = 0; i < 12; i++) {
      const { gw } = i % 2 ? a : b;
      pushes.push(push(gw.pushUrls.sms, recvSmsPush('1.01', `take: together ${i}`, at)));
    }
    // The same SMS pushed twice at once (a device's duplicate): stored once.
    pushes.push(push(a.gw.pushUrls.sms, recvSmsPush('2.01', 'take: twice', at)));
    pushes.push(push(a.gw.pushUrls.sms, recvSmsPush('2.01', 'take: twice', at)));
    const answers = await Promise.all(pushes);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const rows = [...(await smsOf(a.gw.id)), ...(await smsOf(b.gw.id))];
    expect(rows.map((r) => r.body).sort()).toEqual(
      [...Array(12).keys()]
        .map((i) => `take: together ${i}`)
        .concat('take: twice')
        .sort(),
    );
    expect(rows.every((r) => r.matched)).toBe(true);
    const mine = handed.slice(before);
    expect(mine.map((m) => m.text).sort()).toEqual(rows.map((r) => r.body).sort());
    // Each row carries its own port's SIM.
    expect(mine.find((m) => m.text === 'take: twice')).toMatchObject({
      gatewayId: a.gw.id,
      simNumber: a.sim.slot('2.01')!.sn,
    });
    expect((await gatewayRow(a.gw.id)).last_update).not.toBeNull();
  });

  it("issues a consumer's reads ahead with the SMS's insert, in its transaction, before handing it on", async () => {
    const { gw } = await scannedGateway();
    const seen: string[] = [];
    const reads: Promise<{ n: number }[]>[] = [];
    let arrived: ArrivingSms[] = [];
    const reader: SmsConsumer = Object.assign(
      async (_q: Queryable, sms: StoredSms) => {
        seen.push(`handed ${sms.text}`);
        // The read went out after the insert, in the same transaction: it sees the uncommitted row.
        expect(await reads.shift()).toEqual([{ n: 1 }]);
        expect(arrived).toEqual([
          { gatewayId: gw.id, port: '3.01', receivedAt: sms.receivedAt, deviceTs: sms.deviceTs },
        ]);
        return false;
      },
      {
        readAhead: (q: Queryable, arriving: readonly ArrivingSms[]) => {
          seen.push('read ahead');
          arrived = [...arriving];
          reads.push(
            q.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM incoming_sms WHERE gateway_id = $1 AND port = $2',
              [gw.id, '3.01'],
            ),
          );
        },
      },
    );
    s.ctx.registry.smsConsumers.unshift(reader);
    const at = new Date(Date.now() - 30_000);
    try {
      expect((await push(gw.pushUrls.sms, recvSmsPush('3.01', 'read me ahead', at))).status).toBe(200);
    } finally {
      s.ctx.registry.smsConsumers.splice(s.ctx.registry.smsConsumers.indexOf(reader), 1);
    }
    expect(seen).toEqual(['read ahead', 'handed read me ahead']);
    // The device's own time: what the matching needs to know which rentals the SMS may go to.
    expect(arrived[0]?.deviceTs).toBe(Math.floor(at.getTime() / 1000));
  });

  it('inserts a batch in one statement: new rows with their SIM, known and repeated keys left out', async () => {
    const { sim, gw } = await scannedGateway();
    const row = (port: string, key: string) => ({
      gatewayId: gw.id,
      port,
      iccid: null,
      sender: '+1555',
      recipient: null,
      body: `batch ${key}`,
      isReport: false,
      deviceTs: 1_700_000_000,
      receivedAt: new Date(),
      dedupeKey: `batch-test:${gw.id}:${key}`,
    });
    await insertIncomingSmsMany(s.db, [row('1.01', 'known')]);
    const got = await insertIncomingSmsMany(s.db, [
      row('1.01', 'a'),
      row('2.01', 'known'),
      row('2.01', 'b'),
      row('3.01', 'a'),
      row('9.01', 'c'),
    ]);
    expect([...got.keys()].map((k) => k.split(':').at(-1)).sort()).toEqual(['a', 'b', 'c']);
    expect(got.get(`batch-test:${gw.id}:a`)).toMatchObject({
      sim_number: sim.slot('1.01')!.sn,
      iccid: sim.slot('1.01')!.iccid,
    });
    expect(got.get(`batch-test:${gw.id}:b`)).toMatchObject({ sim_number: sim.slot('2.01')!.sn });
    // A port without a SIM row: stored all the same, without a SIM.
    expect(got.get(`batch-test:${gw.id}:c`)).toMatchObject({ sim_id: null, sim_number: null, iccid: null });
    expect((await smsOf(gw.id)).map((r) => [r.port, r.body])).toEqual([
      ['1.01', 'batch a'],
      ['2.01', 'batch b'],
      ['9.01', 'batch c'],
      ['1.01', 'batch known'],
    ]);
  });

  it('does not let one failing SMS lose the others pushed with it', async () => {
    const { gw } = await scannedGateway();
    const boom: SmsConsumer = async (q, sms) => {
      if (!sms.text.includes('poison')) return false;
      await q.defer(`UPDATE gateways SET name = 'deferred by a failing consumer' WHERE id = $1`, [gw.id]);
      throw new Error('poisoned SMS');
    };
    s.ctx.registry.smsConsumers.unshift(boom);
    const at = new Date(Date.now() - 60_000);
    try {
      const answers = await Promise.all(
        ['take: first', 'take: poison', 'take: third', 'take: fourth'].map((text, i) =>
          push(gw.pushUrls.sms, recvSmsPush(`${(i % 4) + 1}.01`, text, at)),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      s.ctx.registry.smsConsumers.splice(s.ctx.registry.smsConsumers.indexOf(boom), 1);
    }
    const rows = await smsOf(gw.id);
    expect(rows.map((r) => [r.body, r.matched]).sort()).toEqual([
      ['take: first', true],
      ['take: fourth', true],
      ['take: poison', true],
      ['take: third', true],
    ]);
    expect((await report(gw.id)).gateway.name).not.toMatch(/failing consumer/);
  });
});

describe('SIM inventory from pushes', () => {
  it('drops the number when the card is swapped or removed, and counts SIMs present', async () => {
    const { sim, gw } = await scannedGateway();
    const before = (await report(gw.id)).sims.find((x) => x.port === '3.01')!;
    expect(before).toMatchObject({ number: sim.slot('3.01')!.sn, numberSource: 'device' });

    sim.swapSim('3.01');
    await sim.pushesSettled();
    const swapped = (await report(gw.id)).sims.find((x) => x.port === '3.01')!;
    expect(swapped.iccid).toBe(sim.slot('3.01')!.iccid);
    expect(swapped.iccid).not.toBe(before.iccid);
    expect(swapped).toMatchObject({ number: null, numberSource: null, state: 'ready' });

    sim.removeSim('4.01');
    await sim.pushesSettled();
    const r = await report(gw.id);
    expect(r.sims.find((x) => x.port === '4.01')).toMatchObject({
      state: 'empty',
      iccid: null,
      number: null,
    });
    expect(r.gateway.totalSIM).toBe(3);

    // A manual number follows its card (by ICCID) out of the slot and back in.
    await api('/api/Admin/setSimNumber', { gatewayId: gw.id, port: '3.01', number: '12025550123' });
    await sim.pushesSettled();
    sim.removeSim('3.01');
    await sim.pushesSettled();
    expect((await report(gw.id)).sims.find((x) => x.port === '3.01')!.number).toBeNull();
    sim.insertSim('3.01', { sn: '' });
    await sim.pushesSettled();
    expect((await report(gw.id)).sims.find((x) => x.port === '3.01')).toMatchObject({
      number: '12025550123',
      numberSource: 'manual',
    });
  });

  it('refuses a dev-status from another MAC and accepts a port-status without a type', async () => {
    const { gw } = await scannedGateway();
    const foreign = {
      type: 'dev-status',
      mac: '02-00-00-00-00-99',
      'max-ports': 1,
      'max-slot': 1,
      status: [{ port: '1.01', st: 0 }],
    };
    const res = await push(gw.pushUrls.status, foreign);
    expect(res.status).toBe(409);
    expect((await report(gw.id)).gateway.totalSIM).toBe(4);
    expect(
      (await push(gw.pushUrls.status, { port: '2B', st: '3 OK', iccid: '8901999', sn: '15550000042' }))
        .status,
    ).toBe(200);
    expect((await report(gw.id)).sims.find((x) => x.port === '2.02')).toMatchObject({
      state: 'ready',
      number: '15550000042',
    });
    expect((await push(gw.pushUrls.status, 'not json', 'text/plain')).status).toBe(400);
  });
});

describe('status reports', () => {
  it('sets lastUpdate and hands the parsed report over', async () => {
    const { gw } = await scannedGateway();
    const got: [string, SendResult[]][] = [];
    const consumer: ReportConsumer = async (_ctx, id, results) => void got.push([id, results]);
    s.ctx.registry.reportConsumers.push(consumer);
    try {
      s.clock.advance(5_000);
      const res = await push(gw.pushUrls.report, {
        type: 'status-report',
        rpt_num: 1,
        rpts: [
          {
            tid: 7,
            sending: 0,
            sent: 1,
            failed: 0,
            unsent: 0,
            sdr: [[0, '15550001111', '1.01', 1_700_000_000]],
            fdr: [
              [1, '15550002222', '1.02', 1_700_000_001, '6 Timeout', '21 Short message transfer rejected'],
            ],
          },
        ],
      });
      expect(res.body).toEqual({ code: 200, reason: 'OK' });
    } finally {
      s.ctx.registry.reportConsumers.splice(s.ctx.registry.reportConsumers.indexOf(consumer), 1);
    }
    expect((await gatewayRow(gw.id)).last_update!.getTime()).toBe(s.clock.now().getTime());
    // In the platform's words: a success, and a failure this SIM is to blame for (6 Timeout).
    expect(got).toEqual([
      [
        gw.id,
        [
          { tid: 7, outcome: 'delivered', number: '15550001111', port: '1.01', deviceText: '' },
          {
            tid: 7,
            outcome: 'sim_cannot_send',
            number: '15550002222',
            port: '1.02',
            deviceText: '6 Timeout; 21 Short message transfer rejected',
          },
        ],
      ],
    ]);
  });
});

describe('pull catch-up', () => {
  it('recovers SMS injected while pushes were dropped, across a device reboot', async () => {
    const { sim, gw } = await scannedGateway();
    await sim.setFaults({ dropPushes: true });
    sim.injectSms({ port: '1.01', from: '+15551110001', text: 'take: missed one', ts: 1_700_000_001 });
    sim.injectSms({ port: '2.01', from: '+15551110002', text: 'take: missed two', ts: 1_700_000_002 });
    expect(await smsOf(gw.id)).toEqual([]);

    s.clock.advance(61_000);
    await runDuePullCatchUps(s.ctx);
    expect((await smsOf(gw.id)).map((r) => [r.port, r.body, r.matched])).toEqual([
      ['1.01', 'take: missed one', true],
      ['2.01', 'take: missed two', true],
    ]);
    // Not due again within the minute; overlap with pushes is harmless anyway.
    sim.injectSms({ port: '3.01', from: '+15551110003', text: 'take: missed three', ts: 1_700_000_003 });
    await runDuePullCatchUps(s.ctx);
    expect(await smsOf(gw.id)).toHaveLength(2);

    // A reboot empties the inbox and restarts its ids under a new ssrc.
    await sim.reboot(20);
    sim.injectSms({ port: '4.01', from: '+15551110004', text: 'take: after reboot', ts: 1_700_000_004 });
    s.clock.advance(61_000);
    await runDuePullCatchUps(s.ctx);
    expect((await smsOf(gw.id)).map((r) => r.body)).toEqual([
      'take: missed one',
      'take: missed two',
      'take: after reboot',
    ]);
    const [pos] = await s.db.query<{ sms_ssrc: string; sms_next_id: number }>(
      'SELECT sms_ssrc, sms_next_id FROM gateways WHERE id = $1',
      [gw.id],
    );
    expect(pos).toEqual({ sms_ssrc: sim.ssrc, sms_next_id: 2 });

    // Scan runs the catch-up too; pushes that then arrive as well are deduplicated.
    sim.injectSms({ port: '1.01', from: '+15551110005', text: 'take: via scan', ts: 1_700_000_005 });
    await sim.setFaults({ dropPushes: false, duplicatePushes: true });
    expect((await api('/api/Admin/gatewayScan', { id: gw.id })).status).toBe(200);
    sim.injectSms({ port: '1.01', from: '+15551110006', text: 'take: pushed', ts: 1_700_000_006 });
    await sim.pushesSettled();
    s.clock.advance(61_000);
    await runDuePullCatchUps(s.ctx);
    expect((await smsOf(gw.id)).map((r) => r.body)).toEqual([
      'take: missed one',
      'take: missed two',
      'take: after reboot',
      'take: via scan',
      'take: pushed',
    ]);
    await sim.setFaults({ duplicatePushes: false });
  });
});

describe('workers', () => {
  it('start and stop cleanly', async () => {
    const stop = await startWorkers(s.ctx);
    await stop();
  });
});

describe('secrets', () => {
  it('never returns or logs the gateway password', () => {
    expect(bodies.join('\n')).not.toContain(DEVICE_PW);
    expect(s.logs.join('\n')).not.toContain(DEVICE_PW);
  });
});
