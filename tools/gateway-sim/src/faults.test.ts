import { afterAll, describe, expect, it } from 'vitest';
import { GatewaySim } from './device.ts';
import { goip, Receiver, sleep } from './testkit.ts';

// One receiver for the file's pushes; each test posts to paths of its own.
const rx = await Receiver.start();
afterAll(() => rx.close());

describe('fault injection', () => {
  it('sends every push twice with duplicatePushes, none with dropPushes', async () => {
    const sim = await GatewaySim.start({ ports: 2, statusUrl: rx.url('/dup'), pushIntervalMs: 60_000 });
    try {
      await sim.pushesSettled(); // the subscription's first report
      const base = rx.of('/dup').length;
      await sim.setFaults({ duplicatePushes: true });
      await sim.pushStatusNow();
      const twice = (await rx.waitFor((m) => m.path === '/dup', base + 2)).slice(base);
      expect(twice[0]!.body).toEqual(twice[1]!.body);

      await sim.setFaults({ duplicatePushes: false, dropPushes: true });
      await sim.pushStatusNow();
      sim.removeSim('1.01');
      await sim.pushesSettled();
      expect(rx.of('/dup')).toHaveLength(base + 2);
    } finally {
      await sim.stop();
    }
  });

  it('refuses connections while offline and stops pushes; comes back on the same url', async () => {
    const sim = await GatewaySim.start({ ports: 2, statusUrl: rx.url('/off'), pushIntervalMs: 40 });
    try {
      await rx.waitFor((m) => m.path === '/off');
      await sim.setFaults({ offline: true });
      const err = await fetch(`${sim.url}/goip_get_status.html?username=root&password=root`).catch(
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error & { cause?: { code?: string } }).cause?.code)).toBe('ECONNREFUSED');
      await sleep(30);
      const n = rx.of('/off').length;
      await sleep(150);
      expect(rx.of('/off').length).toBe(n);

      await sim.setFaults({ offline: false });
      expect((await goip(sim.url, 'goip_get_status.html')).type).toBe('dev-status');
      await rx.waitFor((m) => m.path === '/off', n + 1);
    } finally {
      await sim.stop();
    }
  });

  it('answers HTTP 500 and slows replies on demand; reports a changed IP under the same MAC', async () => {
    const sim = await GatewaySim.start({ ports: 1 });
    try {
      await sim.setFaults({ http500: true });
      expect((await fetch(`${sim.url}/goip_get_status.html?username=root&password=root`)).status).toBe(500);
      await sim.setFaults({ http500: false, slowMs: 150 });
      const t0 = Date.now();
      await goip(sim.url, 'goip_get_status.html');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      await sim.setFaults({ slowMs: 0 });
      sim.setIp('10.0.0.9');
      expect(await goip(sim.url, 'goip_get_status.html')).toMatchObject({ ip: '10.0.0.9', mac: sim.mac });
    } finally {
      await sim.stop();
    }
  });

  it('goes offline during a reboot command and reports again afterwards', async () => {
    const sim = await GatewaySim.start({
      ports: 1,
      rebootOfflineMs: 100,
      statusUrl: rx.url('/rb'),
      pushIntervalMs: 60_000,
    });
    try {
      await rx.waitFor((m) => m.path === '/rb');
      expect(await goip(sim.url, 'goip_send_cmd.html', { op: 'reboot' })).toEqual({
        code: 200,
        reason: 'OK',
      });
      await sleep(30);
      expect(sim.offline).toBe(true);
      const after = await rx.waitFor((m) => m.path === '/rb', 2);
      expect(after[1]!.body.seq).toBe(1); // counters start over after a restart
      expect(sim.offline).toBe(false);
    } finally {
      await sim.stop();
    }
  });
});
