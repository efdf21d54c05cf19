import { endpoints, type Sim } from '@simdock/contract';
import { GatewaySim, type SimOptions } from '@simdock/gateway-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { dispatchOnce } from '../messaging/index.ts';
import { recordSimOutcomes, sendableSims, usableSims } from './index.ts';

// SIM health over real HTTP and the simulator's real protocol: automatic locks after failed sends
// (and their messages moving to other SIMs), cooldown, device-reported blocks, manual locks with
// audit, day and month caps, roles, and the settings that drive them.

let s: TestServer;
let admin: string;
let user: { id: string; token: string; username: string; password: string };
const sims: GatewaySim[] = [];

const SIM_DEFAULTS = {
  SimMaxSmsPerDay: 0,
  SimMaxSmsPerMonth: 0,
  SimLockAfterFailures: 5,
  SimCooldownMinutes: 60,
};
const settings = (sim: Partial<typeof SIM_DEFAULTS> = {}) =>
  s.api(endpoints.settings.update, {
    body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000, ...SIM_DEFAULTS, ...sim },
    token: admin,
  });

beforeAll(async () => {
  s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '60', SMS_LEASE_SECONDS: '30' } });
  admin = await s.adminToken();
  user = await s.createUser({ balance: 100 });
  expect((await settings()).status).toBe(200);
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
  await s.close();
});
/** Sign-ins last 24 h of the test clock: after a jump in time, sign in again. */
async function signInAgain() {
  admin = await s.adminToken();
  user.token = await s.login(user.username, user.password);
}

