import { endpoints, type Gateway } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';
import { runDuePullCatchUps } from './catchup.service.ts';
import { ingestIncomingSms } from './inbox.service.ts';

// Device and admin input that PostgreSQL would refuse (NUL, lone surrogates, numbers past a
// column's range) must never lose a batch, stall the catch-up or break Scan.
const DEVICE_PW = 'Dev1ce-Pa55-robust';

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];

serverWithAdmin((t) => {
  ({ s, admin } = t);
});
// Runs before the server closes (vitest runs after-hooks in reverse).
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
});

async function scannedGateway(): Promise<{ sim: GatewaySim; gw: Gateway }> {
  const sim = await GatewaySim.start({ ports: 4, password: DEVICE_PW });
  sims.push(sim);
  const add = await s.api(endpoints.gateway.update, {
    body: {
      gateway: {
        name: `robust ${sims.length}`,
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: DEVICE_PW,
      },
    },
    token: admin,
  });
  expect(add.status).toBe(200);
  const scan = await s.api(endpoints.gateway.scan, { body: { id: add.body.id }, token: admin });
  expect(scan.status).toBe(200);
  await sim.pushesSettled();
  return { sim, gw: scan.body };
}

const bodiesOf = async (gatewayId: string) =>
  (
    await s.db.query<{ body: string; sender: string; device_ts: string | null }>(
      'SELECT body, sender, device_ts FROM incoming_sms WHERE gateway_id = $1 ORDER BY received_at, body',
      [gatewayId],
    )
  ).map((r) => r.body);

function push(url: string, body: unknown, contentType = 'application/json') {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
}
const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');

describe('SMS text PostgreSQL refuses', () => {
  it('stores every SMS of a pushed batch, cleaned, when one holds NUL or a lone surrogate', async () => {
    const { gw } = await scannedGateway();
    const res = await push(gw.pushUrls.sms, {
      type: 'recv-sms',
      sms: [
        [0, '1.01', 1_700_000_010, '+15550000001', '', b64('code\u0000 1234')],
        [0, '1.01', 1_700_000_011, '+15550000002', '', b64('fine 5678')],
      ],
    });
    expect(res.status).toBe(200);
    const v3 = await push(gw.pushUrls.sms, {
      type: 'received-sms',
      smses: [{ port: 2, slot: 1, ts: 1_700_000_012, from: '+1555\u00000003', sms: 'lone \ud800 half' }],
    });
    expect(v3.status).toBe(200);
    expect((await bodiesOf(gw.id)).sort()).toEqual(['code 1234', 'fine 5678', 'lone \ufffd half']);
  });

  it('moves the pull catch-up past such an SMS, and Scan keeps answering', async () => {
    const { sim, gw } = await scannedGateway();
    await sim.setFaults({ dropPushes: true });
    sim.injectSms({ port: '1.01', from: '+15551110001', text: 'bad\u0000one', ts: 1_700_000_101 });
    sim.injectSms({ port: '2.01', from: '+15551110002', text: 'good one', ts: 1_700_000_102 });
    s.clock.advance(61_000);
    await runDuePullCatchUps(s.ctx);
    expect((await bodiesOf(gw.id)).sort()).toEqual(['badone', 'good one']);
    const [pos] = await s.db.query<{ sms_next_id: number }>(
      'SELECT sms_next_id FROM gateways WHERE id = $1',
      [gw.id],
    );
    expect(pos!.sms_next_id).toBe(3);
    expect((await s.api(endpoints.gateway.scan, { body: { id: gw.id }, token: admin })).status).toBe(200);
    await sim.setFaults({ dropPushes: false });
  });

  it('ignores device numbers past any column (timestamps of 1e308, huge signals)', async () => {
    const { sim, gw } = await scannedGateway();
    const sms = await push(gw.pushUrls.sms, {
      type: 'recv-sms',
      sms: [[0, '3.01', 1e308, '+15550000009', '', b64('far future')]],
    });
    expect(sms.status).toBe(200);
    const [row] = await s.db.query<{ device_ts: string | null }>(
      'SELECT device_ts FROM incoming_sms WHERE gateway_id = $1',
      [gw.id],
    );
    expect(row!.device_ts).toBeNull();
    const status = await push(gw.pushUrls.status, {
      type: 'dev-status',
      mac: sim.mac,
      'max-ports': 1e308,
      'max-slot': '99999999999999999999',
      status: [
        { port: '1.01', st: 3, sig: 1e308, iccid: 'ic\u0000cid', opr: 'op\ud800', sn: '+15550001111' },
      ],
    });
    expect(status.status).toBe(200);
  });
});

