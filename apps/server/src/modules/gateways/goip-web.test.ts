import { endpoints } from '@simdock/contract';
import { GoipSim, type GoipSimOptions } from '@simdock/goip-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addService, waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { dispatchOnce } from '../messaging/index.ts';
import { runDuePullCatchUps } from './catchup.service.ts';
import { datagramPorts } from './datagram-ports.ts';
import { markSilentLines } from './inventory.service.ts';

// A GoIP box whose lines cannot reach SimDock (tools/goip-sim with `udp: false`): SimDock reads and
// sends through the box's web pages. A Scan fills the SIMs from status.xml, a renter's code comes
// through the inbox poll, bulk SMS go out through send.html, and no line is taken for silent.

let s: TestServer;
let admin: string;
const boxes: GoipSim[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '600', SMS_LEASE_SECONDS: '30' } });
  admin = await s.adminToken();
  await s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    token: admin,
  });
  await addService(s.db, { code: 'tgw', name: 'Telegram', textContains: 'Telegram', pattern: '(\\d{5})' });
});
// Each test starts with no gateway: an earlier test's box would take sends and rentals too.
afterEach(async () => {
  for (const b of boxes.splice(0)) await b.stop();
  await s.db.query('UPDATE gateways SET is_enable = false');
});
afterAll(async () => {
  await s.close();
});

let seq = 0;
async function webBox(opts: Partial<GoipSimOptions> = {}) {
  seq += 1;
  const sim = await GoipSim.start({
    udp: false,
    lines: 2,
    sendMs: 20,
    seed: 40 + seq,
    httpUser: 'boxadmin',
    httpPassword: 'box-web-pw',
    ...opts,
  });
  boxes.push(sim);
  const boxId = `web${seq}x`;
  const gateway = {
    name: `GoIP web ${seq}`,
    kind: 'goip' as const,
    mode: 'web' as const,
    url: sim.url,
    userName: boxId,
    password: 'line-pw',
    webUser: 'boxadmin',
    webPassword: 'box-web-pw',
  };
  const add = await s.api(endpoints.gateway.update, { body: { gateway }, token: admin });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const id = String(add.body.id);
  return { sim, id, gateway };
}

