import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ROLE } from '@simdock/contract';
import { GatewaySim, type OutcomeFn } from '@simdock/gateway-sim';
import { GoipSim } from '@simdock/goip-sim';
import { PhoneSim } from '@simdock/phone-sim';
import type { AppContext } from '../context.ts';
import { credit } from '../modules/billing/index.ts';
import { setCountryPrice } from '../modules/catalogue/index.ts';
import {
  findGatewayByDevice,
  findGatewayByMacOrId,
  gatewaySettings,
  heldDatagramPort,
  saveGateway,
  scanGateway,
} from '../modules/gateways/index.ts';
import { sendMassSms, setLimitsIfUnset } from '../modules/messaging/index.ts';
import { seedDemoTopups } from '../modules/payments/index.ts';
import { saveService, servicesWithAvailability } from '../modules/rental/index.ts';
import { hashPassword, insertUser } from '../modules/users/index.ts';
import { runtimeKey } from '../runtime.ts';

// The demo: a simulated 16-SIM gateway, a simulated Android phone with 2 SIMs and a simulated
// GoIP-4 box in this process, realistic services and a user with money, so a newcomer can rent a
// number and watch the code arrive. Never with NODE_ENV=production.
// Its SIMs span three countries and four operators (DEMO_GATEWAY.carriers, DEMO_PHONE, DEMO_GOIP).

export const DEMO_USER = {
  username: 'demo',
  password: 'demo-pass-123',
  email: 'demo@simdock.local',
  balance: 25,
};
export const DEMO_GATEWAY = {
  name: 'Demo gateway (simulated)',
  mac: '00-30-f1-de-e0-01',
  userName: 'root',
  password: 'root',
  /** The carrier of each port's SIM (ports 1–16): 6 T-Mobile US, 5 Vodafone DE, 5 Telekom DE. */
  carriers: [
    ...Array<string>(6).fill('us-tmobile'),
    ...Array<string>(5).fill('de-vodafone'),
    ...Array<string>(5).fill('de-telekom'),
  ],
};

/** A simulated Android phone running SMSGate in Local mode (the phone's own server), 2 EE (GB) SIMs. */
export const DEMO_PHONE = {
  name: 'Demo phone (simulated)',
  deviceId: 'demo0000000000000000000000phone1',
  userName: 'sms',
  password: 'demo-phone',
  signingKey: 'demo-signing-key',
  slots: [
    // Fixed rather than drawn (the phone is not seeded, so its message ids differ between runs).
    { phoneNumber: '+447904366126', iccid: '8944308200631134950', carrierName: 'EE' },
    { phoneNumber: '+447400227997', iccid: '8944302242683900371', carrierName: 'EE' },
  ],
};

/**
 * A simulated GoIP-4 box: its 4 lines register with this server's GoIP port as `goip1` … `goip4`
 * (docs/devices-goip.md). Its web pages' URL and login are stored too, so Scan reads its status
 * page. Its numbers are its own: none is the gateway's, the phone's or a campaign recipient's.
 * Its SIMs are T-Mobile US ones (the simulator's default carrier: IMSI 310260…, ICCID 8901260…).
 */
export const DEMO_GOIP = {
  name: 'Demo GoIP-4 (simulated)',
  boxId: 'goip',
  password: 'demo-goip',
  webUser: 'admin',
  webPassword: 'demo-goip-web',
  sims: [
    { number: '12025550911', carrier: 'T-Mobile' },
    { number: '12025550912', carrier: 'T-Mobile' },
    { number: '12025550913', carrier: 'T-Mobile' },
    { number: '12025550914', carrier: 'T-Mobile' },
  ],
};

export const DEMO_SERVICES = [
  {
    name: 'Telegram',
    code: 'tg',
    price: 0.5,
    textContains: 'Telegram',
    pattern: '(\\d{5})',
    description: 'Telegram account sign-up',
  },
  {
    name: 'WhatsApp',
    code: 'wa',
    price: 0.8,
    textContains: 'WhatsApp',
    pattern: '(\\d{3}-\\d{3})',
    description: 'WhatsApp registration',
  },
  {
    name: 'Google',
    code: 'go',
    price: 0.4,
    textContains: 'Google',
    pattern: 'G-(\\d{6})',
    description: 'Google account verification; several codes can arrive',
    isRepeatable: true,
  },
  {
    name: 'Facebook',
    code: 'fb',
    price: 0.35,
    textContains: 'Facebook',
    pattern: '(\\d{5,8})',
    description: 'Facebook confirmation code',
  },
];

