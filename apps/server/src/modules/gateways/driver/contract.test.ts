import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewaySim } from '@simdock/gateway-sim';
import { GoipSim } from '@simdock/goip-sim';
import { GoipTestServer } from '@simdock/goip-sim/testkit';
import { PhoneSim, type Received, type Receiver, startReceiver } from '@simdock/phone-sim';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  DatagramLink,
  DevicePush,
  DriverTarget,
  GatewayDriver,
  HeldResult,
  HttpPushTransport,
  IncomingSmsItem,
  PushUrls,
} from './driver.ts';
import { GatewayError } from './driver.ts';
import { EjoinDriver } from './ejoin.ts';
import { GoipDriver } from './goip.ts';
import { SmsGateDriver } from './smsgate.ts';

// The driver contract, the same scenarios for every driver against its device's simulator over the
// real protocol: what the platform relies on (SIMs by slot, incoming SMS and send results in the
// platform's words, duplicates accepted, errors a person can act on) does not depend on the vendor.
// How an incoming SMS reaches the platform is the device's: pushed over HTTP, pushed as a datagram
// (a GoIP line's RECEIVE), or read from the device's inbox (a GoIP box read through its web pages).
// How a send reaches it too: handed over in one request (sendTasks, results pushed later) or held by
// the platform and run by the driver (sendHeld, results as they come).

interface Bench {
  /** A driver for the device; `password` is the one its status is read with. */
  driver(password?: string, url?: string): GatewayDriver;
  /** The device receives an SMS on the SIM in `slot`. */
  receive(slot: string, from: string, text: string): void;
  /** Whatever the driver must do before the device hands over SMS (point its pushes at a receiver). */
  connect(driver: GatewayDriver): Promise<void>;
  /** The incoming SMS the device handed over since `connect`, read by the driver. */
  incoming(driver: GatewayDriver): Promise<IncomingSmsItem[]>;
  /** How sends reach the device: `direct` (sendTasks, reports pushed) or `held` (sendHeld through `link`). */
  sends:
    | { kind: 'direct'; urls: () => PushUrls; reports: (d: GatewayDriver) => DevicePush[] }
    | { kind: 'held'; link: () => DatagramLink }
    | null;
  settle(): Promise<void>;
  stop(): Promise<void>;
}

const KEY = 'contract-key';

/** A bench whose device pushes to the platform's HTTP URLs: a receiver stands in for the platform. */
async function httpBench(device: Omit<Bench, 'connect' | 'incoming' | 'sends'>): Promise<Bench> {
  const r = await startReceiver();
  const urls = urlsOf(r);
  const pushes = (driver: GatewayDriver) => r.got.map((g) => read(driver, g));
  return {
    ...device,
    connect: async (driver) => {
      await driver.connect(urls);
    },
    incoming: async (driver) => {
      await device.settle();
      return pushes(driver).flatMap((p) => (p.kind === 'sms' ? p.items : []));
    },
    sends: { kind: 'direct', urls: () => urls, reports: pushes },
    stop: async () => {
      await device.stop();
      await r.close();
    },
  };
}

/** What a held send needs from the platform when the device is reached over HTTP: only the stop signal. */
function webLink(): DatagramLink {
  const none = () => {
    throw new Error('a send through web pages uses no datagram');
  };
  return {
    port: { send: none, localPort: 0 },
    peerOf: none,
    newRequestId: none,
    answers: none,
    closed: new AbortController().signal,
  };
}

const goipTarget = (over: Partial<DriverTarget>): DriverTarget => ({
  url: '',
  username: 'roof',
  password: 'line-pw',
  mode: 'web',
  externalId: 'roof',
  signingKey: null,
  webUser: 'admin',
  webPassword: 'web-pw',
  ...over,
});

