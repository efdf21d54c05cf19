import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { dispatchOnce } from '../modules/messaging/index.ts';
import { addService, addSimGateway, ledgerMismatches, type SeededGateway, seedGateway } from './fixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { startTestSmtp, type TestSmtp } from './smtp.ts';

// The set-ups many test files share, as vitest hooks. Each registers its hooks in the calling file
// and hands what it started to `ready`, which a file uses to fill its own variables:
//
//   let s: TestServer;
//   let admin: string;
//   serverWithAdmin((t) => ({ s, admin } = t));

/** A file's own server (started once, closed after its last test) and the administrator's token. */
export function serverWithAdmin(ready: (t: { s: TestServer; admin: string }) => void): void {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    ready({ s, admin: await s.adminToken() });
  });
  afterAll(async () => {
    await s.close();
  });
}

/**
 * A rental file's server: one seeded online gateway with `sims` SIMs, the given services, the
 * gateway reporting before every test (tests move the clock, as a live device would keep reporting),
 * and the ledger invariant checked after every test (each balance equals the sum of its ledger rows).
 */
export function serverWithGatewayAndServices(
  opts: {
    sims: number;
    numberBase?: number;
    env?: Record<string, string>;
    services: Parameters<typeof addService>[1][];
  },
  ready: (t: { s: TestServer; gw: SeededGateway }) => void,
): void {
  let s: TestServer;
  let gw: SeededGateway;
  beforeAll(async () => {
    s = await startTestServer(opts.env ? { env: opts.env } : {});
    gw = await seedGateway(s.db, {
      sims: opts.sims,
      lastUpdate: s.clock.now(),
      ...(opts.numberBase !== undefined ? { numberBase: opts.numberBase } : {}),
    });
    for (const service of opts.services) await addService(s.db, service);
    ready({ s, gw });
  });
  beforeEach(async () => {
    await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gw.id, s.clock.now()]);
  });
  afterEach(async () => {
    expect(await ledgerMismatches(s.db)).toEqual([]);
  });
  afterAll(async () => {
    await s.close();
  });
}

/**
 * A messaging file's server: started with `env` (the send rate, leases, attempts), the
 * administrator's token, send limits high enough for any campaign of the file. The simulated
 * gateways the file starts go in `sims`: after each test they are stopped and every gateway is
 * disabled (with `cancelLeftovers`, the messages still queued or in flight are cancelled too), so
 * each test starts with no gateway.
 */
export function serverSendingThroughSims(
  opts: { env: Record<string, string>; sims: { stop(): Promise<void> }[]; cancelLeftovers: boolean },
  ready: (t: { s: TestServer; admin: string }) => void,
): void {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: opts.env });
    const admin = await s.adminToken();
    await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
      token: admin,
    });
    ready({ s, admin });
  });
  afterAll(async () => {
    await Promise.all(opts.sims.map((x) => x.stop()));
    await s.close();
  });
  afterEach(async () => {
    await Promise.all(opts.sims.splice(0).map((x) => x.stop()));
    if (opts.cancelLeftovers)
      await s.db.query(
        `UPDATE messages SET status = 'cancelled' WHERE status IN ('queued', 'sending', 'sent')`,
      );
    await s.db.query('UPDATE gateways SET is_enable = false');
  });
}

/**
 * A chat file's server: the send rate and result timeout the conversations need, two users
 * (`alice`, `bob`), send limits high enough for any campaign, and one simulated gateway of `ports`
 * SIMs added and scanned through the admin API as `name`.
 */
export function serverWithTwoUsersAndSimGateway(
  opts: { ports: number; name: string },
  ready: (t: {
    s: TestServer;
    admin: string;
    alice: { id: string; token: string };
    bob: { id: string; token: string };
    sim: GatewaySim;
    gatewayId: string;
  }) => void,
): void {
  let s: TestServer;
  let sim: GatewaySim;
  beforeAll(async () => {
    s = await startTestServer({ env: { SMS_PER_SIM_PER_MINUTE: '60', SMS_RESULT_TIMEOUT_MINUTES: '10' } });
    const admin = await s.adminToken();
    const alice = await s.createUser();
    const bob = await s.createUser();
    await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
      token: admin,
    });
    sim = await GatewaySim.start({ ports: opts.ports, sendDelayMs: 5 });
    const gatewayId = await addSimGateway(s, admin, sim, opts.name);
    ready({ s, admin, alice, bob, sim, gatewayId });
  });
  afterAll(async () => {
    await sim?.stop();
    await s?.close();
  });
}

/**
 * Dispatcher ticks (one simulated second each, the gateway kept online on the manual clock: the one
 * of `gatewayId`, else every gateway) until `done` holds; throws after `ticks`.
 */
export async function dispatchUntil(
  t: { s: TestServer; sim: GatewaySim; gatewayId?: string },
  done: () => Promise<boolean>,
  ticks: number,
): Promise<void> {
  const { s, sim, gatewayId } = t;
  for (let i = 0; i < ticks; i++) {
    if (gatewayId === undefined) await s.db.query('UPDATE gateways SET last_update = $1', [s.clock.now()]);
    else await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gatewayId, s.clock.now()]);
    await dispatchOnce(s.ctx);
    await sim.pushesSettled();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
    s.clock.advance(1000);
  }
  throw new Error('not done in time');
}

/**
 * A file's server that sends mail to a local SMTP server (`smtp`, the test reads what it received),
 * with `env` on top of `SMTP_URL`.
 */
export function serverWithSmtp(
  env: Record<string, string>,
  ready: (t: { s: TestServer; smtp: TestSmtp }) => void,
): void {
  let smtp: TestSmtp | undefined;
  let s: TestServer | undefined;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    s = await startTestServer({ env: { SMTP_URL: smtp.url, ...env } });
    ready({ s, smtp });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });
}