/** A few prices per country and operator, so Service Manager's grid and the Dashboard's filter show them. */
export const DEMO_COUNTRY_PRICES = [
  { service: 'tg', country: 'DE', operator: null, price: 0.65 },
  { service: 'tg', country: 'DE', operator: 'Vodafone', price: 0.7 },
  { service: 'wa', country: 'GB', operator: null, price: 1.2 },
] as const;

/** Bulk SMS limits the demo starts with (an admin's own values are never replaced). */
// Messages are priced in the demo (as an operator would), so costs, charges and refunds show.
export const DEMO_OUTREACH_LIMITS = {
  maxBatchSendSms: 1000,
  maxMsgPerDay: 5000,
  smsPricePerSegment: '0.0075',
  mmsPrice: '0.02',
};

/**
 * The demo gateway's SIM the network refuses: every send from it fails with the device's report
 * (fdr "6 Timeout"), so it locks itself after SimLockAfterFailures failures and its messages move
 * to the other SIMs.
 */
export const DEMO_FAILING_PORT = '16.01';

/**
 * The first bulk campaign of the demo user, so History has something to show at once: enough
 * messages for every SIM to send several, about as many as SimLockAfterFailures (5): the refused SIM
 * usually locks itself in it (with the GoIP lines, 22 SIMs share the 100 recipients).
 */
export const DEMO_CAMPAIGN = {
  recipients: Array.from({ length: 100 }, (_, i) => String(12025550100 + i * 7)),
  messages: [
    'Hi from SimDock demo: our spring sale starts today. Reply for details.',
    'SimDock demo: your table for two is booked for Friday 7 pm. Reply to change it.',
  ],
};

/** A stable small hash of a number: which demo recipients fail, reply, and what they say. */
function pick(number: string, salt: number): number {
  let h = salt;
  for (let i = 0; i < number.length; i++) h = (h * 31 + number.charCodeAt(i)) >>> 0;
  return h % 100;
}

const DEMO_REPLIES = ['Yes, interested!', 'Who is this?', 'Thanks', 'What time?', 'Call me later please'];

/**
 * About 1 demo recipient in 20 cannot be reached, whatever sends to it: the gateway's SIMs time out
 * and the phone reports Android's failure, so the message fails with the device's reason.
 */
export function demoUnreachable(number: string): boolean {
  return pick(number.replace(/\D/g, ''), 7) < 5;
}

/**
 * How the demo gateway's "carrier" behaves: unreachable recipients fail on every SIM (after the
 * retries), about 1 in 20 first hits a SIM that drops off the network (the message is retried on
 * another SIM and arrives).
 */
function demoOutcomes(): OutcomeFn {
  const unregisteredOnce = new Set<string>();
  return ({ to }) => {
    if (demoUnreachable(to)) return 'fail';
    const p = pick(to, 7);
    if (p < 10 && !unregisteredOnce.has(to)) {
      unregisteredOnce.add(to);
      return 'unregistered';
    }
    return 'ok';
  };
}

/** An SMS a simulated device sent, and how its recipient answers on the SIM that wrote to it. */
interface DemoSent {
  /** Unique per device and SMS. */
  key: string;
  to: string;
  answer: (text: string) => void;
}

/** What the demo gateway sent and the recipient got. */
const gatewaySent = (sim: GatewaySim) => (): DemoSent[] =>
  sim.sentTasks().flatMap((task) =>
    task.results
      .filter((r) => r.outcome === 'ok')
      .map((r) => ({
        key: `gateway ${task.tid}:${r.idx}`,
        to: r.to,
        answer: (text: string) => void sim.injectSms({ port: r.port, from: r.to, text }),
      })),
  );