describe('one row the database refuses', () => {
  it('is skipped and logged; the rest of the batch is stored', async () => {
    const { gw } = await scannedGateway();
    const sms = (text: string, ts: number) => ({
      gatewayId: gw.id,
      port: '1.01',
      isReport: false,
      ts,
      sender: '+15550004444',
      recipient: null,
      text,
    });
    // A device time past bigint: nothing in the parsers lets it through, so it stands for any row
    // PostgreSQL refuses.
    const res = await ingestIncomingSms(s.ctx, [
      sms('first', 1_700_000_001),
      sms('refused', 1e30),
      sms('third', 1_700_000_003),
    ]);
    expect(res).toMatchObject({ failed: 1, duplicates: 0 });
    expect(res.stored).toHaveLength(2);
    expect((await bodiesOf(gw.id)).sort()).toEqual(['first', 'third']);
    expect(s.logs.some((l) => l.includes('incoming SMS not stored'))).toBe(true);
  });
});

describe('the plain-text forward (no device time)', () => {
  it('is stored once when the device repeats it a minute later, and again after the window', async () => {
    const { gw } = await scannedGateway();
    const text = 'Sender: +15550002222\nReceiver: "3.01"\n\nYour code is 4242';
    const q = '?port=3A&sender=%2B15550002222';
    expect((await push(gw.pushUrls.sms + q, text, 'text/plain')).status).toBe(200);
    s.clock.advance(65_000);
    expect((await push(gw.pushUrls.sms + q, text, 'text/plain')).status).toBe(200);
    s.clock.advance(5 * 60_000);
    expect((await push(gw.pushUrls.sms + q, text, 'text/plain')).status).toBe(200);
    expect(await bodiesOf(gw.id)).toEqual(['Your code is 4242']);
    // A different text is a different SMS at once.
    expect((await push(gw.pushUrls.sms + q, text.replace('4242', '4343'), 'text/plain')).status).toBe(200);
    // The same text well after the window is a new SMS.
    s.clock.advance(60 * 60_000);
    expect((await push(gw.pushUrls.sms + q, text, 'text/plain')).status).toBe(200);
    expect(await bodiesOf(gw.id)).toEqual(['Your code is 4242', 'Your code is 4343', 'Your code is 4242']);
  });

  it('stores parallel copies of one forward once', async () => {
    const { gw } = await scannedGateway();
    const text = 'Sender: +15550007777\n\nparallel copy';
    const q = '?port=2A';
    const res = await Promise.all(
      Array.from({ length: 8 }, () => push(gw.pushUrls.sms + q, text, 'text/plain')),
    );
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(await bodiesOf(gw.id)).toEqual(['parallel copy']);
  });
});

describe('the admin simulate control', () => {
  it('refuses NUL and over-long text with a 400 and stores nothing', async () => {
    const { gw } = await scannedGateway();
    const nul = await s.api(endpoints.sim.simulateSms, {
      body: { gatewayId: gw.id, port: '1.01', from: '+1555', text: 'a\u0000b' },
      token: admin,
    });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 0, error: 'bad_input', field: 'text' });
    expect(nul.body.msg).toMatch(/NUL/);
    const long = await s.api(endpoints.sim.simulateSms, {
      body: { gatewayId: gw.id, port: '1.01', from: '+1555', text: 'x'.repeat(1001) },
      token: admin,
    });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('Text must be at most 1000 characters.');
    expect(await bodiesOf(gw.id)).toEqual([]);
  });
});
