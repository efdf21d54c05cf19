import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';

let sim: GatewaySim;
let driver: EjoinDriver;

beforeAll(async () => {
  sim = await GatewaySim.start({ ports: 4, slots: 2, password: 'S3cret-pw!', seed: 42 });
  driver = new EjoinDriver({ url: sim.url, username: 'root', password: 'S3cret-pw!' }, { timeoutMs: 1000 });
});
afterAll(async () => {
  await sim.stop();
});

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

describe('EjoinDriver against the simulator', () => {
  it('reads the status with every slot, whatever the spellings', async () => {
    const d = await driver.getStatus();
    expect(d.externalId).toBe(sim.mac.replace(/-/g, ':'));
    expect(d).toMatchObject({ maxPorts: 4, maxSlots: 2, complete: true });
    expect(d.sims).toHaveLength(8);
    expect(d.sims[0]).toMatchObject({
      slot: '1.01',
      state: 'ready',
      deviceState: 'Registered',
      number: sim.slot('1.01')!.sn,
    });
    expect(d.sims[1]).toMatchObject({ slot: '1.02', state: 'starting', deviceState: 'Idle SIM' });
    await sim.setFaults({ maxSlotsSpelling: 'max-slots', stFormat: 'text' });
    try {
      const again = await driver.getStatus();
      expect(again.maxSlots).toBe(2);
      expect(again.sims[0]!.state).toBe('ready');
    } finally {
      await sim.setFaults({ maxSlotsSpelling: 'max-slot', stFormat: 'number' });
    }
  });

  it('subscribes the status push and configures the SMS push URL', async () => {
    await driver.subscribeStatus('http://127.0.0.1:9/api/gw/x/y/status', 60);
    expect(sim.statusUrl).toBe('http://127.0.0.1:9/api/gw/x/y/status');
    expect(sim.period).toBe(60);
    await driver.subscribeStatus('', 0);
    await driver.configureSmsUrls({ sms: 'http://127.0.0.1:9/api/gw/x/y/sms?a=1&b=2', report: 'http://h/r' });
    expect(sim.smsUrl).toBe('http://127.0.0.1:9/api/gw/x/y/sms?a=1&b=2');
    expect(sim.srUrl).toBe('http://h/r');
  });

  it('writes a SIM number with sim_number(n) for the right slot', async () => {
    await driver.setSimNumber('3.02', '15550009999', { maxSlots: 2 });
    expect(sim.slot('3.02')!.sn).toBe('15550009999');
    expect(sim.slot('3.01')!.sn).not.toBe('15550009999');
    await driver.setSimNumber('2A', '15550008888', { maxSlots: 2 });
    expect(sim.slot('2.01')!.sn).toBe('15550008888');
  });

  it('pulls the inbox from an id, and sees a new ssrc after a reboot', async () => {
    sim.injectSms({ port: '1.01', from: '+15551230001', text: 'first', ts: 1_700_000_001 });
    sim.injectSms({ port: '2.01', from: '+15551230002', text: 'second ✓', ts: 1_700_000_002 });
    const all = await driver.pullSms(1);
    expect(all.items.map((i) => [i.port, i.sender, i.text, i.ts])).toEqual([
      ['1.01', '+15551230001', 'first', 1_700_000_001],
      ['2.01', '+15551230002', 'second ✓', 1_700_000_002],
    ]);
    expect(all.nextId).toBe(3);
    const none = await driver.pullSms(all.nextId);
    expect(none.items).toEqual([]);
    expect(none.ssrc).toBe(all.ssrc);
    const page = await driver.pullSms(1, 1);
    expect(page.items).toHaveLength(1);
    expect(page.nextId).toBe(2);
    await sim.reboot(50);
    const after = await driver.pullSms(1);
    expect(after.ssrc).not.toBe(all.ssrc);
    expect(after.items).toEqual([]);
  });

  it('sends tasks and reports per-task acceptance', async () => {
    const res = await driver.sendTasks(
      [
        { tid: 101, to: '15557770001', sms: 'hello', from: '1' },
        { tid: 102, to: '', sms: 'no recipient', from: '1' },
      ],
      {
        base: 'http://127.0.0.1:9/base',
        status: 'http://127.0.0.1:9/status',
        report: 'http://127.0.0.1:9/report',
        sms: 'http://127.0.0.1:9/sms',
      },
    );
    expect(res[0]).toEqual({ tid: 101, outcome: 'accepted', deviceText: '0 OK' });
    expect(res[1]!.tid).toBe(102);
    expect(res[1]!.outcome).not.toBe('accepted');
    expect(sim.srUrl).toBe('http://127.0.0.1:9/report');
  });

  it("sends a USSD code from a slot and answers the network's reply; a refusal is a GatewayError", async () => {
    const reply = await driver.ussd('1.01', '*#100#');
    expect(reply).toBe(`Your number is +${sim.slot('1.01')!.msisdn}.`);
    expect((await failure(driver.ussd('9.01', '*100#'))).kind).toBe('refused');
  });

  it('runs commands and refuses a bad port', async () => {
    await driver.command('lock', '4.01');
    expect(sim.slot('4.01')!.locked).toBe(true);
    await driver.command('unlock', '4.01');
    expect(sim.slot('4.01')!.locked).toBe(false);
    const err = await failure(driver.command('lock', '99'));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/Invalid Port/);
  });

  it('names a wrong account without revealing it', async () => {
    const bad = new EjoinDriver({ url: sim.url, username: 'root', password: 'wrong-Pa55' });
    const err = await failure(bad.getStatus());
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/user name or password/);
    expect(err.message).not.toContain('wrong-Pa55');
    expect((await failure(bad.sendTasks([{ tid: 1, to: '1', sms: 'x' }]))).kind).toBe('auth');
  });

  it('maps timeouts, HTTP 500 and refused connections to GatewayErrors', async () => {
    await sim.setFaults({ slowMs: 500 });
    try {
      const quick = new EjoinDriver(
        { url: sim.url, username: 'root', password: 'S3cret-pw!' },
        { timeoutMs: 100 },
      );
      const err = await failure(quick.getStatus());
      expect(err.kind).toBe('timeout');
      expect(err.message).toBe('no answer within 0.1 s');
    } finally {
      await sim.setFaults({ slowMs: 0 });
    }
    await sim.setFaults({ http500: true });
    try {
      expect((await failure(driver.getStatus())).message).toBe('HTTP 500 from the device');
    } finally {
      await sim.setFaults({ http500: false });
    }
    await sim.setFaults({ offline: true });
    try {
      const err = await failure(driver.getStatus());
      expect(err.kind).toBe('network');
      expect(err.message).toBe('connection refused');
    } finally {
      await sim.setFaults({ offline: false });
    }
    const bogus = new EjoinDriver({ url: 'not a url', username: 'u', password: 'p' });
    expect((await failure(bogus.getStatus())).message).toBe('the gateway URL is not valid');
  });
});
