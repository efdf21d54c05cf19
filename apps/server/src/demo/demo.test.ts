import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { startServer } from '../server.ts';
import { ledgerMismatches, waitFor } from '../test/fixtures.ts';
import { openTestDb, type TestDb, testConfig } from '../test/harness.ts';
import { DEMO_GATEWAY, DEMO_GOIP, DEMO_PHONE, DEMO_SERVICES, DEMO_USER, demoDevices } from './demo.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await openTestDb();
});
afterAll(async () => {
  await testDb.drop();
});

const start = () =>
  startServer({
    config: testConfig({ DEMO: 'true' }),
    db: testDb.db,
    clock: new ManualClock(),
    workers: false,
    logStream: { write: () => {} },
  });

async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/Auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function post(url: string, token: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('demo mode', () => {
  it('seeds an empty database once, and brings the simulated gateway back online on every start', async () => {
    const first = await start();
    try {
      const services = await testDb.db.query<{ code: string }>('SELECT code FROM services ORDER BY code');
      expect(services.map((s) => s.code)).toEqual(DEMO_SERVICES.map((s) => s.code).sort());
      const token = await login(first.url, DEMO_USER.username, DEMO_USER.password);
      const info = await fetch(`${first.url}/api/user/info`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      // The starting balance less the demo campaign (100 one-segment messages at the demo price),
      // plus what failed sends have been given back so far.
      const { balance } = (await info.json()) as { balance: number };
      expect(balance).toBeGreaterThanOrEqual(DEMO_USER.balance - 0.75);
      expect(balance).toBeLessThan(DEMO_USER.balance);
      // Top-up history made through the sandbox: paid (credited), failed, still open.
      const history = await fetch(`${first.url}/api/Payments/history?page=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const items = ((await history.json()) as { items: { status: string; amount: number }[] }).items;
      expect(items.map((p) => `${p.status} ${p.amount}`).sort()).toEqual([
        'DONE 10',
        'FAILED 50',
        'PENDING 20',
      ]);
      const ledger = await testDb.db.query<{ kind: string; amount: string }>(
        "SELECT kind, amount::text AS amount FROM ledger l JOIN users u ON u.id = l.user_id WHERE u.username = 'demo' AND kind <> 'message_refund' ORDER BY kind",
      );
      expect(ledger).toEqual([
        { kind: 'demo_credit', amount: '15.00' },
        { kind: 'message_charge', amount: '-0.75' },
        { kind: 'topup', amount: '10.00' },
      ]);
      const list = (await (await fetch(`${first.url}/api/Service/getall`, { method: 'POST' })).json()) as {
        services: { code: string; available: number }[];
      };
      // The GoIP box's lines registered with the server's GoIP port (a free one here) by their first
      // keepalives, which brought each line's SIM into the inventory, the line number as its port.
      const goipSims = await testDb.db.query<{
        port: string;
        number: string | null;
        imsi: string | null;
        iccid: string | null;
        imei: string | null;
        operator: string | null;
        state: string;
      }>(
        `SELECT s.port, s.number, s.imsi, s.iccid, s.imei, s.operator, s.state FROM sims s
           JOIN gateways g ON g.id = s.gateway_id WHERE g.driver = 'goip' ORDER BY s.port`,
      );
      expect(goipSims).toEqual(
        DEMO_GOIP.sims.map((sim, i) => ({
          port: String(i + 1),
          number: sim.number,
          imsi: expect.stringMatching(/^310260\d{9}$/),
          iccid: expect.stringMatching(/^8901260\d{12}$/),
          imei: expect.stringMatching(/^86203204\d{7}$/),
          operator: sim.carrier,
          state: 'ready',
        })),
      );
      // The box's 16 SIMs, the phone's 2 and the GoIP box's 4, less the 4 kept for sending (20 % of
      // 22, rounded down).
      expect(list.services.find((s) => s.code === 'tg')?.available).toBe(18);
      // Three countries and four operators, told by the SIMs themselves, and Germany's own price.
      const countries = (await (
        await fetch(`${first.url}/api/Catalogue/countries`, { method: 'POST' })
      ).json()) as {
        countries: { country: string; operators: { name: string }[] }[];
      };
      expect(countries.countries.map((c) => c.country).sort()).toEqual(['DE', 'GB', 'US']);
      expect(countries.countries.flatMap((c) => c.operators.map((o) => o.name)).sort()).toEqual([
        'EE',
        'T-Mobile',
        'Telekom',
        'Vodafone',
      ]);
      const germany = (await (
        await fetch(`${first.url}/api/Service/getall`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ country: 'DE' }),
        })
      ).json()) as { services: { code: string; price: number; available: number }[] };
      expect(germany.services.find((s) => s.code === 'tg')).toMatchObject({ price: 0.65 });
      const adminToken = await login(first.url, 'admin', 'admin-password-1');
      const overview = (await (
        await fetch(`${first.url}/api/Admin/overview`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}` },
        })
      ).json()) as { simsKeptForSending: number };
      // The demo's limits are starting values, not a change by anyone (never "by demo", the user's name).
      const limits = (await (
        await fetch(`${first.url}/api/Admin/getOutreachSettings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}` },
        })
      ).json()) as { maxBatchSendSms: number; updatedAt: string | null; updatedBy: string | null };
      expect(limits).toMatchObject({ maxBatchSendSms: 1000, updatedAt: null, updatedBy: null });
      // The demo's Overview shows the share.
      expect(overview.simsKeptForSending).toBe(4);
    } finally {
      await first.stop();
    }

    // A restart: nothing is seeded twice, and the gateway points at the new simulator and is Online.
    const second = await start();
    try {
      const counts = await testDb.db.query<{ services: number; gateways: number; users: number }>(
        `SELECT (SELECT count(*) FROM services)::int AS services, (SELECT count(*) FROM gateways)::int AS gateways,
                (SELECT count(*) FROM users WHERE username = 'demo')::int AS users`,
      );
      expect(counts[0]).toEqual({ services: DEMO_SERVICES.length, gateways: 3, users: 1 });
      const admin = await login(second.url, 'admin', 'admin-password-1');
      const settings = (await (
        await fetch(`${second.url}/api/Admin/getSettings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}` },
        })
      ).json()) as { gateways: { name: string; onlineStatus: string; totalSIM: number; kind: string }[] };
      // Listed by name: the order is the list's, not the demo's.
      expect(settings.gateways).toHaveLength(3);
      expect(settings.gateways).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: DEMO_GATEWAY.name,
            onlineStatus: 'Online',
            totalSIM: 16,
            kind: 'ejoin',
          }),
          expect.objectContaining({
            name: DEMO_PHONE.name,
            onlineStatus: 'Online',
            totalSIM: 2,
            kind: 'smsgate',
          }),
          expect.objectContaining({
            name: DEMO_GOIP.name,
            onlineStatus: 'Online',
            totalSIM: 4,
            kind: 'goip',
          }),
        ]),
      );

      // Its web pages' URL and login are stored: Scan reads the box's status page.
      const [goipRow] = await testDb.db.query<{ id: string }>(
        "SELECT id FROM gateways WHERE driver = 'goip'",
      );
      const scan = await post(`${second.url}/api/Admin/gatewayScan`, admin, { id: goipRow!.id });
      expect(scan.status, await scan.clone().text()).toBe(200);

      // A rental on a GoIP line: the other devices' SIMs only send, so the rent picks one of the
      // box's lines; the service's SMS arrives on that line (RECEIVE) and its code reaches the order.
      const sims = await testDb.db.query<{ gateway_id: string; port: string }>(
        `SELECT s.gateway_id, s.port FROM sims s JOIN gateways g ON g.id = s.gateway_id WHERE g.driver <> 'goip'`,
      );
      for (const sim of sims) {
        const res = await post(`${second.url}/api/Admin/setSimRole`, admin, {
          gatewayId: sim.gateway_id,
          port: sim.port,
          role: 'messaging',
        });
        expect(res.status).toBe(200);
      }
      const user = await login(second.url, DEMO_USER.username, DEMO_USER.password);
      const rented = await post(`${second.url}/api/Order/create`, user, { serviceCode: 'tg' });
      expect(rented.status).toBe(200);
      const order = ((await rented.json()) as { data: { id: string | number; phoneNumber: string } }).data;
      const line = DEMO_GOIP.sims.findIndex((sim) => sim.number === order.phoneNumber) + 1;
      expect(line).toBeGreaterThan(0);
      const sent = demoDevices(second.ctx).goip!.receiveSms(line, {
        from: 'Telegram',
        text: 'Telegram code: 70412. Do not give it to anyone.',
      });
      // The server acknowledged the RECEIVE, so the box sends it no more.
      expect(await sent.done).toBe(true);
      const done = await waitFor(async () => {
        const [row] = await testDb.db.query<{ status: string; code_text: string | null }>(
          'SELECT status, code_text FROM orders WHERE id = $1',
          [order.id],
        );
        return row?.status === 'SUCCESS' && row;
      });
      expect(done).toEqual({ status: 'SUCCESS', code_text: '70412' });
      expect(await ledgerMismatches(testDb.db)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
