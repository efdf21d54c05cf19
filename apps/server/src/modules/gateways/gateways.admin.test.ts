import {
  type EndpointBody,
  type EndpointDeclaration,
  endpoints,
  type Gateway,
  ruleMessages,
} from '@simdock/contract';
import { GatewaySim, type SimOptions } from '@simdock/gateway-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { addService, waitFor } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';

const DEVICE_PW = 'Dev1ce-Pa55-admin';
const OTHER_PW = 'An0ther-Dev1ce-Pw';

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];
/** Every response body, to prove no password ever leaves the server. */
const bodies: string[] = [];

serverWithAdmin((t) => {
  ({ s, admin } = t);
});
// Runs before the server closes (vitest runs after-hooks in reverse).
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
});

/** Keeps every answer's body: the last test holds that none of them carries a password. */
function recorded<R extends { body: unknown }>(res: R): R {
  bodies.push(JSON.stringify(res.body));
  return res;
}

async function api<E extends EndpointDeclaration>(endpoint: E, body?: EndpointBody<E>, token = admin) {
  return recorded(await s.api(endpoint, { body, token }));
}

const colonUpper = (mac: string) => mac.replace(/-/g, ':').toUpperCase();

async function startSim(opts: SimOptions = {}): Promise<GatewaySim> {
  const sim = await GatewaySim.start({ ports: 4, password: DEVICE_PW, ...opts });
  sims.push(sim);
  return sim;
}

