// The GoIP port across real server processes on one PostgreSQL database: one process holds it at a
// time; a renter's code arrives whichever process the renter talks to; when the holder is killed
// another takes the port over within seconds, and the box's re-sent SMS is stored once.
import { type EndpointBody, type EndpointDeclaration, endpoints } from '@simdock/contract';
import { GoipSim } from '@simdock/goip-sim';
import { freeUdpPort } from '@simdock/goip-sim/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/fixtures.ts';
import { openTestDb, TEST_DB } from '../../test/harness.ts';
import { PROCESS_ADMIN_PASSWORD, type ServerProcess, startServerProcess } from '../../test/process.ts';
import { requestJson } from '../../test/request.ts';
import { credit } from '../billing/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field and assert each one.
type Loose = Record<string, any>;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
});

const post = <E extends EndpointDeclaration>(
  p: ServerProcess,
  e: E,
  body?: EndpointBody<E>,
  token?: string,
) => requestJson<Loose>(p.url, 'POST', e.path, body ?? {}, token);

async function ok<E extends EndpointDeclaration>(
  p: ServerProcess,
  e: E,
  body?: EndpointBody<E>,
  token?: string,
) {
  const res = await post(p, e, body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe.runIf(TEST_DB === 'pg')('the GoIP port across server processes', () => {
  it('is held by one process; codes reach renters through either; a killed holder is replaced within seconds, nothing lost or stored twice', async () => {
    const testDb = await openTestDb();
    cleanups.push(() => testDb.drop());
    const udp = await freeUdpPort();
    const env = {
      GOIP_UDP_PORT: String(udp),
      GOIP_UDP_HOST: '127.0.0.1',
      SMS_PER_SIM_PER_MINUTE: '600',
      SMS_DISPATCH_INTERVAL_MS: '250',
    };
    const start = async (name: string) => {
      const p = await startServerProcess({ databaseUrl: testDb.url!, env });
      cleanups.push(() => p.stop('SIGKILL'));
      return Object.assign(p, { name });
    };
    const a = await start('a');
    await a.waitForLog(/listening for device datagrams/);
    const b = await start('b');
    const holds = (p: ServerProcess) =>
      p.logs.filter((l) => l.includes('listening for device datagrams')).length;

    const admin = (await ok(a, endpoints.auth.login, { username: 'admin', password: PROCESS_ADMIN_PASSWORD }))
      .token as string;
    const gw = await ok(
      a,
      endpoints.gateway.update,
      { gateway: { name: 'GoIP-4', kind: 'goip', url: '', userName: 'roof', password: 'line-pw' } },
      admin,
    );
    expect(gw.deviceServer).toEqual({ host: '127.0.0.1', port: udp });
    await ok(
      b,
      endpoints.service.update,
      { name: 'Telegram', code: 'tg', price: 0.5, textContains: 'Telegram', pattern: '(\\d{5})' },
      admin,
    );
    const box = await GoipSim.start({
      server: { host: '127.0.0.1', port: udp },
      lines: 2,
      idPrefix: 'roof',
      password: 'line-pw',
      keepaliveMs: 300,
      // While no process holds the port the box keeps re-sending its SMS (every 300 ms, for 15 s).
      reportRetryMs: 300,
      reportResends: 50,
      sendMs: 50,
      deliverMs: 50,
      seed: 4,
    });
    cleanups.push(() => box.stop());
    await waitFor(async () => {
      const rows = await testDb.db.query("SELECT 1 FROM sims WHERE gateway_id = $1 AND state = 'ready'", [
        gw.id,
      ]);
      return rows.length === 2;
    }, 10_000);

    await ok(b, endpoints.auth.register, {
      username: 'renter',
      email: 'renter@example.com',
      passwordHash: 'password-123',
    });
    const user = (await ok(b, endpoints.auth.login, { username: 'renter', password: 'password-123' }))
      .token as string;
    const userId = JSON.parse(Buffer.from(user.split('.')[1]!, 'base64url').toString()).sub as string;
    await testDb.db.tx((q) =>
      credit(q, { userId, amount: '5.00', kind: 'topup', ref: null, at: new Date() }),
    );

    const lineOf = (number: string) => [1, 2].find((n) => box.line(n).sim.number === number)!;
    const codeOf = async (p: ServerProcess, orderId: string) => {
      const list = await ok(p, endpoints.order.getByUser, undefined, user);
      return (list.orders as Loose[]).find((o) => o.id === orderId)?.codeText as string | null | undefined;
    };

    // Rented through b, the SMS reaches a (the holder): the code is the renter's.
    const first = (await ok(b, endpoints.order.create, { serviceCode: 'tg' }, user)).data;
    box.receiveSms(lineOf(first.phoneNumber), { from: 'Telegram', text: 'Telegram code: 11111' });
    expect(await waitFor(() => codeOf(b, first.id), 10_000)).toBe('11111');

    // Bulk SMS asked for through b, dispatched by either process, go out through a's socket, once each.
    await ok(b, endpoints.settings.update, { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 }, admin);
    const numbers = ['15550108801', '15550108802', '15550108803', '15550108804'];
    await ok(b, endpoints.outreach.sendMassSms, { number: numbers.join('\n'), mess: 'See you at 5' }, user);
    await waitFor(async () => {
      const rows = await testDb.db.query("SELECT 1 FROM messages WHERE status = 'delivered'");
      return rows.length === 4;
    }, 15_000);
    expect(
      box
        .sent()
        .map((m) => m.number)
        .sort(),
    ).toEqual(numbers);

    // The holder dies; its SMS keeps coming until the process that takes the port over answers it.
    const second = (await ok(a, endpoints.order.create, { serviceCode: 'tg' }, user)).data;
    expect(holds(a)).toBe(1);
    await a.stop('SIGKILL');
    const killedAt = Date.now();
    const sms = box.receiveSms(lineOf(second.phoneNumber), {
      from: 'Telegram',
      text: 'Telegram code: 22222',
    });
    await b.waitForLog(/listening for device datagrams/, 15_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(await waitFor(() => codeOf(b, second.id), 10_000)).toBe('22222');
    expect(await sms.done).toBe(true);
    const stored = await testDb.db.query("SELECT 1 FROM incoming_sms WHERE body LIKE 'Telegram code: %'");
    expect(stored).toHaveLength(2);
    // The lines registered again with the new holder (its keepalive answers).
    await waitFor(async () => box.lines().every((l) => l.registered), 5000);
    expect(holds(b)).toBe(1);
  }, 60_000);
});
