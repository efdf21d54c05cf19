// Faults with real server processes on one PostgreSQL database: kill -9 while bulk SMS are being
// handed to a device and while top-ups are being credited, then a new process on the same
// database; and a graceful SIGTERM with work in flight. (PostgreSQL going away is in
// http/readiness.test.ts; a gateway going offline mid-campaign in messaging.dispatch.test.ts.)
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type EndpointBody, type EndpointDeclaration, endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { credit } from './modules/billing/index.ts';
import { ledgerMismatches, waitFor } from './test/fixtures.ts';
import { openTestDb, TEST_DB, type TestDb } from './test/harness.ts';
import {
  freePort,
  PROCESS_ADMIN_PASSWORD,
  PROCESS_APP_SECRET,
  type ServerProcess,
  startServerProcess,
} from './test/process.ts';
import { requestJson } from './test/request.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field and assert each one.
type Loose = Record<string, any>;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
});

async function freshDb(): Promise<TestDb> {
  const testDb = await openTestDb();
  cleanups.push(() => testDb.drop());
  return testDb;
}

async function serverProcess(...args: Parameters<typeof startServerProcess>): Promise<ServerProcess> {
  const p = await startServerProcess(...args);
  cleanups.push(() => p.stop('SIGKILL'));
  return p;
}

/** A JSON POST to one process, `{}` when the endpoint takes no body (as `s.post` sends). */
const post = <E extends EndpointDeclaration>(
  p: ServerProcess,
  endpoint: E,
  body?: EndpointBody<E>,
  token?: string,
) => requestJson<Loose>(p.url, 'POST', endpoint.path, body ?? {}, token);