/** What the demo GoIP box sent (each confirmed by its OK). */
const goipSent = (box: GoipSim) => (): DemoSent[] =>
  box.sent().map((s) => ({
    key: `goip ${s.smsNo}`,
    to: s.number,
    answer: (text: string) => void box.receiveSms(s.line, { from: s.number, text }),
  }));

/**
 * Simulated recipients: about 1 in 6 delivered recipients answers a few seconds later, on the SIM
 * that wrote to them; the third answer of a run (over all devices) is "STOP" (an opt-out), so every
 * part shows.
 */
function startDemoReplies(ctx: AppContext, sources: (() => DemoSent[])[]): () => void {
  const seen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let answers = 0;
  const poll = setInterval(() => {
    for (const s of sources.flatMap((source) => source())) {
      if (seen.has(s.key)) continue;
      seen.add(s.key);
      if (pick(s.to, 13) >= 17) continue;
      answers += 1;
      const text = answers === 3 ? 'STOP' : DEMO_REPLIES[pick(s.to, 29) % DEMO_REPLIES.length]!;
      const t = setTimeout(
        () => {
          timers.delete(t);
          // A GoIP line that dropped off the network cannot be reached: that answer is lost.
          try {
            s.answer(text);
          } catch (err) {
            ctx.log.debug({ err }, 'demo reply not sent');
          }
        },
        2000 + pick(s.to, 41) * 50,
      );
      timers.add(t);
    }
  }, 1000);
  poll.unref();
  return () => {
    clearInterval(poll);
    for (const t of timers) clearTimeout(t);
  };
}

/** A database with no services and no gateways is seeded; any other is left as it is. */
async function isEmpty(ctx: AppContext): Promise<boolean> {
  const [services, gateways] = await Promise.all([
    servicesWithAvailability(ctx, false),
    gatewaySettings(ctx),
  ]);
  return services.length === 0 && gateways.gateways.length === 0;
}

/** Starts a simulator on `port`, or on any free port when that one is taken. */
async function startOnFreePort<T>(
  ctx: AppContext,
  what: string,
  port: number,
  start: (port: number) => Promise<T>,
): Promise<T> {
  return start(port).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    ctx.log.warn(`Port ${port} is taken; the ${what} uses a free port instead`);
    return start(0);
  });
}

/** The simulated devices of a running demo (tests drive them: an OTP to a rented GoIP line). */
export interface DemoDevices {
  gateway?: GatewaySim;
  phone?: PhoneSim;
  goip?: GoipSim;
}

const DEMO_DEVICES = runtimeKey<DemoDevices>('demo.devices');

/** This server's demo devices (none when the demo is off). */
export function demoDevices(ctx: AppContext): DemoDevices {
  return ctx.runtime.get(DEMO_DEVICES, () => ({}));
}

/** How long the demo waits for the GoIP port, and for the demo box's lines to register. */
const GOIP_WAIT_MS = 5000;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/**
 * Where the demo GoIP box sends: this server's GoIP port, which its listener takes under a lock
 * shortly after start (a free one when GOIP_UDP_PORT is 0). When this process does not get it in
 * time, another process of the deployment holds the configured port: the box sends there. Undefined
 * when there is nowhere to send (a free port this process did not get).
 */
async function goipServer(ctx: AppContext): Promise<{ host: string; port: number } | undefined> {
  const bindHost = ctx.config.GOIP_UDP_HOST;
  const host = bindHost === '0.0.0.0' || bindHost === '::' ? '127.0.0.1' : bindHost;
  if (await until(() => heldDatagramPort(ctx, 'goip') !== undefined, GOIP_WAIT_MS))
    return { host, port: heldDatagramPort(ctx, 'goip')! };
  const port = ctx.config.GOIP_UDP_PORT;
  if (port === 0) {
    ctx.log.warn('This process holds no GoIP port: the demo GoIP box is not started');
    return undefined;
  }
  ctx.log.warn(
    `This process does not hold the GoIP port ${port} (another process holds it, or the port is taken): the demo GoIP box sends there`,
  );
  return { host, port };
}

