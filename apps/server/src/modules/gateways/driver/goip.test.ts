import { endpoints } from '@simdock/contract';
import { GoipSim } from '@simdock/goip-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredSms } from '../../../context.ts';
import { seal } from '../../../crypto.ts';
import { waitFor } from '../../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { datagramPorts } from '../datagram-ports.ts';
import { insertGateway } from '../gateways.queries.ts';
import { markSilentLines } from '../inventory.service.ts';
import type { DatagramAddress } from './driver.ts';
import { goipGatewayOfLogin, lineOfLogin } from './goip.ts';

// A simulated GoIP box (its own reading of the protocol, tools/goip-sim) registers its lines with
// the platform's UDP port: keepalives authenticated by each line's ID and password fill the SIM
// inventory, and incoming SMS reach the same inbox as every other device's, whole and once.

let s: TestServer;
let port: DatagramAddress;
let gatewayId: string;
const boxes: GoipSim[] = [];
const handed: StoredSms[] = [];

beforeAll(async () => {
  s = await startTestServer();
  s.ctx.registry.smsConsumers.push(async (_q, sms) => {
    handed.push(sms);
    return false;
  });
  const gw = await insertGateway(s.db, {
    name: 'GoIP-4 on the roof',
    url: 'udp://goip',
    mac: null,
    userName: 'goip',
    isEnable: true,
    driver: 'goip',
    externalId: null,
    mode: null,
    passwordEnc: seal(s.ctx.config.APP_SECRET, 'line-pw-1'),
    signingKeyEnc: null,
    pushSecret: 'unused-for-datagrams',
    createdAt: new Date(),
  });
  gatewayId = gw!.id;
  // The server's own GoIP port (GOIP_UDP_PORT; a free one in tests), once its listener holds it.
  const bound = await waitFor(async () => datagramPorts(s.ctx).get('goip'));
  port = { address: '127.0.0.1', port: bound.localPort };
});
afterAll(async () => {
  for (const b of boxes) await b.stop();
  await s.close();
});

async function box(opts: Partial<Parameters<typeof GoipSim.start>[0]>) {
  const b = await GoipSim.start({
    server: { host: port.address, port: port.port },
    keepaliveMs: 100,
    reportRetryMs: 150,
    // A loaded machine may take longer than the box's default three re-sends to answer.
    reportResends: 20,
    deliverMs: null,
    ...opts,
  });
  boxes.push(b);
  return b;
}

describe('logins', () => {
  it("line n of a box registers as the box's ID followed by n; the longest box ID wins", () => {
    expect(lineOfLogin('goip', 'goip3')).toBe(3);
    expect(lineOfLogin('goip', 'goip')).toBe(1);
    expect(lineOfLogin('goip', 'goip0')).toBeUndefined();
    expect(lineOfLogin('goip', 'goipx')).toBeUndefined();
    const gateways = [
      { id: 'a', userName: 'goip' },
      { id: 'b', userName: 'goip1' },
    ];
    expect(goipGatewayOfLogin('goip12', gateways)).toBe('b');
    expect(goipGatewayOfLogin('goip7', gateways)).toBe('a');
    expect(goipGatewayOfLogin('other1', gateways)).toBeUndefined();
  });
});

describe('a GoIP box on the platform', () => {
  let sim: GoipSim;

  it("its lines' keepalives are answered and fill the SIM inventory with each SIM's identity", async () => {
    sim = await box({ lines: 2, idPrefix: 'goip', password: 'line-pw-1', seed: 5 });
    await waitFor(async () => sim.lines().every((l) => l.registered), 5000);
    const rows = await waitFor(async () => {
      const r = await s.db.query<{
        port: string;
        number: string | null;
        imsi: string | null;
        iccid: string | null;
        imei: string | null;
        operator: string | null;
        signal: number | null;
      }>(
        'SELECT port, number, imsi, iccid, imei, operator, signal FROM sims WHERE gateway_id = $1 ORDER BY port',
        [gatewayId],
      );
      return r.length === 2 ? r : undefined;
    });
    expect(rows).toEqual(
      [1, 2].map((n) => {
        const spec = sim.line(n).sim;
        return {
          port: String(n),
          number: spec.number,
          imsi: spec.imsi,
          iccid: spec.iccid,
          imei: spec.imei,
          operator: spec.carrier,
          signal: spec.signal,
        };
      }),
    );
  });

  it('an SMS with ";", ":", capitals and Unicode is stored whole, once, though the box sent it again', async () => {
    const text = 'Your Telegram code: 48213; do NOT share it ✓ Ünïcødé';
    sim.ignoreAcks(1); // the first acknowledgement is lost: the box sends the same RECEIVE again
    const r = sim.receiveSms(2, { from: '+15557654321', text });
    expect(await r.done).toBe(true);
    expect(r.state.sends).toBe(2);
    await waitFor(async () => handed.some((h) => h.text === text));
    const mine = handed.filter((h) => h.gatewayId === gatewayId && h.sender === '+15557654321');
    expect(mine.map((h) => [h.port, h.text, h.simNumber])).toEqual([['2', text, sim.line(2).sim.number]]);
  });

  it("an incoming call's RECORD is answered and kept", async () => {
    const r = sim.call(1, '+15550001111');
    expect(await r.done).toBe(true);
    const calls = await waitFor(async () => {
      const rows = await s.db.query(
        'SELECT port, direction, number FROM device_calls WHERE gateway_id = $1',
        [gatewayId],
      );
      return rows.length > 0 ? rows : undefined;
    });
    expect(calls).toEqual([{ port: '1', direction: 'incoming', number: '+15550001111' }]);
  });

  it('a line with a wrong password gets no ok and stores nothing', async () => {
    const intruder = await box({ lines: 1, ids: ['goip3'], password: 'not-the-password', seed: 9 });
    await waitFor(async () => intruder.line(1).keepalives >= 3, 5000);
    expect(intruder.line(1).registered).toBe(false);
    expect(intruder.line(1).lastAnswer).toBeNull();
    const rows = await s.db.query('SELECT 1 FROM sims WHERE gateway_id = $1 AND port = $2', [gatewayId, '3']);
    expect(rows).toEqual([]);
    expect(s.logs.join('\n')).toContain('wrong password');
  });
});

