// Many simulated devices on one radio network (SIMs can text each other), seeds seed, seed+1, ...
import { GatewaySim } from './device.ts';
import { MAX_SAFE_SEED, normaliseMac } from './identity.ts';
import { SimNetwork } from './network.ts';
import type { SimOptions } from './options.ts';

export class SimFleet {
  private constructor(readonly devices: GatewaySim[]) {}

  /**
   * Start `count` devices in parallel. Each gets seed `seed + i` (so distinct MACs, ICCIDs and
   * numbers) and, when `port` is given, listen port `port + i`. A `mac` option applies only to a
   * fleet of one.
   */
  static async start(count: number, opts: SimOptions = {}): Promise<SimFleet> {
    if (!Number.isInteger(count) || count < 0) throw new Error('gateway-sim: count must be an integer >= 0');
    const network = opts.network ?? new SimNetwork();
    const base = opts.seed ?? Math.floor(Math.random() * Math.max(1, MAX_SAFE_SEED - count));
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) =>
        GatewaySim.start({
          ...opts,
          network,
          seed: base + i,
          mac: count === 1 ? opts.mac : undefined,
          port: opts.port ? opts.port + i : 0,
        }),
      ),
    );
    const devices = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(devices.map((d) => d.stop()));
      throw failed.reason;
    }
    return new SimFleet(devices);
  }

  byMac(mac: string): GatewaySim | undefined {
    const m = normaliseMac(mac);
    return this.devices.find((d) => d.mac === m);
  }

  async stop(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.stop()));
  }
}
