import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewaySim } from '@simdock/gateway-sim';
import { PhoneSim, type Received, type Receiver, startReceiver } from '@simdock/phone-sim';
import { afterEach, describe, expect, it } from 'vitest';
import type { DevicePush, GatewayDriver, HttpPushTransport, PushUrls } from './driver.ts';
import { GatewayError } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';
import { SmsGateDriver } from './smsgate.ts';

// The driver contract, the same scenarios for every driver against its device's simulator over the
// real protocol: what the platform relies on (SIMs by slot, incoming SMS and send results read from
// the device's pushes in the platform's words, duplicates accepted, errors a person can act on)
// does not depend on the vendor.

interface Bench {
  driver(password?: string, url?: string): GatewayDriver;
  /** The device receives an SMS on the SIM in `slot`. */
  receive(slot: string, from: string, text: string): void;
  settle(): Promise<void>;
  stop(): Promise<void>;
}

const KEY = 'contract-key';

const DRIVERS: { name: string; start(): Promise<Bench> }[] = [
  {
    name: 'ejoin (multi-port box)',
    async start() {
      const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
      return {
        driver: (password = 'root', url = sim.url) => new EjoinDriver({ url, username: 'root', password }),
        receive: (slot, from, text) => sim.injectSms({ port: slot, from, text }),
        settle: () => sim.pushesSettled(),
        stop: () => sim.stop(),
      };
    },
  },
  {
    name: 'smsgate (Android phone, Local mode)',
    async start() {
      const phone = await PhoneSim.start({
        mode: 'local',
        username: 'sms',
        password: 'pw',
        signingKey: KEY,
        slots: [
          { phoneNumber: '+12025550401', iccid: '8901260000000000401', carrierName: 'T-Mobile' },
          { phoneNumber: '+12025550402', iccid: '8901260000000000402', carrierName: 'AT&T' },
        ],
        allowHttpWebhooks: true,
        stepMs: 2,
      });
      return {
        driver: (password = 'pw', url = phone.baseUrl) =>
          new SmsGateDriver({
            url,
            username: 'sms',
            password,
            mode: 'local',
            externalId: phone.deviceId,
            signingKey: KEY,
          }),
        receive: (slot, from, text) => phone.injectSms({ slot: Number(slot), from, text }),
        settle: async () => {
          await new Promise((r) => setTimeout(r, 30));
          await phone.webhooksSettled();
        },
        stop: () => phone.stop(),
      };
    },
  },
];

let receiver: Receiver | undefined;
let bench: Bench | undefined;
afterEach(async () => {
  await bench?.stop();
  await receiver?.close();
  bench = undefined;
  receiver = undefined;
});

const urlsOf = (r: Receiver): PushUrls => ({
  base: `${r.url}/gw`,
  status: `${r.url}/gw/status`,
  sms: `${r.url}/gw/sms`,
  report: `${r.url}/gw/report`,
});

/** What a push that reached the receiver says, read by the driver as the push route would. */
function read(driver: GatewayDriver, got: Received): DevicePush {
  const [path, search] = got.path.split('?') as [string, string | undefined];
  const last = path.split('/').pop();
  const channel = (last === 'gw' ? '' : last) as HttpPushTransport['channel'];
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(got.headers)) headers[k] = Array.isArray(v) ? v[0] : v;
  return driver.readPush({
    transport: {
      kind: 'http',
      channel,
      headers,
      query: Object.fromEntries(new URLSearchParams(search ?? '')),
    },
    body: got.body,
    now: new Date(),
  }).push;
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `fn` (a device works at its own pace) until it gives something, for at most 3 s. */
async function until<T>(fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('nothing came');
}

const pushesOf = (driver: GatewayDriver, r: Receiver) => r.got.map((g) => read(driver, g));

describe.each(DRIVERS)('driver contract: $name', ({ start }) => {
  it('reports its SIMs by slot, in its own slot form, and names what a slot looks like', async () => {
    bench = await start();
    const driver = bench.driver();
    const status = await driver.getStatus();
    expect(status.externalId).not.toBe('');
    expect(status.complete).toBe(true);
    expect(status.sims.length).toBeGreaterThanOrEqual(2);
    for (const sim of status.sims) {
      expect(driver.canonicalSlot(sim.slot)).toBe(sim.slot);
      expect(sim.state).toBe('ready');
    }
    expect(driver.canonicalSlot('not a slot')).toBeUndefined();
    expect(driver.canonicalSlot('')).toBeUndefined();
    expect(driver.slotHint).toMatch(/must/);
  });

  it('brings an incoming SMS to the platform as one item on the receiving SIM', async () => {
    bench = await start();
    receiver = await startReceiver();
    const driver = bench.driver();
    await driver.connect(urlsOf(receiver));
    const [sim] = (await driver.getStatus()).sims;
    bench.receive(sim!.slot, '+15550001234', 'Your code is 31337');
    await bench.settle();
    const sms = pushesOf(driver, receiver).flatMap((p) => (p.kind === 'sms' ? p.items : []));
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ isReport: false, port: sim!.slot, text: 'Your code is 31337' });
    expect(sms[0]!.sender.replace(/\D/g, '')).toBe('15550001234');
    expect(sms[0]!.ts).toBeGreaterThan(1_700_000_000);
  });

  it('sends from the chosen SIM, accepts a repeated task, and reports the result by task id', async () => {
    bench = await start();
    receiver = await startReceiver();
    const driver = bench.driver();
    const urls = urlsOf(receiver);
    await driver.connect(urls);
    const sims = (await driver.getStatus()).sims;
    const from = sims[1]!.slot;
    const task = { tid: 4242, to: '12025550999', sms: 'Hello from the contract', from };
    expect(await driver.sendTasks([task], urls)).toEqual([
      { tid: 4242, outcome: 'accepted', deviceText: expect.any(String) },
    ]);
    // The same task again (a retry after a lost answer): the device has it, nothing is sent twice.
    const again = await driver.sendTasks([task], urls);
    expect(again[0]).toMatchObject({ tid: 4242, outcome: 'accepted' });
    const results = await until(async () => {
      await bench!.settle();
      const got = pushesOf(driver, receiver!).flatMap((p) => (p.kind === 'report' ? p.results : []));
      return got.length > 0 ? got : undefined;
    });
    // A device that tells the carrier's acceptance apart reports it first (`sent`); the success
    // report, or the handset's, is `delivered`.
    expect(results.at(-1)).toMatchObject({ outcome: 'delivered' });
    for (const r of results) {
      expect(r).toMatchObject({
        tid: 4242,
        outcome: expect.stringMatching(/^(sent|delivered)$/),
        port: from,
      });
      expect(r.number.replace(/\D/g, '')).toBe('12025550999');
    }
  });

  it('answers a wrong password and an unreachable device with errors a person can act on', async () => {
    bench = await start();
    const wrong = bench.driver('wrong-password');
    await expect(wrong.getStatus()).rejects.toMatchObject({ name: 'GatewayError', kind: 'auth' });
    const gone = bench.driver(undefined, `http://127.0.0.1:${await closedPort()}`);
    const err = await gone.getStatus().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ kind: 'network', message: 'connection refused' });
  });
});