/** `sends`: how the platform hands the kind its sends (null: not run against this bench). */
const DRIVERS: { name: string; sends: 'direct' | 'held' | null; start(): Promise<Bench> }[] = [
  {
    name: 'ejoin (multi-port box)',
    sends: 'direct',
    async start() {
      const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
      return httpBench({
        driver: (password = 'root', url = sim.url) => new EjoinDriver({ url, username: 'root', password }),
        receive: (slot, from, text) => sim.injectSms({ port: slot, from, text }),
        settle: () => sim.pushesSettled(),
        stop: () => sim.stop(),
      });
    },
  },
  {
    name: 'smsgate (Android phone, Local mode)',
    sends: 'direct',
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
      return httpBench({
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
      });
    },
  },
  {
    name: 'goip (box read through its web pages)',
    sends: 'held',
    async start() {
      const sim = await GoipSim.start({
        udp: false,
        lines: 2,
        sendMs: 5,
        seed: 3,
        httpUser: 'admin',
        httpPassword: 'web-pw',
      });
      return {
        driver: (password = 'web-pw', url = sim.url) =>
          new GoipDriver(goipTarget({ url, webPassword: password }), undefined, { pollMs: 10 }),
        receive: (slot, from, text) => void sim.receiveSms(Number(slot), { from, text }),
        connect: async (driver) => {
          await driver.connect(urlsOf({ url: 'http://unused' }));
        },
        // The box keeps its SMS in its inbox page: the platform reads it (the catch-up poll).
        incoming: async (driver) => (await driver.pullSms!(1)).items,
        sends: { kind: 'held', link: webLink },
        settle: async () => {},
        stop: () => sim.stop(),
      };
    },
  },
  {
    name: 'goip (lines over UDP; status read from the web pages)',
    // Its sessions run on the platform's own socket (goip.test.ts, held-sends.test.ts).
    sends: null,
    async start() {
      // Stands where the platform's UDP port is: it keeps each datagram with its source and acks it.
      const srv = await GoipTestServer.start();
      const sim = await GoipSim.start({
        server: srv.address,
        lines: 2,
        idPrefix: 'roof',
        password: 'line-pw',
        keepaliveMs: 60_000,
        deliverMs: null,
        seed: 3,
        httpUser: 'admin',
        httpPassword: 'web-pw',
      });
      return {
        driver: (password = 'web-pw', url = sim.url) =>
          new GoipDriver(goipTarget({ url, webPassword: password, mode: 'udp' })),
        receive: (slot, from, text) => void sim.receiveSms(Number(slot), { from, text }),
        connect: async (driver) => {
          await driver.connect(urlsOf({ url: 'http://unused' }));
        },
        // A line pushes each SMS as a RECEIVE datagram: read as the platform's port reads it.
        incoming: async (driver) => {
          const got = await srv.waitFor((d) => d.text.startsWith('RECEIVE:'));
          return got.flatMap((d) => {
            const push = driver.readPush({
              transport: { kind: 'datagram', from: d.from },
              body: Buffer.from(d.text),
              now: new Date(),
            }).push;
            return push.kind === 'sms' ? push.items : [];
          });
        },
        sends: null,
        settle: async () => {},
        stop: async () => {
          await sim.stop();
          await srv.close();
        },
      };
    },
  },
];

let bench: Bench | undefined;
afterEach(async () => {
  await bench?.stop();
  bench = undefined;
});

const urlsOf = (r: Pick<Receiver, 'url'>): PushUrls => ({
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

  it('brings an incoming SMS to the platform as one item on the receiving SIM, text whole', async () => {
    bench = await start();
    const driver = bench.driver();
    await bench.connect(driver);
    const [sim] = (await driver.getStatus()).sims;
    const text = 'Your Code: 31337; valid 5 min, "ok" ✓';
    bench.receive(sim!.slot, '+15550001234', text);
    const sms = await until(async () => {
      const got = await bench!.incoming(driver);
      return got.length > 0 ? got : undefined;
    });
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ isReport: false, port: sim!.slot, text });
    expect(sms[0]!.sender.replace(/\D/g, '')).toBe('15550001234');
    // The device's time when it gives one (a GoIP line's RECEIVE carries none).
    if (sms[0]!.ts !== null) expect(sms[0]!.ts).toBeGreaterThan(1_700_000_000);
  });

  it('answers a wrong password and an unreachable device with errors a person can act on', async () => {
    bench = await start();
    const wrong = bench.driver('wrong-password');
    const refused = await wrong.getStatus().catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'GatewayError', kind: 'auth' });
    expect((refused as Error).message).not.toContain('wrong-password');
    const gone = bench.driver(undefined, `http://127.0.0.1:${await closedPort()}`);
    const err = await gone.getStatus().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ kind: 'network', message: 'connection refused' });
  });
});

describe.each(DRIVERS.filter((d) => d.sends === 'direct'))(
  'driver contract, sends handed over: $name',
  ({ start }) => {
    it('sends from the chosen SIM, accepts a repeated task, and reports the result by task id', async () => {
      bench = await start();
      const sends = bench.sends;
      if (sends?.kind !== 'direct') throw new Error('this bench does not hand over sends directly');
      const driver = bench.driver();
      const urls = sends.urls();
      await bench.connect(driver);
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
        const got = sends.reports(driver).flatMap((p) => (p.kind === 'report' ? p.results : []));
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
  },
);

describe.each(DRIVERS.filter((d) => d.sends === 'held'))(
  'driver contract, sends held by the platform: $name',
  ({ start }) => {
    it('runs held sends from the chosen SIM and settles each by task id', async () => {
      bench = await start();
      const sends = bench.sends;
      if (sends?.kind !== 'held') throw new Error('this bench does not hold sends');
      const driver = bench.driver();
      const from = (await driver.getStatus()).sims[1]!.slot;
      const settled: HeldResult[] = [];
      await driver.sendHeld!(
        [
          { tid: 4242, to: '12025550999', sms: 'Hello from the contract', from },
          { tid: 4243, to: '12025550998', sms: 'Hello from the contract', from },
        ],
        sends.link(),
        async (r) => {
          settled.push(...r);
        },
      );
      expect(settled.map((r) => [r.tid, r.outcome])).toEqual([
        [4242, 'accepted'],
        [4243, 'accepted'],
      ]);
    });
  },
);