/** Scan through the admin API, then give each line's SIM its number (the status page has none). */
async function scanned(box: Awaited<ReturnType<typeof webBox>>) {
  const scan = await s.api(endpoints.gateway.scan, { body: { id: box.id }, token: admin });
  expect(scan.status, JSON.stringify(scan.body)).toBe(200);
  for (const l of box.sim.lines()) {
    if (!l.sim.inserted) continue;
    const set = await s.api(endpoints.sim.setNumber, {
      body: { gatewayId: box.id, port: String(l.line), number: l.sim.number },
      token: admin,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
}

const simsOf = (gatewayId: string) =>
  s.db.query<{ port: string; state: string; operator: string | null }>(
    'SELECT port, state, operator FROM sims WHERE gateway_id = $1 ORDER BY port',
    [gatewayId],
  );

describe('a GoIP box read through its web pages', () => {
  it('is stored with its mode and web login (the password never returned); bad forms are 400s', async () => {
    const box = await webBox();
    const list = await s.api(endpoints.gateway.getSettings, { token: admin });
    const gw = list.body.gateways.find((g) => g.id === box.id)!;
    expect(gw).toMatchObject({ kind: 'goip', mode: 'web', webUser: 'boxadmin', hasWebPassword: true });
    expect(JSON.stringify(list.body)).not.toContain('box-web-pw');

    const refused = async (over: Record<string, unknown>, field: string, message: RegExp) => {
      const res = await s.api(endpoints.gateway.update, {
        rawBody: { gateway: { ...box.gateway, userName: `other${seq}`, ...over } },
        token: admin,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
      expect(JSON.stringify(res.body)).toMatch(message);
    };
    await refused({ mode: 'cloud' }, 'mode', /GoIP box's connection is udp/);
    await refused({ webUser: '' }, 'webUser', /enter all fields/i);
    await refused({ url: '' }, 'url', /enter all fields/i);
    await refused({ webPassword: '' }, 'webPassword', /password of the box's web login/);
    await refused({ mode: 'bogus' }, 'mode', /./);
    const phone = await s.api(endpoints.gateway.update, {
      body: {
        gateway: {
          name: 'Pixel',
          kind: 'smsgate',
          mode: 'web',
          url: 'http://10.0.0.9:8080',
          userName: 'u',
          password: 'p',
        },
      },
      token: admin,
    });
    expect(phone.status).toBe(400);
    expect(JSON.stringify(phone.body)).toMatch(/phone's mode is local, cloud or private/);

    // An edit that leaves the web password blank keeps it: the Scan still gets in.
    const edit = await s.api(endpoints.gateway.update, {
      body: { gateway: { ...box.gateway, id: box.id, webPassword: '', password: '' } },
      token: admin,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body).toMatchObject({ hasWebPassword: true, mode: 'web' });
    expect((await s.api(endpoints.gateway.scan, { body: { id: box.id }, token: admin })).status).toBe(200);
  });

  it('a wrong web password fails the Scan with a 503 a person can act on, naming no password', async () => {
    const box = await webBox();
    await s.api(endpoints.gateway.update, {
      body: { gateway: { ...box.gateway, id: box.id, webPassword: 'not-the-one' } },
      token: admin,
    });
    const scan = await s.api(endpoints.gateway.scan, { body: { id: box.id }, token: admin });
    expect(scan.status).toBe(503);
    expect(JSON.stringify(scan.body)).toMatch(/Web login and Web password/);
    expect(JSON.stringify(scan.body)).not.toContain('not-the-one');
    // The 10 s poll fails the same way: one warning a minute, not one per pass.
    const warnings = () =>
      s.logs.filter((l) => l.includes('SMS catch-up failed') && l.includes(box.id)).length;
    for (let i = 0; i < 4; i++) {
      await runDuePullCatchUps(s.ctx);
      s.clock.advance(11_000);
    }
    expect(warnings()).toBe(1);
    s.clock.advance(20_000);
    await runDuePullCatchUps(s.ctx);
    expect(warnings()).toBe(2);
  });

  it("a Scan fills the SIMs; a renter's code arrives through the inbox poll, once", async () => {
    const box = await webBox({ sims: [{ carrier: 'Viettel Mobile' }, {}] });
    await scanned(box);
    expect(await simsOf(box.id)).toEqual([
      { port: '1', state: 'ready', operator: 'Viettel Mobile' },
      { port: '2', state: 'ready', operator: expect.any(String) },
    ]);

    const user = await s.createUser({ balance: 5 });
    const order = await s.api(endpoints.order.create, { body: { serviceCode: 'tgw' }, token: user.token });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const number = order.body.data!.phoneNumber as string;
    const line = box.sim.lines().find((l) => l.sim.number === number)!.line;
    box.sim.receiveSms(line, { from: 'Telegram', text: 'Telegram code: 54321; do NOT share it, ever' });

    // The catch-up job's pass (every 5 s in a server); this box is due again 10 s later.
    await runDuePullCatchUps(s.ctx);
    const codeOf = async () => {
      const list = await s.api(endpoints.order.getByUser, { token: user.token });
      return list.body.orders.find((o: { id: string }) => o.id === order.body.data!.id)?.codeText;
    };
    expect(await codeOf()).toBe('54321');
    const due = await s.db.query<{ due: Date }>('SELECT sms_pull_due AS due FROM gateways WHERE id = $1', [
      box.id,
    ]);
    expect(due[0]!.due.getTime() - s.clock.now().getTime()).toBeLessThanOrEqual(10_000);

    // Read again (the inbox still holds it): nothing stored twice.
    s.clock.advance(11_000);
    await runDuePullCatchUps(s.ctx);
    const stored = await s.db.query('SELECT 1 FROM incoming_sms WHERE gateway_id = $1', [box.id]);
    expect(stored).toHaveLength(1);

    // Its lines report nothing by themselves, and are not taken for silent.
    s.clock.advance(150_000);
    await markSilentLines(s.ctx);
    expect((await simsOf(box.id)).map((r) => r.state)).toEqual(['ready', 'ready']);
  });

  it('a box whose clock runs 5 hours behind UTC (local time): a code that comes after a read still reaches the renter', async () => {
    const box = await webBox({ clockOffsetMs: -5 * 3600_000 });
    await scanned(box);
    // The first read finds the inbox empty: what comes next is recent, dated by the platform.
    await runDuePullCatchUps(s.ctx);
    const user = await s.createUser({ balance: 5 });
    const order = await s.api(endpoints.order.create, { body: { serviceCode: 'tgw' }, token: user.token });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const number = order.body.data!.phoneNumber as string;
    const line = box.sim.lines().find((l) => l.sim.number === number)!.line;
    box.sim.receiveSms(line, { from: 'Telegram', text: 'Telegram code: 61820' });
    s.clock.advance(11_000);
    await runDuePullCatchUps(s.ctx);
    const list = await s.api(endpoints.order.getByUser, { token: user.token });
    const mine = list.body.orders.find((o: { id: string }) => o.id === order.body.data!.id);
    expect(mine?.codeText).toBe('61820');
  });

  it('a box whose clock was set back still has its new SMS read, each stored once', async () => {
    const box = await webBox();
    await scanned(box);
    // The last SMS read was dated an hour ahead of the box's clock now (a reboot without NTP).
    const ahead = Math.floor(Date.now() / 1000) + 3600;
    await s.db.query('UPDATE gateways SET sms_next_id = $2 WHERE id = $1', [box.id, ahead]);
    box.sim.receiveSms(1, { from: 'Bank', text: 'Your OTP is 99887' });
    for (let i = 0; i < 2; i++) {
      await s.db.query('UPDATE gateways SET sms_pull_due = NULL WHERE id = $1', [box.id]);
      await runDuePullCatchUps(s.ctx);
    }
    const stored = await s.db.query<{ body: string }>('SELECT body FROM incoming_sms WHERE gateway_id = $1', [
      box.id,
    ]);
    expect(stored.map((r) => r.body)).toEqual(['Your OTP is 99887']);
    // The position never moves back.
    const [row] = await s.db.query<{ next: number }>(
      'SELECT sms_next_id AS next FROM gateways WHERE id = $1',
      [box.id],
    );
    expect(row!.next).toBe(ahead);
  });

  it('bulk SMS go out through send.html; a refused number moves to the other SIM, then fails', async () => {
    const box = await webBox();
    await scanned(box);
    const user = await s.createUser({ balance: 50 });
    const numbers = ['15550107701', '15550107702', '15550107703'];
    const refused = '15550107709';
    box.sim.setFailingNumber(refused, 21);
    const text = 'Sale: 20% off; code SPRING, today only ✓';
    const res = await s.api(endpoints.outreach.sendMassSms, {
      body: { number: [...numbers, refused].join('\n'), mess: text },
      token: user.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const campaignId = res.body.data!.campaignId as string;
    type Row = { recipient: string; status: string; status_reason: string | null };
    const rows = () =>
      s.db.query<Row>(
        'SELECT recipient, status, status_reason FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
        [campaignId],
      );
    let final: Row[] = [];
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline) {
      await dispatchOnce(s.ctx);
      final = await rows();
      // Handed over is `sent` at once (the platform holds the send); the box's ERROR comes later.
      const settled = final.find((r) => r.recipient === refused)?.status === 'failed';
      if (settled && box.sim.sent().length === numbers.length && final.every((r) => r.status !== 'queued'))
        break;
      await new Promise((r) => setTimeout(r, 50));
      s.clock.advance(1000);
      // Kept online as its status poll would (the poll runs every 10 s in a server).
      await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [box.id, s.clock.now()]);
    }
    expect(final.filter((r) => r.recipient !== refused).every((r) => r.status === 'sent')).toBe(true);
    const bad = final.find((r) => r.recipient === refused)!;
    expect(bad.status).toBe('failed');
    expect(bad.status_reason).toContain('errorstatus:21');
    const sent = box.sim.sent();
    expect(sent.map((m) => m.number).sort()).toEqual(numbers);
    expect(sent.every((m) => m.text === text && m.via === 'http')).toBe(true);
  });

  it("USSD is refused with the driver's sentence", async () => {
    const box = await webBox();
    await scanned(box);
    const res = await s.api(endpoints.sim.ussd, {
      body: { gatewayId: box.id, port: '1', code: '*101#' },
      token: admin,
    });
    expect(res.status).not.toBe(200);
    expect(JSON.stringify(res.body)).toMatch(/USSD needs the box's lines to connect over UDP/);
  });

  it('a box whose lines connect over UDP is scanned through its web pages when its web login is stored, keeping what the lines said', async () => {
    const port = await waitFor(async () => datagramPorts(s.ctx).get('goip'));
    seq += 1;
    const boxId = `udp${seq}x`;
    const sim = await GoipSim.start({
      server: { host: '127.0.0.1', port: port.localPort },
      lines: 2,
      idPrefix: boxId,
      password: 'line-pw',
      keepaliveMs: 200,
      deliverMs: null,
      seed: 90,
      httpUser: 'boxadmin',
      httpPassword: 'box-web-pw',
    });
    boxes.push(sim);
    const gateway = {
      name: `GoIP udp ${seq}`,
      kind: 'goip' as const,
      url: '',
      userName: boxId,
      password: 'line-pw',
    };
    const add = await s.api(endpoints.gateway.update, { body: { gateway }, token: admin });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ mode: 'udp', webUser: null, hasWebPassword: false });
    const id = String(add.body.id);
    const known = () =>
      s.db.query<{ port: string; number: string | null; iccid: string | null; state: string }>(
        'SELECT port, number, iccid, state FROM sims WHERE gateway_id = $1 ORDER BY port',
        [id],
      );
    await waitFor(async () => (await known()).filter((r) => r.state === 'ready').length === 2);
    const before = await known();
    // Without a web login there is nothing to read: its lines report themselves.
    const refused = await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
    expect(refused.status).toBe(503);
    expect(JSON.stringify(refused.body)).toMatch(/report themselves/);

    const edit = await s.api(endpoints.gateway.update, {
      body: { gateway: { ...gateway, id, url: sim.url, webUser: 'boxadmin', webPassword: 'box-web-pw' } },
      token: admin,
    });
    expect(edit.status).toBe(200);
    const scan = await s.api(endpoints.gateway.scan, { body: { id }, token: admin });
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    // The status page names no card: the numbers and ICCIDs the keepalives gave are kept.
    expect(await known()).toEqual(before);
    expect(before.every((r) => r.number !== null && r.iccid !== null)).toBe(true);
  });
});