async function addGateway(sim: GatewaySim, extra: Record<string, unknown> = {}): Promise<Gateway> {
  const res = await api(endpoints.gateway.update, {
    gateway: {
      name: `gw ${sims.length}`,
      url: sim.url,
      mac: colonUpper(sim.mac),
      userName: 'root',
      password: DEVICE_PW,
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return res.body;
}

const scan = (id: string) => api(endpoints.gateway.scan, { id });
const report = async (id: string) => (await api(endpoints.gateway.report, { id })).body;

describe('add and scan', () => {
  it('stores the gateway, scans its SIMs and subscribes the device to our push URLs', async () => {
    const sim = await startSim();
    const gw = await addGateway(sim, { name: '  Rack A  ' });
    expect(gw).toMatchObject({
      name: 'Rack A',
      url: sim.url,
      mac: sim.mac.replace(/-/g, ':'),
      userName: 'root',
      isEnable: true,
      totalSIM: 0,
      lastUpdate: null,
      onlineStatus: 'Offline',
    });
    expect(gw).not.toHaveProperty('password');
    const base = `${s.url}/api/gw/${gw.id}/`;
    expect(gw.pushUrls.status).toMatch(new RegExp(`^${base}[\\w-]{20,}/status$`));
    expect(gw.pushUrls.sms).toBe(gw.pushUrls.status.replace(/status$/, 'sms'));
    expect(gw.pushUrls.report).toBe(gw.pushUrls.status.replace(/status$/, 'report'));

    const scanned = await scan(gw.id);
    expect(scanned.status).toBe(200);
    expect(scanned.body).toMatchObject({
      id: gw.id,
      totalSIM: 4,
      onlineStatus: 'Online',
      lastUpdate: s.clock.now().toISOString(),
    });
    expect(sim.statusUrl).toBe(gw.pushUrls.status);
    expect(sim.period).toBe(60);
    expect(sim.smsUrl).toBe(gw.pushUrls.sms);

    const r = await report(gw.id);
    expect(r.gateway.id).toBe(gw.id);
    expect(r.sims).toHaveLength(4);
    expect(r.sims[0]).toEqual({
      port: '1.01',
      iccid: sim.slot('1.01')!.iccid,
      imsi: sim.slot('1.01')!.imsi,
      number: sim.slot('1.01')!.sn,
      numberSource: 'device',
      operator: sim.slot('1.01')!.opr,
      signal: sim.slot('1.01')!.sig,
      state: 'ready',
      stateText: 'Registered',
      usable: true,
      role: 'both',
      lock: { locked: false, kind: null, reason: null, since: null, until: null, by: null },
      health: {
        sentToday: 0,
        sentThisMonth: 0,
        failed: 0,
        consecutiveFailures: 0,
        received: 0,
        rentalsToday: 0,
        lastSuccess: null,
        atCap: null,
      },
      ussd: null,
      // The simulator's default carrier: its IMSI tells the country.
      origin: { country: 'US', operator: 'T-Mobile', source: 'imsi', corrected: false },
    });

    const list = await api(endpoints.gateway.getSettings);
    expect(list.body.serverTime).toBe(s.clock.now().toISOString());
    expect(list.body.gateways.find((g: Gateway) => g.id === gw.id)).toMatchObject({
      totalSIM: 4,
      onlineStatus: 'Online',
    });
  });

  it('copes with max-slots spelling, text st and several slots per port', async () => {
    const sim = await startSim({ ports: 3, slots: 2 });
    await sim.setFaults({ maxSlotsSpelling: 'max-slots', stFormat: 'text' });
    sim.removeSim('2.02');
    const gw = await addGateway(sim);
    expect((await scan(gw.id)).body.totalSIM).toBe(5);
    const r = await report(gw.id);
    expect(r.sims.map((x) => [x.port, x.state, x.usable])).toEqual([
      ['1.01', 'ready', true],
      ['1.02', 'starting', false],
      ['2.01', 'ready', true],
      ['2.02', 'empty', false],
      ['3.01', 'ready', true],
      ['3.02', 'starting', false],
    ]);
    expect(r.sims[3]).toMatchObject({ iccid: null, number: null, numberSource: null, stateText: 'No SIM' });
  });

  it('answers 503 with a message a person can act on when the device does not answer', async () => {
    const sim = await startSim();
    const gw = await addGateway(sim);
    await sim.setFaults({ offline: true });
    const res = await scan(gw.id);
    expect(res.status).toBe(503);
    expect(res.body.msg).toMatch(
      /^Gateway did not answer: connection refused\. Check that the device is powered on/,
    );
    await sim.setFaults({ offline: false, http500: true });
    expect((await scan(gw.id)).body.msg).toMatch(/^Gateway did not answer: HTTP 500 from the device/);
    await sim.setFaults({ http500: false });
    expect((await scan(gw.id)).status).toBe(200);
  });

  it("refuses to take the SIMs of a device whose MAC is not the gateway's", async () => {
    const sim = await startSim();
    const gw = await addGateway(sim, { mac: '02:00:00:00:00:01' });
    const res = await scan(gw.id);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain(`reports the MAC address ${sim.mac.replace(/-/g, ':')}`);
    expect((await report(gw.id)).sims).toEqual([]);
  });

  it('answers 404 for an unknown gateway id', async () => {
    for (const endpoint of [endpoints.gateway.scan, endpoints.gateway.report, endpoints.gateway.delete]) {
      expect((await api(endpoint, { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      expect((await api(endpoint, { id: 'not-a-uuid' })).status).toBe(404);
    }
  });
});

describe('validation', () => {
  const valid = {
    name: 'Valid',
    url: 'http://10.0.0.5',
    mac: 'aa-bb-cc-dd-ee-01',
    userName: 'root',
    password: 'x1',
  };

  it.each([
    ['a blank name', { name: '  ' }, 'name'],
    ['a URL that does not parse', { url: 'not a url' }, 'url'],
    ['a non-http URL', { url: 'ftp://10.0.0.5' }, 'url'],
    ['an invalid MAC', { mac: 'aa:bb:cc:dd:ee' }, 'mac'],
    ['a MAC with mixed separators', { mac: 'aa:bb-cc:dd:ee:ff' }, 'mac'],
    ['a blank user name', { userName: '' }, 'userName'],
  ])('refuses %s with the spec message', async (_what, patch, field) => {
    const res = await api(endpoints.gateway.update, { gateway: { ...valid, ...patch } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', msg: ruleMessages.gatewayInvalid, field });
  });

  it('requires a password on add', async () => {
    for (const password of [undefined, '', '   ']) {
      const res = await api(endpoints.gateway.update, { gateway: { ...valid, password } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'password', msg: 'Password is required for a new gateway.' });
    }
  });

  it('normalises the MAC and refuses a duplicate in any spelling with 409', async () => {
    const first = await api(endpoints.gateway.update, {
      gateway: { ...valid, mac: 'AABBCCDDEE10' },
    });
    expect(first.body.mac).toBe('aa:bb:cc:dd:ee:10');
    const dup = await api(endpoints.gateway.update, {
      gateway: { ...valid, name: 'Dup', mac: 'aa-bb-cc-dd-ee-10' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ field: 'mac', msg: expect.stringContaining('aa:bb:cc:dd:ee:10') });
    const other = await api(endpoints.gateway.update, {
      gateway: { ...valid, mac: 'aa:bb:cc:dd:ee:11' },
    });
    const clash = await api(endpoints.gateway.update, {
      gateway: { ...valid, id: other.body.id, mac: 'AA:BB:CC:DD:EE:10', password: '' },
    });
    expect(clash.status).toBe(409);
    // Editing a gateway with its own MAC is not a clash.
    const same = await api(endpoints.gateway.update, {
      gateway: { ...valid, id: other.body.id, name: 'Renamed', password: '' },
    });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe('Renamed');
  });

  it('answers 404 when editing a gateway that does not exist', async () => {
    const res = await api(endpoints.gateway.update, {
      gateway: { ...valid, mac: 'aa:bb:cc:dd:ee:12', id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(404);
  });
});

describe('edit', () => {
  it('keeps the stored password when the edit leaves it blank, and uses a new one when given', async () => {
    const sim = await startSim();
    const gw = await addGateway(sim);
    const edited = await api(endpoints.gateway.update, {
      gateway: {
        id: gw.id,
        name: 'Edited',
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: '',
        isEnable: false,
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: gw.id, name: 'Edited', isEnable: false });
    expect((await scan(gw.id)).status).toBe(200);
    // Absent counts as blank too.
    await api(endpoints.gateway.update, {
      gateway: { id: gw.id, name: 'Edited', url: sim.url, mac: sim.mac, userName: 'root' },
    });
    expect((await scan(gw.id)).status).toBe(200);

    await api(endpoints.gateway.update, {
      gateway: {
        id: gw.id,
        name: 'Edited',
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: OTHER_PW,
      },
    });
    const refused = await scan(gw.id);
    expect(refused.status).toBe(503);
    expect(refused.body.msg).toMatch(/refused the user name or password.*Check the User Name and Password/);

    const [row] = await s.db.query<{ password_enc: string }>(
      'SELECT password_enc FROM gateways WHERE id = $1',
      [gw.id],
    );
    expect(row!.password_enc).toMatch(/^v1\./);
    expect(row!.password_enc).not.toContain(OTHER_PW);
  });
});

describe('SIM numbers', () => {
  it('sets a number by hand, writes it to the device, and keeps it over the device sn', async () => {
    const sim = await startSim({ ports: 4, slots: 2 });
    const gw = await addGateway(sim);
    await scan(gw.id);
    const res = await api(endpoints.sim.setNumber, {
      gatewayId: gw.id,
      port: '3A',
      number: '+1 (202) 555-0199',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 1,
      deviceUpdated: true,
      sim: { port: '3.01', number: '+12025550199', numberSource: 'manual' },
    });
    // sim_number(n) with n = (3-1)*2 + (1-1) = 4 landed on the right slot.
    expect(sim.slot('3.01')!.sn).toBe('+12025550199');
    expect(sim.slot('2.02')!.sn).not.toBe('+12025550199');

    // The device later reports another sn for the same card: the manual number stays.
    sim.insertSim('3.01', { sn: '19998887777' });
    await sim.pushesSettled();
    await scan(gw.id);
    expect((await report(gw.id)).sims.find((x) => x.port === '3.01')).toMatchObject({
      number: '+12025550199',
      numberSource: 'manual',
    });
  });

  it('refuses a bad number, a bad port, an empty slot and an unknown port', async () => {
    const sim = await startSim({ ports: 2 });
    sim.removeSim('2.01');
    const gw = await addGateway(sim);
    await scan(gw.id);
    const set = (port: string, number: string) =>
      api(endpoints.sim.setNumber, { gatewayId: gw.id, port, number });
    expect((await set('1.01', 'call me')).body).toMatchObject({ field: 'number' });
    expect((await set('x', '12025550100')).body).toMatchObject({ field: 'port' });
    expect((await set('2.01', '12025550100')).status).toBe(409);
    expect((await set('9.01', '12025550100')).status).toBe(404);
  });

  it('keeps the number when the device cannot store it, and says so', async () => {
    const sim = await startSim({ ports: 2 });
    const gw = await addGateway(sim);
    await scan(gw.id);
    await sim.setFaults({ http500: true });
    const res = await api(endpoints.sim.setNumber, {
      gatewayId: gw.id,
      port: '1.01',
      number: '12025550111',
    });
    await sim.setFaults({ http500: false });
    expect(res.body).toMatchObject({
      code: 1,
      deviceUpdated: false,
      sim: { number: '12025550111', numberSource: 'manual' },
    });
    expect(res.body.msg).toMatch(/did not store it: HTTP 500/);
  });
});

describe('device statistics', () => {
  it('counts the orders of the gateway per service, by MAC in any spelling', async () => {
    const sim = await startSim({ ports: 2 });
    const gw = await addGateway(sim);
    await scan(gw.id);
    const tg = await addService(s.db, { code: `tg${Date.now()}`, name: 'Telegram' });
    const wa = await addService(s.db, { code: `wa${Date.now()}`, name: 'WhatsApp' });
    const u = await s.createUser();
    const statuses: [string, string][] = [
      [tg, 'WAIT_CODE'],
      [tg, 'SUCCESS'],
      [tg, 'SUCCESS'],
      [tg, 'CANCEL'],
      [wa, 'CANCEL'],
    ];
    for (const [i, [svc, status]] of statuses.entries()) {
      await s.db.query(
        `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                             phone_number, price, status, created_at, expires_at)
         SELECT $1, $2, code, name, $3, 'x', '1.01', $4, 1, $5, now(), now() FROM services WHERE id = $2`,
        [u.id, svc, gw.id, `1555123${String(i).padStart(4, '0')}`, status],
      );
    }
    const res = await api(endpoints.order.deviceStats, { mac: sim.mac.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mac: sim.mac.replace(/-/g, ':'),
      name: gw.name,
      totalSIM: 2,
      serviceStatss: [
        { name: 'Telegram', using: 1, used: 4, success: 2 },
        { name: 'WhatsApp', using: 0, used: 1, success: 0 },
      ],
    });
    expect((await api(endpoints.order.deviceStats, { mac: gw.id })).body.mac).toBe(gw.mac);

    // Deleting is refused while an order waits for a code.
    const refused = await api(endpoints.gateway.delete, { id: gw.id });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/1 order waiting for a code\. Disable it/);
    await s.db.query(`UPDATE orders SET status = 'CANCEL' WHERE gateway_id = $1`, [gw.id]);
    const deleted = await api(endpoints.gateway.delete, { id: gw.id });
    expect(deleted.body).toEqual({ code: 1, msg: 'Gateway deleted.' });
    // Order history survives; the device is asked to stop pushing.
    const [n] = await s.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE gateway_name = $1',
      ['x'],
    );
    expect(n!.n).toBeGreaterThanOrEqual(5);
    await waitFor(async () => sim.statusUrl === undefined);
    expect((await api(endpoints.order.deviceStats, { mac: sim.mac })).status).toBe(404);
  });

  it('answers an empty list for a gateway without orders', async () => {
    const sim = await startSim({ ports: 1 });
    const gw = await addGateway(sim);
    expect((await api(endpoints.order.deviceStats, { mac: gw.mac })).body).toEqual({
      mac: gw.mac,
      name: gw.name,
      totalSIM: 0,
      serviceStatss: [],
    });
    expect((await api(endpoints.order.deviceStats, { mac: 'ff:ff:ff:ff:ff:fe' })).status).toBe(404);
  });
});

describe('access', () => {
  it('gives a User 403 on every gateway admin route', async () => {
    const u = await s.createUser();
    for (const endpoint of [
      endpoints.gateway.getSettings,
      endpoints.gateway.update,
      endpoints.gateway.delete,
      endpoints.gateway.scan,
      endpoints.gateway.report,
      endpoints.order.deviceStats,
      endpoints.sim.setNumber,
      endpoints.sim.simulateSms,
    ]) {
      // The role is checked before the body: an empty one is enough.
      expect(recorded(await s.api(endpoint, { rawBody: {}, token: u.token })).status, endpoint.path).toBe(
        403,
      );
      expect((await s.api(endpoint, { rawBody: {} })).status, endpoint.path).toBe(401);
    }
  });

  it('never returns or logs a gateway password', async () => {
    await api(endpoints.gateway.getSettings);
    const all = bodies.join('\n');
    const logs = s.logs.join('\n');
    for (const pw of [DEVICE_PW, OTHER_PW]) {
      expect(all).not.toContain(pw);
      expect(logs).not.toContain(pw);
    }
    expect(all).not.toMatch(/"password(_enc)?"\s*:/i);
  });
});