async function login(p: ServerProcess, username: string, password: string): Promise<string> {
  const res = await post(p, endpoints.auth.login, { username, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** The user id inside a session token (a JWT's `sub`). */
const userIdOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

let userSeq = 0;
async function newUser(p: ServerProcess): Promise<{ username: string; token: string }> {
  const username = `fault${process.pid % 1000}u${++userSeq}`;
  const reg = await post(p, endpoints.auth.register, {
    username,
    email: `${username}@example.com`,
    passwordHash: 'password-123',
  });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  return { username, token: await login(p, username, 'password-123') };
}

/**
 * A transparent HTTP hop between the server and a simulated gateway. `interceptNextSend` lets a
 * test act around the next bulk-send request (`goip_post_sms`): before the device has it, or after
 * the device took the tasks but before the server hears its answer.
 */
async function deviceHop(target: string) {
  type Interceptor = (forward: () => Promise<void>) => Promise<void>;
  let next: Interceptor | undefined;
  let sends = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let answer: { status: number; type: string; body: Buffer } | undefined;
      const forward = async () => {
        const up = await fetch(target + req.url, {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
        });
        answer = {
          status: up.status,
          type: up.headers.get('content-type') ?? 'application/json',
          body: Buffer.from(await up.arrayBuffer()),
        };
      };
      try {
        const intercept = req.url?.startsWith('/goip_post_sms') ? next : undefined;
        if (req.url?.startsWith('/goip_post_sms')) sends++;
        if (intercept) {
          next = undefined;
          await intercept(forward);
        } else await forward();
        if (!answer) throw new Error('not forwarded');
        if (!res.destroyed) {
          res.writeHead(answer.status, { 'content-type': answer.type });
          res.end(answer.body);
        }
      } catch {
        res.destroy();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  cleanups.push(() => new Promise((r) => server.close(r)));
  return {
    url: `http://127.0.0.1:${port}`,
    sends: () => sends,
    interceptNextSend(fn: Interceptor) {
      next = fn;
    },
  };
}

async function allowBulk(p: ServerProcess, adminToken: string) {
  const res = await post(
    p,
    endpoints.settings.update,
    { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    adminToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A simulated gateway with `ports` SIMs, added and scanned through the admin API (via a hop). */
async function addGateway(p: ServerProcess, adminToken: string, ports: number) {
  const sim = await GatewaySim.start({ ports, sendDelayMs: 20, seed: 4242 });
  cleanups.push(() => sim.stop());
  const hop = await deviceHop(sim.url);
  const add = await post(
    p,
    endpoints.gateway.update,
    { gateway: { name: 'faults gw', url: hop.url, mac: sim.mac, userName: 'root', password: 'root' } },
    adminToken,
  );
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const scan = await post(p, endpoints.gateway.scan, { id: add.body.id }, adminToken);
  expect(scan.status, JSON.stringify(scan.body)).toBe(200);
  await sim.pushesSettled();
  return { sim, hop };
}

/** How often the device transmitted to each recipient, and how many tasks it refused as duplicates. */
function deviceView(sim: GatewaySim) {
  const transmitted = new Map<string, number>();
  const resultAt = new Map<string, number>();
  let duplicates = 0;
  for (const t of sim.sentTasks()) {
    if (t.status.startsWith('13')) duplicates++;
    for (const r of t.results) {
      if (r.outcome === 'ok' || r.outcome === 'fail' || r.outcome === 'unregistered') {
        transmitted.set(r.to, (transmitted.get(r.to) ?? 0) + 1);
        if (r.ts !== undefined) resultAt.set(r.to, r.ts);
      }
    }
  }
  return { transmitted, resultAt, duplicates };
}

type MessageRow = { recipient: string; status: string; tid: number | null };
const messagesOf = (testDb: TestDb, campaignId: string) =>
  testDb.db.query<MessageRow>(
    'SELECT recipient, status, tid FROM messages WHERE campaign_id = $1::bigint ORDER BY id',
    [campaignId],
  );

let numberSeq = 17100000000;
const numbers = (n: number) => Array.from({ length: n }, () => String(++numberSeq));

describe.runIf(TEST_DB === 'pg')('faults with real server processes', () => {
  it('kill -9 while a campaign is handed to the device: after a restart each recipient gets exactly one SMS', async () => {
    const testDb = await freshDb();
    const port = await freePort();
    const env = {
      // 10 SMS/s per SIM, a tick every 250 ms: several ticks of 3 messages per SIM.
      SMS_PER_SIM_PER_MINUTE: '600',
      SMS_DISPATCH_INTERVAL_MS: '250',
      SMS_LEASE_SECONDS: '5',
    };
    const first = await serverProcess({ databaseUrl: testDb.url!, port, env });
    const admin = await login(first, 'admin', PROCESS_ADMIN_PASSWORD);
    await allowBulk(first, admin);
    const user = await newUser(first);
    const { sim, hop } = await addGateway(first, admin, 8);

    // The third hand-over: the device takes the tasks, then the server dies before it hears the
    // answer (the claim is committed, nothing records that the device has them).
    const killed = new Promise<void>((done) => {
      let seen = 0;
      const arm = (): void =>
        hop.interceptNextSend(async (forward) => {
          seen++;
          await forward();
          if (seen < 3) {
            arm();
            return;
          }
          await first.stop('SIGKILL');
          done();
        });
      arm();
    });
    const recipients = numbers(150);
    const sent = await post(
      first,
      endpoints.outreach.sendMassSms,
      { number: recipients.join('\n'), mess: 'Flash sale: 20% off today' },
      user.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const campaignId = sent.body.data.campaignId as string;
    await killed;
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // At the kill: messages the device has but the database still shows as being handed over.
    const atKill = await messagesOf(testDb, campaignId);
    const inLimbo = atKill.filter((m) => m.status === 'sending');
    expect(inLimbo.length).toBeGreaterThan(0);
    const deviceTids = new Set(sim.sentTasks().map((t) => t.tid));
    expect(inLimbo.every((m) => deviceTids.has(m.tid))).toBe(true);
    expect(atKill.some((m) => m.status === 'queued')).toBe(true); // mid-campaign

    const second = await serverProcess({ databaseUrl: testDb.url!, port, env });
    const upAt = Date.now();
    await waitFor(
      async () =>
        (await messagesOf(testDb, campaignId)).every((m) => m.status === 'delivered' || m.status === 'sent'),
      40_000,
    );
    await sim.pushesSettled();
    await waitFor(async () => {
      const rows = await messagesOf(testDb, campaignId);
      const device = deviceView(sim);
      // Settled: the device has sent every message, and every result it reported to a running server
      // has been recorded (a message handed over but not yet sent by the device is not settled: on a
      // loaded machine the device's last tasks were still going).
      return rows.every(
        (m) =>
          m.status === 'delivered' ||
          (device.transmitted.has(m.recipient) && (device.resultAt.get(m.recipient) ?? 0) * 1000 < upAt),
      );
    }, 10_000);

    // The device: every recipient exactly once; the hand-overs lost in the crash came again with the
    // same task ids and were refused as duplicates (13), not sent twice.
    const device = deviceView(sim);
    expect(recipients.filter((n) => device.transmitted.get(n) !== 1)).toEqual([]);
    expect(device.transmitted.size).toBe(recipients.length);
    expect(device.duplicates).toBeGreaterThanOrEqual(inLimbo.length);

    // The database: nothing lost. A message whose result the device pushed while no server was up
    // stays "sent" (devices do not resend reports; SMS_RESULT_TIMEOUT_MINUTES closes it later).
    const rows = await messagesOf(testDb, campaignId);
    expect(rows).toHaveLength(recipients.length);
    const awaiting = rows.filter((m) => m.status === 'sent');
    for (const m of awaiting) {
      const at = (device.resultAt.get(m.recipient) ?? 0) * 1000;
      expect(at, `${m.recipient} has no result though the device reported after the restart`).toBeLessThan(
        upAt + 1000,
      );
    }
    const progress = await post(second, endpoints.outreach.campaign, { campaignId }, user.token);
    expect(progress.body.data).toMatchObject({
      total: recipients.length,
      queued: 0,
      failed: 0,
      cancelled: 0,
      sent: awaiting.length,
      delivered: recipients.length - awaiting.length,
    });
    console.log(
      `kill -9 dispatch: ${inLimbo.length} in limbo at the kill, ${device.duplicates} duplicate hand-overs refused, ${awaiting.length} results pushed while down`,
    );
  }, 90_000);

  it('kill -9 during a priced campaign: every message that fails is refunded exactly once after a restart', async () => {
    const testDb = await freshDb();
    const port = await freePort();
    const env = { SMS_PER_SIM_PER_MINUTE: '600', SMS_DISPATCH_INTERVAL_MS: '250', SMS_LEASE_SECONDS: '5' };
    const first = await serverProcess({ databaseUrl: testDb.url!, port, env });
    const admin = await login(first, 'admin', PROCESS_ADMIN_PASSWORD);
    const priced = await post(
      first,
      endpoints.settings.update,
      { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000, SmsPricePerSegment: 0.01 },
      admin,
    );
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    const user = await newUser(first);
    await testDb.db.tx((q) =>
      credit(q, {
        userId: userIdOf(user.token),
        amount: '5.00',
        kind: 'topup',
        ref: null,
        at: new Date(),
      }),
    );
    const { sim, hop } = await addGateway(first, admin, 8);
    const recipients = numbers(120);
    const failing = new Set(recipients.filter((_, i) => i % 3 === 0));
    sim.setOutcome((t) => (failing.has(t.to) ? 'fail' : 'ok'));

    // The second hand-over: the device takes it, then the server dies (failures of the first are
    // being recorded and refunded around then).
    const killed = new Promise<void>((done) => {
      let seen = 0;
      const arm = (): void =>
        hop.interceptNextSend(async (forward) => {
          seen++;
          await forward();
          if (seen < 2) return arm();
          await first.stop('SIGKILL');
          done();
        });
      arm();
    });
    const sent = await post(
      first,
      endpoints.outreach.sendMassSms,
      { number: recipients.join('\n'), mess: 'Flash sale' },
      user.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ cost: 1.2, balance: 3.8 });
    const campaignId = sent.body.data.campaignId as string;
    await killed;

    await serverProcess({ databaseUrl: testDb.url!, port, env });
    // Until nothing is queued or being handed over, every failed message has had its money back (the
    // refund job catches failures a crash left unrefunded), and the count of failures has held for 3 s:
    // results of sends accepted before the kill keep arriving for a while (a failed send returns to
    // the queue for another SIM). The messages and their refunds are read in one statement, one
    // snapshot, so a result landing between two reads cannot make them disagree.
    const state = async () =>
      (
        await testDb.db.query<{ open: number; failed: number; wrong: number; n: number; total: string }>(
          `SELECT count(*) FILTER (WHERE status IN ('queued', 'sending'))::int AS open,
                  count(*) FILTER (WHERE status = 'failed')::int AS failed,
                  count(*) FILTER (WHERE (refunded_at IS NOT NULL) <> (status IN ('failed', 'cancelled')))::int AS wrong,
                  (SELECT count(*)::int FROM ledger WHERE kind = 'message_refund') AS n,
                  (SELECT coalesce(sum(amount), 0)::text FROM ledger WHERE kind = 'message_refund') AS total
             FROM messages WHERE campaign_id = $1::bigint`,
          [campaignId],
        )
      )[0]!;
    await sim.pushesSettled();
    let held = { failed: -1, since: 0 };
    const r = await waitFor(async () => {
      const now = await state();
      if (now.open !== 0 || now.wrong !== 0 || now.failed === 0 || now.failed !== held.failed) {
        held = { failed: now.open === 0 && now.wrong === 0 ? now.failed : -1, since: Date.now() };
        return false;
      }
      return Date.now() - held.since >= 3000 && now;
    }, 60_000);
    const refunds = [{ n: r.n, total: r.total }];
    expect(Number(refunds[0]!.total)).toBeCloseTo(r!.failed * 0.01, 10);
    // Batched: far fewer ledger rows than refunded messages.
    expect(refunds[0]!.n).toBeLessThan(r!.failed);
    const [camp] = await testDb.db.query<{ refunded: string }>(
      'SELECT refunded::text AS refunded FROM campaigns WHERE id = $1::bigint',
      [campaignId],
    );
    expect(Number(camp!.refunded)).toBeCloseTo(r!.failed * 0.01, 10);
    expect(await ledgerMismatches(testDb.db)).toEqual([]);
    console.log(`kill -9 priced campaign: ${r!.failed} failed, refunded in ${refunds[0]!.n} ledger rows`);
  }, 120_000);

  it('kill -9 while top-up webhooks are credited: after a restart and the providers replaying, each is credited once', async () => {
    const testDb = await freshDb();
    const port = await freePort();
    const first = await serverProcess({ databaseUrl: testDb.url!, port });
    const users = await Promise.all(Array.from({ length: 12 }, () => newUser(first)));
    type Topup = { token: string; username: string; paymentId: string; invoice: string; amount: string };
    const topups: Topup[] = [];
    for (const [i, u] of users.entries()) {
      for (let j = 0; j < 5; j++) {
        const amount = `${10 + i}.${String(j * 11 + 5).padStart(2, '0')}`;
        const res = await post(first, endpoints.payment.create, { amount: Number(amount) }, u.token);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { id, url } = res.body.result as { id: string; url: string };
        topups.push({ ...u, paymentId: id, invoice: url.split('/').pop()!, amount });
      }
    }
    // The sandbox provider's signed "finished" webhook for each top-up (what a provider retries),
    // signed as the sandbox signs: HMAC-SHA256 with a key derived from APP_SECRET.
    const key = createHmac('sha256', PROCESS_APP_SECRET).update('simdock-sandbox-payments').digest();
    const hooks = topups.map((t) => {
      const raw = JSON.stringify({
        invoice_id: t.invoice,
        payment_id: `${t.invoice}-1`,
        order_id: t.paymentId,
        payment_status: 'finished',
        price_amount: t.amount,
        actually_paid: t.amount,
        updated_at: new Date().toISOString(),
      });
      return { raw, sig: createHmac('sha256', key).update(raw).digest('hex') };
    });
    const deliver = (p: ServerProcess, h: (typeof hooks)[number]) =>
      fetch(`${p.url}/api/Payments/ipn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': h.sig },
        body: h.raw,
      }).then(async (r) => ({ status: r.status, msg: ((await r.json()) as Loose).msg as string }));

    // All at once; the process is killed once the first answers are back.
    let answered = 0;
    let killing: Promise<unknown> | undefined;
    const inFlight = hooks.map((h) =>
      deliver(first, h).then((r) => {
        answered++;
        if (answered === 10) killing = first.stop('SIGKILL');
        return r;
      }),
    );
    const outcomes = await Promise.allSettled(inFlight);
    await killing;
    const before = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(before).toBeGreaterThanOrEqual(10);
    expect(before).toBeLessThan(hooks.length); // some were cut off by the kill

    const second = await serverProcess({ databaseUrl: testDb.url!, port });
    // The provider retries every webhook (twice, in parallel): credited or duplicate, never an error.
    const replay = await Promise.all([...hooks, ...hooks].map((h) => deliver(second, h)));
    expect(replay.filter((r) => r.status !== 200 || !['credited', 'duplicate'].includes(r.msg))).toEqual([]);
    const creditedNow = replay.filter((r) => r.msg === 'credited').length;

    const ledger = await testDb.db.query<{ ref: string; n: number; amount: string }>(
      `SELECT ref, count(*)::int AS n, sum(amount)::text AS amount FROM ledger WHERE kind = 'topup' GROUP BY ref`,
    );
    const byRef = new Map(ledger.map((l) => [l.ref, l]));
    expect(ledger).toHaveLength(topups.length);
    for (const t of topups)
      expect(byRef.get(`sandbox:${t.invoice}-1`)).toMatchObject({ n: 1, amount: t.amount });
    for (const u of users) {
      const info = await post(second, endpoints.user.info, undefined, u.token);
      const want = topups
        .filter((t) => t.username === u.username)
        .reduce((sum, t) => sum + Math.round(Number(t.amount) * 100), 0);
      expect(Math.round(info.body.balance * 100)).toBe(want);
    }
    expect(await ledgerMismatches(testDb.db)).toEqual([]);
    const states = await testDb.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM payments GROUP BY status',
    );
    expect(states).toEqual([{ status: 'DONE', n: topups.length }]);
    console.log(
      `kill -9 crediting: ${before} answered before the kill, ${creditedNow} credited on the replay`,
    );
  }, 90_000);

  it('SIGTERM: the in-flight request is answered, live streams end, the dispatch batch is recorded, exit 0', async () => {
    const testDb = await freshDb();
    const env = { SMS_PER_SIM_PER_MINUTE: '600', SMS_DISPATCH_INTERVAL_MS: '250' };
    const p = await serverProcess({ databaseUrl: testDb.url!, env });
    const admin = await login(p, 'admin', PROCESS_ADMIN_PASSWORD);
    await allowBulk(p, admin);
    const user = await newUser(p);
    const { sim, hop } = await addGateway(p, admin, 4);

    // A live stream.
    const sse = await fetch(`${p.url}/api/Order/stream`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    const streamEnded = (async () => {
      try {
        for (;;) if ((await reader.read()).done) return { at: Date.now(), error: null };
      } catch (err) {
        return { at: Date.now(), error: String((err as Error).cause ?? err) };
      }
    })();

    // A slow request: the client sends half its body now, the rest after the SIGTERM.
    const body = JSON.stringify({ username: user.username, password: 'password-123' });
    const slow = httpRequest(`${p.url}/api/Auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const slowAnswer = new Promise<{ status: number; body: string; connection?: string }>((done) => {
      slow.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }),
        );
      });
      slow.on('error', (err) => done({ status: 0, body: String(err) }));
    });
    slow.write(body.slice(0, 10));

    // A dispatch batch: SIGTERM arrives while the device is still taking the tasks (it answers 1 s later).
    let termAt = 0;
    const terminated = new Promise<void>((done) => {
      hop.interceptNextSend(async (forward) => {
        process.kill(p.pid, 'SIGTERM');
        termAt = Date.now();
        done();
        await new Promise((r) => setTimeout(r, 1000));
        await forward();
      });
    });
    const campaign = await post(
      p,
      endpoints.outreach.sendMassSms,
      { number: numbers(30).join('\n'), mess: 'See you at the shop' },
      user.token,
    );
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(200);
    await terminated;
    // The rest of the body after the device answered: the request spans the whole shutdown.
    await new Promise((r) => setTimeout(r, 1500));
    slow.end(body.slice(10));

    const exit = await p.exited;
    const exitedAt = Date.now();
    expect(exit).toEqual({ code: 0, signal: null });
    // The request's body ends 1.5 s after the signal; a client's idle keep-alive connection must not
    // hold the close for its keep-alive timeout (5 s here) on top.
    expect(exitedAt - termAt).toBeLessThan(6000);
    const answer = await slowAnswer;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).token).toEqual(expect.any(String));
    expect(answer.connection).toBe('close');
    // The stream was ended by the server (a clean end of the response; the browser reconnects).
    const ended = await streamEnded;
    expect(ended.error).toBeNull();
    expect(ended.at).toBeLessThanOrEqual(exitedAt);
    expect(p.logs.some((l) => l.includes('SIGTERM received'))).toBe(true);
    expect(p.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);

    // The batch the device took was recorded; no claim was left half-done; no later batch started.
    const rows = await messagesOf(testDb, campaign.body.data.campaignId);
    const accepted = sim.sentTasks().filter((t) => t.status.startsWith('0'));
    expect(hop.sends()).toBe(1);
    expect(accepted.length).toBeGreaterThan(0);
    expect(rows.filter((m) => m.status === 'sending')).toEqual([]);
    const recorded = new Set(
      rows.filter((m) => m.status === 'sent' || m.status === 'delivered').map((m) => m.tid),
    );
    expect(accepted.every((t) => recorded.has(t.tid))).toBe(true);
    expect(rows.filter((m) => m.status === 'queued').length).toBe(rows.length - recorded.size);
  }, 60_000);
});