describe('a line that falls silent', () => {
  it('is neither rented nor sent from after three missed keepalives, and is back with its next one', async () => {
    const sim = await box({ lines: 2, ids: ['goip5', 'goip6'], password: 'line-pw-1', seed: 13 });
    await waitFor(async () => sim.lines().every((l) => l.registered), 5000);
    const stateOf = async (port: string) =>
      (
        await s.db.query<{ state: string }>('SELECT state FROM sims WHERE gateway_id = $1 AND port = $2', [
          gatewayId,
          port,
        ])
      )[0]?.state;
    sim.silence(2);
    // A keepalive of line 6 already on its way is applied before the clock moves.
    await new Promise((r) => setTimeout(r, 300));
    s.clock.advance(101_000);
    // Line 5 reports again at the new time; line 6 stays quiet.
    const seen = sim.line(1).keepalives;
    await waitFor(async () => sim.line(1).keepalives > seen + 1);
    // The job may have run first: what counts is the state it leaves.
    await markSilentLines(s.ctx);
    expect(await stateOf('6')).toBe('unknown');
    expect(await stateOf('5')).toBe('ready');
    sim.silence(2, false);
    await waitFor(async () => (await stateOf('6')) === 'ready', 5000);
  });
});

describe('USSD from a GoIP line (Gateway Manager: "Check balance")', () => {
  it("answers the network's reply through the admin API and keeps it on the SIM (audited)", async () => {
    const admin = await s.adminToken();
    const sim = await box({ lines: 1, ids: ['goip4'], password: 'line-pw-1', seed: 11, ussdMs: 50 });
    await waitFor(async () => sim.line(1).registered, 5000);
    const res = await s.api(endpoints.sim.ussd, {
      body: { gatewayId, port: '4', code: '*100#' },
      token: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.msg).toBe('Your balance is 12.50 USD');
    expect(res.body.sim.ussd).toMatchObject({ code: '*100#', reply: 'Your balance is 12.50 USD' });
    const report = await s.api(endpoints.gateway.report, { body: { id: gatewayId }, token: admin });
    expect(report.body.sims.find((x) => x.port === '4')?.ussd?.reply).toBe('Your balance is 12.50 USD');
    // The box closed the menu after the reply, and got the code once.
    expect(sim.packets(1).filter((p) => p.dir === 'in' && p.text.startsWith('USSD ')).length).toBe(1);
    expect(sim.packets(1).some((p) => p.dir === 'in' && p.text.startsWith('USSDEXIT '))).toBe(true);
    const audit = await s.db.query<{ after: { code: string } }>(
      "SELECT after FROM audit_log WHERE kind = 'gateway.simUssd' ORDER BY at DESC LIMIT 1",
    );
    expect(audit[0]?.after.code).toBe('*100#');
  });

  it("a code the network does not know comes back as a 503 with the box's words; a bad code is a 400", async () => {
    const admin = await s.adminToken();
    const unknown = await s.api(endpoints.sim.ussd, {
      body: { gatewayId, port: '4', code: '*999#' },
      token: admin,
    });
    expect(unknown.status).toBe(503);
    expect(unknown.body.msg).toContain('Unknown USSD code');
    const bad = await s.api(endpoints.sim.ussd, {
      body: { gatewayId, port: '4', code: 'balance' },
      token: admin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('*100#');
  });
});