afterEach(async () => {
  await Promise.all(sims.splice(0).map((x) => x.stop()));
  await signInAgain();
  await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE status IN ('queued', 'sending', 'sent')`);
  await s.db.query(`UPDATE orders SET status = 'CANCEL' WHERE status = 'WAIT_CODE'`);
  await s.db.query('UPDATE gateways SET is_enable = false');
  await settings();
});

let seq = 0;
async function gateway(opts: SimOptions = {}): Promise<{ sim: GatewaySim; id: string }> {
  const sim = await GatewaySim.start({ ports: 4, sendDelayMs: 5, ...opts });
  sims.push(sim);
  seq += 1;
  const add = await s.api(endpoints.gateway.update, {
    body: {
      gateway: { name: `health ${seq}`, url: sim.url, mac: sim.mac, userName: 'root', password: 'root' },
    },
    token: admin,
  });
  expect(add.status).toBe(200);
  expect((await s.api(endpoints.gateway.scan, { body: { id: add.body.id }, token: admin })).status).toBe(200);
  await sim.pushesSettled();
  return { sim, id: add.body.id };
}

let numberSeq = 18000000000;
async function campaign(n: number): Promise<string> {
  const numbers = Array.from({ length: n }, () => String(++numberSeq));
  const res = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: 'Hi' },
    token: user.token,
  });
  expect(res.status).toBe(200);
  return res.body.data!.campaignId;
}

const statuses = (campaignId: string) =>
  s.db.query<{ status: string; port: string | null; attempt: number }>(
    'SELECT status, port, attempt FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
    [campaignId],
  );

/** Dispatcher ticks, one simulated second apart, until every message is final (or `ticks` ran). */
async function run(campaignId: string, ticks = 40): Promise<{ status: string; port: string | null }[]> {
  let rows = await statuses(campaignId);
  for (let i = 0; i < ticks; i++) {
    await dispatchOnce(s.ctx);
    for (const x of sims) await x.pushesSettled();
    rows = await statuses(campaignId);
    if (rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
    // The simulated seconds pass faster than the device's status pushes: keep the gateways online.
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE is_enable', [s.clock.now()]);
  }
  return rows;
}

async function simsOf(gatewayId: string): Promise<Map<string, Sim>> {
  const res = await s.api(endpoints.gateway.report, { body: { id: gatewayId }, token: admin });
  expect(res.status).toBe(200);
  return new Map((res.body.sims as Sim[]).map((x) => [x.port, x]));
}

async function simId(gatewayId: string, port: string): Promise<string> {
  const [row] = await s.db.query<{ id: string }>('SELECT id FROM sims WHERE gateway_id = $1 AND port = $2', [
    gatewayId,
    port,
  ]);
  return row!.id;
}

describe('automatic locks', () => {
  it('locks a SIM after SimLockAfterFailures failed sends; its messages go out through the other SIMs', async () => {
    expect((await settings({ SimLockAfterFailures: 2, SimCooldownMinutes: 5 })).status).toBe(200);
    const gw = await gateway();
    // The network refuses every send of port 1 (the real protocol's fdr "6 Timeout").
    gw.sim.setOutcome(({ port }) => (port === '1.01' ? 'fail' : 'ok'));
    const c = await campaign(10);
    const rows = await run(c);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    expect(rows.some((r) => r.port === '1.01')).toBe(false);
    // Port 1 was tried twice (plus at most one send already handed over when the second result
    // came back), then never again.
    const onPort1 = gw.sim
      .sentTasks()
      .flatMap((t) => t.results)
      .filter((r) => r.port === '1.01');
    expect(onPort1.length).toBeGreaterThanOrEqual(2);
    expect(onPort1.length).toBeLessThanOrEqual(3);

    const report = await simsOf(gw.id);
    const bad = report.get('1.01')!;
    expect(bad.lock).toMatchObject({ locked: true, kind: 'auto' });
    expect(bad.lock.reason).toMatch(/^[23] failed sends in a row$/);
    expect(new Date(bad.lock.until!).getTime() - new Date(bad.lock.since!).getTime()).toBe(5 * 60_000);
    expect(bad.health).toMatchObject({
      failed: onPort1.length,
      sentToday: onPort1.length,
      lastSuccess: null,
    });
    expect(bad.health.consecutiveFailures).toBeGreaterThanOrEqual(2);
    const good = report.get('2.01')!;
    expect(good.lock.locked).toBe(false);
    expect(good.health.sentToday).toBeGreaterThan(0);
    expect(good.health.lastSuccess).not.toBeNull();
    expect(good.health.consecutiveFailures).toBe(0);

    // A locked SIM is not rented either.
    const bad1 = await simId(gw.id, '1.01');
    expect((await usableSims(s.db, s.clock.now(), 'US')).some((x) => x.id === bad1)).toBe(false);
    expect((await sendableSims(s.db, s.clock.now())).some((x) => x.id === bad1)).toBe(false);
    // Overview and metrics count it.
    const overview = await s.api(endpoints.overview.get, { token: admin });
    expect(overview.body.simsLocked).toBeGreaterThanOrEqual(1);
    const metrics = await fetch(`${s.url}/metrics`);
    expect(await metrics.text()).toMatch(/simdock_sims_locked [1-9]/);

    // A chat reply pinned to a locked SIM is refused, naming why.
    const [conv] = await s.db.query<{ id: string; port: string }>(
      `SELECT id::text AS id, port FROM conversations WHERE user_id = $1 AND gateway_id = $2 AND sim_id IS NOT NULL
        ORDER BY id LIMIT 1`,
      [user.id, gw.id],
    );
    const locked = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: conv!.port, reason: 'Spam report' },
      token: admin,
    });
    expect(locked.status).toBe(200);
    const reply = await s.api(endpoints.livechat.reply, {
      body: { conversationId: conv!.id, sms: 'Hello again', toNumber: '' },
      token: user.token,
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toBe('sim_unavailable');
    expect(reply.body.msg).toContain('SIM locked (Spam report)');
    await s.api(endpoints.sim.unlock, {
      body: { gatewayId: gw.id, port: conv!.port, reason: 'done' },
      token: admin,
    });

    // The cooldown ends: unlocked by itself, rentable and sendable again.
    s.clock.advance(5 * 60_000 + 1000);
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE is_enable', [s.clock.now()]);
    expect((await simsOf(gw.id)).get('1.01')!.lock.locked).toBe(false);
    expect((await usableSims(s.db, s.clock.now(), 'US')).some((x) => x.id === bad1)).toBe(true);
    expect((await sendableSims(s.db, s.clock.now())).some((x) => x.id === bad1)).toBe(true);
  });

  it('a success resets the count; SimLockAfterFailures 0 never locks', async () => {
    const gw = await gateway({ ports: 1 });
    const id = await simId(gw.id, '1.01');
    const fail = { simId: id, sent: 1, delivered: 0, failed: 1, simFailures: 1 };
    const ok = { simId: id, sent: 1, delivered: 1, failed: 0, simFailures: 0 };
    await settings({ SimLockAfterFailures: 3 });
    for (const o of [fail, fail, ok, fail, fail]) await recordSimOutcomes(s.ctx, s.db, [o], s.clock.now());
    let sim = (await simsOf(gw.id)).get('1.01')!;
    expect(sim.lock.locked).toBe(false);
    expect(sim.health.consecutiveFailures).toBe(2);
    await settings({ SimLockAfterFailures: 0 });
    for (const o of [fail, fail, fail]) await recordSimOutcomes(s.ctx, s.db, [o], s.clock.now());
    sim = (await simsOf(gw.id)).get('1.01')!;
    expect(sim.lock.locked).toBe(false);
    expect(sim.health.consecutiveFailures).toBe(5);
    expect(sim.health.failed).toBe(7);
  });

  it('locks a SIM the device reports blocked; it unlocks after the cooldown once the device reports it usable', async () => {
    await settings({ SimCooldownMinutes: 10 });
    const gw = await gateway({ ports: 2 });
    gw.sim.insertSim('2.01', { st: 8 }); // "Locked by operator", pushed as port-status
    await gw.sim.pushesSettled();
    let sim = (await simsOf(gw.id)).get('2.01')!;
    expect(sim.lock).toMatchObject({ locked: true, kind: 'device', until: null });
    expect(sim.lock.reason).toBe('Device reports: Locked by operator');
    // The platform's state, the box's words for people.
    expect(sim).toMatchObject({ state: 'blocked', stateText: 'Locked by operator', usable: false });

    gw.sim.insertSim('2.01', { st: 3 });
    await gw.sim.pushesSettled();
    sim = (await simsOf(gw.id)).get('2.01')!;
    expect(sim).toMatchObject({ state: 'ready', stateText: 'Registered', usable: false });
    expect(sim.lock.locked).toBe(true);
    expect(new Date(sim.lock.until!).getTime()).toBe(s.clock.now().getTime() + 10 * 60_000);
    s.clock.advance(10 * 60_000 + 1);
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE is_enable', [s.clock.now()]);
    expect((await simsOf(gw.id)).get('2.01')!.lock.locked).toBe(false);
  });
});

describe('manual locks', () => {
  it('an admin locks and unlocks a SIM with a reason (audited); a locked SIM is not rented', async () => {
    const gw = await seedGateway(s.db, { sims: 2, lastUpdate: s.clock.now() });
    await addService(s.db, { code: 'hl1', name: 'HealthLock', stock: 10 });
    const lock = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '1.01', reason: 'Carrier complaint' },
      token: admin,
    });
    expect(lock.status).toBe(200);
    expect(lock.body.sim.lock).toMatchObject({
      locked: true,
      kind: 'manual',
      reason: 'Carrier complaint',
      until: null,
      by: 'admin',
    });
    // Only the other SIM is rented; then there is none.
    const first = await s.api(endpoints.order.create, { body: { serviceCode: 'hl1' }, token: user.token });
    expect(first.status).toBe(200);
    expect(first.body.data.phoneNumber).toBe(gw.numbers[1]);
    const second = await s.api(endpoints.order.create, { body: { serviceCode: 'hl1' }, token: user.token });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('no_numbers');
    expect((await simsOf(gw.id)).get('2.01')!.health.rentalsToday).toBe(1);
    // A manual lock does not end by time.
    s.clock.advance(20 * 3600_000);
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE id = $2', [s.clock.now(), gw.id]);
    expect((await simsOf(gw.id)).get('1.01')!.lock.locked).toBe(true);

    const unlock = await s.api(endpoints.sim.unlock, {
      body: { gatewayId: gw.id, port: '1.01', reason: 'Resolved' },
      token: admin,
    });
    expect(unlock.status).toBe(200);
    expect(unlock.body.sim.lock.locked).toBe(false);
    const third = await s.api(endpoints.order.create, { body: { serviceCode: 'hl1' }, token: user.token });
    expect(third.status).toBe(200);
    expect(third.body.data.phoneNumber).toBe(gw.numbers[0]);

    const audit = await s.api(endpoints.audit.list, { body: { kind: 'gateway.simLock' }, token: admin });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('Carrier complaint');
    const audit2 = await s.api(endpoints.audit.list, { body: { kind: 'gateway.simUnlock' }, token: admin });
    expect(JSON.stringify(audit2.body)).toContain('Resolved');
  });

  it('a lock with minutes ends by itself; bad input is refused with clear messages', async () => {
    const gw = await seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() });
    const res = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '1', reason: 'x', minutes: 30 },
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.sim.lock.until).toBe(new Date(s.clock.now().getTime() + 30 * 60_000).toISOString());
    s.clock.advance(30 * 60_000 + 1);
    expect((await simsOf(gw.id)).get('1.01')!.lock.locked).toBe(false);

    const blank = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '1.01', reason: '  ' },
      token: admin,
    });
    expect(blank.status).toBe(400);
    expect(blank.body.msg).toContain('Enter a reason');
    const long = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '1.01', reason: 'x', minutes: 0 },
      token: admin,
    });
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain('Minutes must be a whole number');
    const missing = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '9.01', reason: 'x' },
      token: admin,
    });
    expect(missing.status).toBe(404);
    const userTry = await s.api(endpoints.sim.lock, {
      body: { gatewayId: gw.id, port: '1.01', reason: 'x' },
      token: user.token,
    });
    expect(userTry.status).toBe(403);
  });
});

describe('caps', () => {
  it('a SIM at its day cap is skipped for sending until the UTC day turns, and stays rentable', async () => {
    s.clock.set(new Date('2031-03-10T23:50:00Z'));
    await signInAgain();
    await settings({ SimMaxSmsPerDay: 2 });
    const gw = await gateway({ ports: 2 });
    const c = await campaign(6);
    let rows = await run(c, 8);
    expect(rows.filter((r) => r.status === 'delivered').length).toBe(4);
    expect(rows.filter((r) => r.status === 'queued').length).toBe(2);
    // The sending page and the overview say plainly that the rest waits for a free SIM.
    const progress = await s.api(endpoints.outreach.campaign, { body: { campaignId: c }, token: user.token });
    expect(progress.body.data).toMatchObject({ queued: 2, waitingForSim: true, finished: false });
    const cfg = await s.api(endpoints.outreach.getSettings, { token: user.token });
    expect(cfg.body.noFreeSim).toBe(true);
    const overview = await s.api(endpoints.overview.get, { token: admin });
    expect(overview.body).toMatchObject({ messagesQueued: 2, messagesWaitingForSim: 2 });
    const report = await simsOf(gw.id);
    expect(report.get('1.01')!.health).toMatchObject({ sentToday: 2, atCap: 'day' });
    const id1 = await simId(gw.id, '1.01');
    expect((await usableSims(s.db, s.clock.now(), 'US')).some((x) => x.id === id1)).toBe(true);

    s.clock.set(new Date('2031-03-11T00:00:01Z'));
    await signInAgain();
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE is_enable', [s.clock.now()]);
    rows = await run(c, 10);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
    expect((await simsOf(gw.id)).get('1.01')!.health.sentThisMonth).toBeGreaterThanOrEqual(3);
  });

  it('a SIM at its month cap is skipped until the UTC month turns', async () => {
    s.clock.set(new Date('2031-04-30T12:00:00Z'));
    await signInAgain();
    await settings({ SimMaxSmsPerMonth: 3 });
    const gw = await seedGateway(s.db, { sims: 1, lastUpdate: s.clock.now() });
    const id = await simId(gw.id, '1.01');
    await recordSimOutcomes(
      s.ctx,
      s.db,
      [{ simId: id, sent: 3, delivered: 3, failed: 0, simFailures: 0 }],
      s.clock.now(),
    );
    const sendable = async () => (await sendableSims(s.db, s.clock.now())).some((x) => x.id === id);
    expect(await sendable()).toBe(false);
    expect((await simsOf(gw.id)).get('1.01')!.health.atCap).toBe('month');
    s.clock.set(new Date('2031-04-30T23:59:00Z'));
    await signInAgain();
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE id = $2', [s.clock.now(), gw.id]);
    expect(await sendable()).toBe(false);
    s.clock.set(new Date('2031-05-01T00:00:00Z'));
    await signInAgain();
    await s.db.query('UPDATE gateways SET last_update = $1 WHERE id = $2', [s.clock.now(), gw.id]);
    expect(await sendable()).toBe(true);
    // A SIM with room left takes only what it has left in one tick.
    const [row] = await sendableSims(s.db, s.clock.now()).then((r) => r.filter((x) => x.id === id));
    expect(row!.remaining).toBe(3);
  });
});

describe('roles', () => {
  it('rental SIMs never send, messaging SIMs are never rented (audited)', async () => {
    const gw = await seedGateway(s.db, { sims: 3, lastUpdate: s.clock.now() });
    const [a, b, c] = await Promise.all(['1.01', '2.01', '3.01'].map((p) => simId(gw.id, p)));
    const r1 = await s.api(endpoints.sim.setRole, {
      body: { gatewayId: gw.id, port: '1.01', role: 'rental' },
      token: admin,
    });
    expect(r1.status).toBe(200);
    expect(r1.body.sim.role).toBe('rental');
    expect(
      (
        await s.api(endpoints.sim.setRole, {
          body: { gatewayId: gw.id, port: '2.01', role: 'messaging' },
          token: admin,
        })
      ).status,
    ).toBe(200);
    const bad = await s.api(endpoints.sim.setRole, {
      rawBody: { gatewayId: gw.id, port: '2.01', role: 'all' },
      token: admin,
    });
    expect(bad.status).toBe(400);
    const now = s.clock.now();
    const rentable = new Set((await usableSims(s.db, now, 'US')).map((x) => x.id));
    const sending = new Set((await sendableSims(s.db, now)).map((x) => x.id));
    expect([rentable.has(a!), rentable.has(b!), rentable.has(c!)]).toEqual([true, false, true]);
    expect([sending.has(a!), sending.has(b!), sending.has(c!)]).toEqual([false, true, true]);
    const audit = await s.api(endpoints.audit.list, { body: { kind: 'gateway.simRole' }, token: admin });
    expect(JSON.stringify(audit.body)).toContain('messaging');
  });
});

describe('settings', () => {
  it('round-trips the SIM settings with the limits; a field left out keeps its value', async () => {
    const saved = await settings({
      SimMaxSmsPerDay: 150,
      SimMaxSmsPerMonth: 3000,
      SimLockAfterFailures: 7,
      SimCooldownMinutes: 90,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      maxBatchSendSms: 1000,
      simMaxSmsPerDay: 150,
      simMaxSmsPerMonth: 3000,
      simLockAfterFailures: 7,
      simCooldownMinutes: 90,
    });
    const partial = await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 10, MaxMsgPerDay: 20 },
      token: admin,
    });
    expect(partial.body).toMatchObject({ maxBatchSendSms: 10, simMaxSmsPerDay: 150, simCooldownMinutes: 90 });
    const read = await s.api(endpoints.settings.get, { token: admin });
    expect(read.body).toMatchObject({ simMaxSmsPerMonth: 3000, simLockAfterFailures: 7, updatedBy: 'admin' });
    const userRead = await s.api(endpoints.outreach.getSettings, { token: user.token });
    expect(userRead.body).toMatchObject({ simMaxSmsPerDay: 150, maxMsgPerDay: 20 });
    const audit = await s.api(endpoints.audit.list, { body: { kind: 'settings.update' }, token: admin });
    expect(JSON.stringify(audit.body)).toContain('simLockAfterFailures');
  });

  it.each([
    [{ SimMaxSmsPerDay: -1 }, 'SIM Max SMS Per Day must be a whole number from 0 to 100000.'],
    [{ SimMaxSmsPerMonth: 1.5 }, 'SIM Max SMS Per Month must be a whole number from 0 to 3000000.'],
    [{ SimLockAfterFailures: '5' }, 'Lock SIM After Failures must be a whole number from 0 to 1000.'],
    [{ SimCooldownMinutes: 43201 }, 'SIM Cooldown (minutes) must be a whole number from 0 to 43200.'],
  ])('refuses %j with a clear 400', async (body, msg) => {
    const res = await s.api(endpoints.settings.update, {
      rawBody: { MaxBatchSendSms: 1, MaxMsgPerDay: 1, ...body },
      token: admin,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(msg);
  });
});
