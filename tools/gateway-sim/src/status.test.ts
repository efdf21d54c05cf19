import { afterAll, describe, expect, it } from 'vitest';
import { GatewaySim } from './device.ts';
import { parsePortSpec } from './model.ts';
import { goip, Receiver } from './testkit.ts';

// One receiver for the file's pushes; each test posts to paths of its own.
const rx = await Receiver.start();
afterAll(() => rx.close());

describe('status, auth and SIM lifecycle', () => {
  it('refuses a wrong account on every call, answers 404 off the API', async () => {
    const sim = await GatewaySim.start({ ports: 2, username: 'admin', password: 's3cret' });
    try {
      expect(await goip(sim.url, 'goip_get_status.html')).toEqual({ code: 14, reason: 'Unauthorized' });
      expect(await goip(sim.url, 'goip_get_sms.html')).toEqual({ code: 14, reason: 'Unauthorized' });
      const post = await goip(
        sim.url,
        'goip_post_sms.html',
        {},
        { body: { type: 'send-sms', task_num: 1, tasks: [{ tid: 9, to: '1', sms: 'x' }] } },
      );
      expect(post).toMatchObject({
        code: 14,
        type: 'task-status',
        status: [{ tid: 9, status: '14 Unauthorized' }],
      });
      expect(sim.sentTasks()).toHaveLength(0);
      const ok = await goip(sim.url, 'goip_get_status.html', {}, { auth: ['admin', 's3cret'] });
      expect(ok.type).toBe('dev-status');
      expect((await fetch(`${sim.url}/index.html`)).status).toBe(404);
      expect((await fetch(`${sim.url}/goip_nothing.html?username=admin&password=s3cret`)).status).toBe(404);
    } finally {
      await sim.stop();
    }
  });

  it('answers a dev-status pull with expires -1, active slots only unless all_sims/all_slots', async () => {
    const sim = await GatewaySim.start({ ports: 4, slots: 2, seed: 42 });
    try {
      const s = await goip(sim.url, 'goip_get_status.html');
      expect(s).toMatchObject({
        type: 'dev-status',
        expires: -1,
        mac: sim.mac,
        'max-ports': 4,
        'max-slot': 2,
      });
      expect(s['max-slots']).toBeUndefined();
      expect(s.mac).toMatch(/^00-30-f1(-[0-9a-f]{2}){3}$/);
      expect(s.status.map((p: { port: string }) => p.port)).toEqual(['1.01', '2.01', '3.01', '4.01']);
      const p = s.status[0];
      expect(p).toMatchObject({ sim: '', st: 3, active: 1, inserted: 1, bal: '0.00' });
      expect(p.iccid).toMatch(/^89\d{17}$/);
      expect(p.imsi).toMatch(/^\d{15}$/);
      expect(p.imei).toMatch(/^\d{15}$/);
      expect(p.sn).toMatch(/^1[2-9]\d{9}$/);
      expect(p.sn).toBe(sim.slot('1.01')?.sn);

      const all = await goip(sim.url, 'goip_get_status.html', { all_sims: 1 });
      expect(all.status).toHaveLength(8);
      expect(all.status[1]).toMatchObject({ port: '1.02', st: 1, active: 0 });
      expect((await goip(sim.url, 'goip_get_status.html', { all_slots: 1 })).status).toHaveLength(8);

      // Same seed, same identities.
      const twin = await GatewaySim.start({ ports: 4, slots: 2, seed: 42 });
      expect(twin.mac).toBe(sim.mac);
      expect(twin.slot('3.02')).toEqual(sim.slot('3.02'));
      await twin.stop();

      await sim.setFaults({ maxSlotsSpelling: 'max-slots', stFormat: 'text' });
      const t = await goip(sim.url, 'goip_get_status.html');
      expect(t['max-slots']).toBe(2);
      expect(t['max-slot']).toBeUndefined();
      expect(t.status[0].st).toBe('3 OK');
    } finally {
      await sim.stop();
    }
  });

  it("reports each port's SIM on its carrier: imsi, iccid, opr and sn of the profile, round-robin", async () => {
    const opts = { ports: 3, seed: 7, carriers: ['de-vodafone', 'gb-ee'] };
    const sim = await GatewaySim.start(opts);
    try {
      const s = await goip(sim.url, 'goip_get_status.html');
      const [p1, p2, p3] = s.status;
      expect(p1).toMatchObject({ port: '1.01', opr: '26202 Vodafone' });
      expect(p1.imsi).toMatch(/^26202\d{10}$/);
      expect(p1.iccid).toMatch(/^894902\d{13}$/);
      expect(p1.sn).toMatch(/^491[5-7]\d{8,9}$/);
      expect(p2).toMatchObject({ port: '2.01', opr: '23430 EE' });
      expect(p2.imsi).toMatch(/^23430\d{10}$/);
      expect(p2.iccid).toMatch(/^894430\d{13}$/);
      expect(p2.sn).toMatch(/^447\d{9}$/);
      expect(p3).toMatchObject({ port: '3.01', opr: '26202 Vodafone' });
      // A new card in a port stays on the port's carrier.
      sim.swapSim('2.01');
      expect(sim.slot('2.01')).toMatchObject({ opr: '23430 EE', imsi: expect.stringMatching(/^23430/) });
      // Same seed, same SIMs.
      const twin = await GatewaySim.start(opts);
      expect(twin.slot('1.01')).toEqual(sim.slot('1.01'));
      await twin.stop();
      await expect(GatewaySim.start({ ports: 1, carriers: ['xx-nope'] })).rejects.toThrow(/unknown carrier/);
    } finally {
      await sim.stop();
    }
  });

  it('shows an empty slot as port, sim, seq, st 0 and imei only', async () => {
    const sim = await GatewaySim.start({ ports: 2 });
    try {
      sim.removeSim('2.01');
      const s = await goip(sim.url, 'goip_get_status.html');
      expect(Object.keys(s.status[1]).sort()).toEqual(['imei', 'port', 'seq', 'sim', 'st']);
      expect(s.status[1].st).toBe(0);
    } finally {
      await sim.stop();
    }
  });

  it('pushes dev-status periodically with expires 180 and a growing seq; period=0 stops', async () => {
    const sim = await GatewaySim.start({ ports: 2, pushIntervalMs: 60 });
    try {
      const url = rx.url('/periodic');
      const r = await goip(sim.url, 'goip_get_status.html', { url, period: 60 });
      expect(r).toEqual({ code: 200, reason: 'OK' });
      expect(sim.statusUrl).toBe(url);
      expect(sim.period).toBe(60);
      const got = await rx.waitFor((m) => m.path === '/periodic', 3);
      for (const m of got) {
        expect(m.body).toMatchObject({ type: 'dev-status', expires: 180, mac: sim.mac });
        expect(m.contentType).toBe('application/json;charset=utf-8');
      }
      const seqs = got.map((m) => m.body.seq as number);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);

      await goip(sim.url, 'goip_get_status.html', { url, period: 0 });
      expect(sim.statusUrl).toBeUndefined();
      await sim.pushesSettled();
      const n = rx.of('/periodic').length;
      await new Promise((res) => setTimeout(res, 200));
      expect(rx.of('/periodic').length).toBe(n);
    } finally {
      await sim.stop();
    }
  });

  it('pushes port-status on remove, insert and swap; a swapped SIM has a new ICCID and no sn', async () => {
    const sim = await GatewaySim.start({ ports: 3, statusUrl: rx.url('/ps'), pushIntervalMs: 60_000 });
    try {
      const before = sim.slot('2.01')!;
      sim.removeSim('2.01');
      const [removed] = await rx.waitFor((m) => m.path === '/ps' && m.body.type === 'port-status');
      expect(removed!.body).toEqual({
        type: 'port-status',
        port: '2.01',
        sim: '',
        seq: before.seq + 1,
        st: 0,
        imei: before.imei,
      });
      expect(removed!.body.mac).toBeUndefined();

      sim.insertSim('2.01');
      const ins = await rx.waitFor((m) => m.path === '/ps' && m.body.type === 'port-status', 2);
      expect(ins[1]!.body).toMatchObject({ port: '2.01', st: 3, iccid: before.iccid, sn: before.sn });

      sim.swapSim('2.01');
      const sw = await rx.waitFor((m) => m.path === '/ps' && m.body.type === 'port-status', 3);
      expect(sw[2]!.body.port).toBe('2.01');
      expect(sw[2]!.body.iccid).not.toBe(before.iccid);
      expect(sw[2]!.body.sn).toBe('');
      expect(sim.slot('2.01')!.iccid).toBe(sw[2]!.body.iccid);

      sim.swapSim('3.01', { sn: '15550001111' });
      const sw2 = await rx.waitFor((m) => m.path === '/ps' && m.body.port === '3.01');
      expect(sw2[0]!.body.sn).toBe('15550001111');
    } finally {
      await sim.stop();
    }
  });

  it('op=set sim_number(n) updates sn and pushes port-status', async () => {
    const sim = await GatewaySim.start({
      ports: 4,
      slots: 2,
      withNumbers: false,
      statusUrl: rx.url('/set'),
      pushIntervalMs: 60_000,
    });
    try {
      expect(sim.slot('3.02')!.sn).toBe('');
      // n = (port-1)*slots + (slot-1): 3.02 → 5, 1.01 → 0
      const r = await goip(
        sim.url,
        'goip_send_cmd.html',
        { op: 'set' },
        { text: 'sim_number(5)=15551234567&sim_number(0)=15550000000' },
      );
      expect(r).toEqual({ code: 0, reason: 'OK', par_set: 2 });
      expect(sim.slot('3.02')!.sn).toBe('15551234567');
      expect(sim.slot('1.01')!.sn).toBe('15550000000');
      const pushed = await rx.waitFor((m) => m.path === '/set' && m.body.type === 'port-status', 2);
      expect(pushed.map((m) => [m.body.port, m.body.sn])).toEqual([
        ['3.02', '15551234567'],
        ['1.01', '15550000000'],
      ]);
      const all = await goip(sim.url, 'goip_get_status.html', { all_sims: 1 });
      expect(all.status[5]).toMatchObject({ port: '3.02', sn: '15551234567' });
      const got = await goip(sim.url, 'goip_send_cmd.html', { op: 'get', 'par_name(0)': 'sim_number(5)' });
      expect(got.pars).toEqual({ 'sim_number(5)': '15551234567' });
    } finally {
      await sim.stop();
    }
  });

  it('switch moves the active slot: registering then registered, each with a port-status', async () => {
    const sim = await GatewaySim.start({
      ports: 2,
      slots: 2,
      statusUrl: rx.url('/sw'),
      pushIntervalMs: 60_000,
      registerDelayMs: 30,
    });
    try {
      const r = await goip(
        sim.url,
        'goip_send_cmd.html',
        {},
        { body: { type: 'command', op: 'switch', ports: '2B' } },
      );
      expect(r).toEqual({ code: 200, reason: 'OK' });
      const msgs = await rx.waitFor((m) => m.path === '/sw' && m.body.type === 'port-status', 3);
      expect(msgs.map((m) => [m.body.port, m.body.st, m.body.active])).toEqual([
        ['2.01', 1, 0],
        ['2.02', 2, 1],
        ['2.02', 3, 1],
      ]);
      const s = await goip(sim.url, 'goip_get_status.html');
      expect(s.status[1].port).toBe('2.02');

      await goip(sim.url, 'goip_send_cmd.html', { op: 'lock', ports: '1' });
      expect(sim.slot('1.01')!.st).toBe(12);
      await goip(sim.url, 'goip_send_cmd.html', { op: 'unlock', ports: '1.01' });
      expect(sim.slot('1.01')!.st).toBe(3);
      expect(await goip(sim.url, 'goip_send_cmd.html', { op: 'lock', ports: '9' })).toMatchObject({
        code: 2,
      });
      expect(await goip(sim.url, 'goip_send_cmd.html', { op: 'fly' })).toMatchObject({ code: 15 });
    } finally {
      await sim.stop();
    }
  });

  it('answers AT+CNUM and an own-number USSD', async () => {
    const sim = await GatewaySim.start({ ports: 2, seed: 5 });
    try {
      const n = sim.slot('1.01')!.msisdn;
      expect((await goip(sim.url, 'goip_send_at.html', { port: 1, at: 'AT+CNUM' })).resp).toContain(`+${n}`);
      sim.insertSim('1.01', { cnum: false });
      expect((await goip(sim.url, 'goip_send_at.html', { port: 1, at: 'AT+CNUM' })).resp).toBe('OK');
      expect((await goip(sim.url, 'goip_send_ussd.html', { port: 1, ussd: '*#100#' })).resp).toContain(n);
    } finally {
      await sim.stop();
    }
  });

  it('parses the port syntax', () => {
    expect(parsePortSpec('1A,2.02,4-5', 8, 4)).toEqual([
      { port: 1, slot: 1 },
      { port: 2, slot: 2 },
      { port: 4 },
      { port: 5 },
    ]);
    expect(parsePortSpec('all', 2, 1)).toEqual([{ port: 1 }, { port: 2 }]);
    expect(parsePortSpec('9', 8, 1)).toBeUndefined();
    expect(parsePortSpec('1C', 8, 2)).toBeUndefined();
  });
});
