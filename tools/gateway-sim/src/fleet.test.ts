import { afterAll, describe, expect, it } from 'vitest';
import { startFromArgs } from './cli.ts';
import { SimFleet } from './fleet.ts';
import { goip, Receiver } from './testkit.ts';

// One receiver for the file's pushes; each test posts to paths of its own.
const rx = await Receiver.start();
afterAll(() => rx.close());

describe('fleet and CLI', () => {
  it('starts and stops 20 devices with distinct MACs, ports and SIM identities', async () => {
    const fleet = await SimFleet.start(20, { ports: 8, seed: 1000 });
    try {
      expect(fleet.devices).toHaveLength(20);
      expect(new Set(fleet.devices.map((d) => d.mac)).size).toBe(20);
      expect(new Set(fleet.devices.map((d) => d.url)).size).toBe(20);
      const iccids = fleet.devices.flatMap((d) => d.slots().map((s) => s.iccid));
      const numbers = fleet.devices.flatMap((d) => d.slots().map((s) => s.sn));
      expect(new Set(iccids).size).toBe(160);
      expect(new Set(numbers).size).toBe(160);
      const statuses = await Promise.all(fleet.devices.map((d) => goip(d.url, 'goip_get_status.html')));
      expect(statuses.map((s) => s.mac)).toEqual(fleet.devices.map((d) => d.mac));
      expect(fleet.byMac(fleet.devices[3]!.mac.toUpperCase().replace(/-/g, ':'))).toBe(fleet.devices[3]);
    } finally {
      await fleet.stop();
    }
    const err = await fetch(`${fleet.devices[0]!.url}/goip_get_status.html`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
  });

  it('startFromArgs prints url/mac and serves the /sim control API', async () => {
    const lines: string[] = [];
    const fleet = await startFromArgs(
      [
        '--ports',
        '4',
        '--slots',
        '2',
        '--push-to',
        rx.url('/cli'),
        '--push-interval-ms',
        '60000',
        '--seed',
        '9',
      ],
      (l) => lines.push(l),
    );
    try {
      const dev = fleet.devices[0]!;
      expect(JSON.parse(lines[0]!)).toMatchObject({ url: dev.url, mac: dev.mac, ports: 4, slots: 2 });
      await rx.waitFor((m) => m.path === '/cli' && m.body.type === 'dev-status');

      const state = (await (await fetch(`${dev.url}/sim/state`)).json()) as { slots: unknown[] };
      expect(state).toMatchObject({ ports: 4, slotsPerPort: 2, statusUrl: rx.url('/cli') });
      expect(state.slots).toHaveLength(8);

      const post = (path: string, body: unknown) =>
        fetch(`${dev.url}${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
      expect(await post('/sim/inject-sms', { port: '2.01', from: '+15550001', text: 'hey' })).toEqual({
        id: 1,
      });
      expect((await goip(dev.url, 'goip_get_sms.html')).sms_num).toBe(1);

      await post('/sim/remove-sim', { port: '3.01' });
      const [ps] = await rx.waitFor((m) => m.path === '/cli' && m.body.type === 'port-status');
      expect(ps!.body).toMatchObject({ port: '3.01', st: 0 });

      // Offline keeps the control API reachable so it can be switched back.
      expect(await post('/sim/faults', { offline: true })).toMatchObject({ offline: true });
      expect(
        await fetch(`${dev.url}/goip_get_status.html?username=root&password=root`).catch(() => 'down'),
      ).toBe('down');
      await post('/sim/faults', { offline: false });
      expect((await goip(dev.url, 'goip_get_status.html')).type).toBe('dev-status');
    } finally {
      await fleet.stop();
    }
  });
});