/** Starts the demo devices; seeds services, the devices and the demo user into an empty database. */
export async function startDemo(ctx: AppContext): Promise<() => Promise<void>> {
  const port = ctx.config.DEMO_GATEWAY_PORT ?? (ctx.config.PORT === 0 ? 0 : ctx.config.PORT + 1);
  const options = {
    ports: 16,
    slots: 1,
    seed: 2026,
    mac: DEMO_GATEWAY.mac,
    username: DEMO_GATEWAY.userName,
    password: DEMO_GATEWAY.password,
    failingPorts: [DEMO_FAILING_PORT],
    carriers: DEMO_GATEWAY.carriers,
  };
  // The preferred port may be taken on this machine: any free port will do, the gateway follows it.
  const sim = await startOnFreePort(ctx, 'demo gateway', port, (p) =>
    GatewaySim.start({ ...options, port: p }),
  );
  ctx.log.info(`Demo gateway (simulated) at ${sim.url}`);
  sim.setOutcome(demoOutcomes());
  const devices = demoDevices(ctx);
  devices.gateway = sim;
  const replySources = [gatewaySent(sim)];
  const stopReplies = startDemoReplies(ctx, replySources);
  let phone: PhoneSim | undefined;
  let goip: GoipSim | undefined;
  const stop = async () => {
    stopReplies();
    await sim.stop();
    await phone?.stop();
    await goip?.stop();
    delete devices.gateway;
    delete devices.phone;
    delete devices.goip;
  };
  try {
    phone = await startOnFreePort(ctx, 'demo phone', port === 0 ? 0 : port + 1, (p) =>
      PhoneSim.start({
        port: p,
        mode: 'local',
        username: DEMO_PHONE.userName,
        password: DEMO_PHONE.password,
        signingKey: DEMO_PHONE.signingKey,
        deviceId: DEMO_PHONE.deviceId,
        name: 'google/pixel7',
        slots: DEMO_PHONE.slots,
        // The demo server is plain http on this machine (a real phone needs https).
        allowHttpWebhooks: true,
        stepMs: 400,
      }),
    );
    devices.phone = phone;
    ctx.log.info(`Demo phone (simulated) at ${phone.url}`);
    // One simulated network behind every device: a recipient the gateway cannot reach, the phone cannot either.
    phone.setOutcome(({ phoneNumber }) => (demoUnreachable(phoneNumber) ? 'failed' : 'delivered'));
    if (await setLimitsIfUnset(ctx, DEMO_OUTREACH_LIMITS)) ctx.log.info('Demo bulk SMS limits set');
    if (await isEmpty(ctx)) {
      const ids = new Map<string, string>();
      for (const s of DEMO_SERVICES) ids.set(s.code, (await saveService(ctx, { ...s, stock: 100 })).id);
      await ctx.db.tx(async (q) => {
        for (const p of DEMO_COUNTRY_PRICES) {
          await setCountryPrice(q, { ...p, serviceId: ids.get(p.service)!, at: ctx.clock.now() });
        }
      });
      const user = await insertUser(ctx.db, {
        username: DEMO_USER.username,
        email: DEMO_USER.email,
        passwordHash: await hashPassword(DEMO_USER.password),
        roles: [DEFAULT_ROLE],
      });
      if (user.row) {
        const userId = user.row.id;
        // Part of the starting balance arrives as a sandbox top-up, so Top up and Payment Manager have history.
        const toppedUp = await seedDemoTopups(ctx, userId);
        await ctx.db.tx((q) =>
          credit(q, {
            userId,
            amount: DEMO_USER.balance - toppedUp,
            kind: 'demo_credit',
            ref: null,
            at: ctx.clock.now(),
          }),
        );
        // A first campaign: the dispatcher sends it through the demo devices once they are online.
        await sendMassSms(
          ctx,
          { id: userId, username: DEMO_USER.username, roles: [DEFAULT_ROLE] },
          { number: DEMO_CAMPAIGN.recipients.join('\n'), mess: DEMO_CAMPAIGN.messages.join('\n') },
        );
      }
      ctx.log.info('Demo data seeded');
    }
    // The simulators' ports can differ between runs: point the devices at them, then scan, which
    // also points their pushes at us (the box's status pushes, the phone's webhooks and pings).
    const existing = await findGatewayByMacOrId(ctx, DEMO_GATEWAY.mac);
    const gw = await saveGateway(ctx, {
      ...(existing ? { id: existing.id } : {}),
      name: DEMO_GATEWAY.name,
      url: sim.url,
      mac: DEMO_GATEWAY.mac,
      userName: DEMO_GATEWAY.userName,
      password: DEMO_GATEWAY.password,
      isEnable: true,
    });
    await scanGateway(ctx, gw.id);
    const existingPhone = await findGatewayByDevice(ctx, 'smsgate', DEMO_PHONE.deviceId);
    const phoneGw = await saveGateway(ctx, {
      ...(existingPhone ? { id: existingPhone.id } : {}),
      kind: 'smsgate',
      mode: 'local',
      name: DEMO_PHONE.name,
      url: phone.url,
      userName: DEMO_PHONE.userName,
      password: DEMO_PHONE.password,
      deviceId: DEMO_PHONE.deviceId,
      signingKey: DEMO_PHONE.signingKey,
      isEnable: true,
    });
    await scanGateway(ctx, phoneGw.id);
    goip = await startDemoGoip(ctx);
    if (goip) {
      devices.goip = goip;
      replySources.push(goipSent(goip));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}

/**
 * The demo GoIP box: saved first (a line whose box is unknown gets no answer), then started, so
 * its first keepalives, sent at once, register its lines and bring its SIMs in before the demo
 * is up. Its keepalives then come every 30 s, as a real box's do.
 */
async function startDemoGoip(ctx: AppContext): Promise<GoipSim | undefined> {
  const server = await goipServer(ctx);
  const existing = await findGatewayByDevice(ctx, 'goip', DEMO_GOIP.boxId);
  const gateway = {
    kind: 'goip' as const,
    name: DEMO_GOIP.name,
    url: '',
    userName: DEMO_GOIP.boxId,
    password: DEMO_GOIP.password,
    isEnable: true,
  };
  const saved = await saveGateway(ctx, { ...(existing ? { id: existing.id } : {}), ...gateway });
  if (!server) return undefined;
  // The same outcomes: the first campaign's unreachable recipients are refused on the box's lines
  // too (another SIM tries them, as after any line's send error). The box takes a list of numbers,
  // not a rule, so other unreachable numbers go out through it.
  const failingNumbers: Record<string, number> = {};
  for (const n of DEMO_CAMPAIGN.recipients.filter(demoUnreachable)) {
    failingNumbers[n] = 3;
    failingNumbers[`+${n}`] = 3;
  }
  const box = await GoipSim.start({
    server,
    lines: DEMO_GOIP.sims.length,
    idPrefix: DEMO_GOIP.boxId,
    password: DEMO_GOIP.password,
    seed: 2026,
    sims: DEMO_GOIP.sims,
    // Quicker than a real line (2–5 s an SMS), so a demo campaign finishes while one watches.
    sendMs: [400, 1200],
    deliverMs: 800,
    failingNumbers,
    httpUser: DEMO_GOIP.webUser,
    httpPassword: DEMO_GOIP.webPassword,
  });
  ctx.log.info(`Demo GoIP-4 (simulated) sends to udp://${server.host}:${server.port}`);
  if (!(await until(() => box.lines().every((l) => l.registered), GOIP_WAIT_MS)))
    ctx.log.warn('The demo GoIP box has not registered yet; its SIMs appear with its next keepalives');
  // Its web pages listen on a port of their own, known once it runs: stored once its
  // lines have registered (as before, the campaign finds them by their keepalives), so Scan works.
  await saveGateway(ctx, {
    ...gateway,
    id: saved.id,
    url: box.url,
    webUser: DEMO_GOIP.webUser,
    webPassword: DEMO_GOIP.webPassword,
  });
  return box;
}

/** In demo mode a generated admin password is also kept in the data directory, for convenience. */
export function keepDemoAdminPassword(ctx: AppContext, password: string): string {
  const file = join(ctx.config.DATA_DIR, 'admin-password.txt');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return file;
}
