import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GatewaySim } from '@simdock/gateway-sim';
import { ledgerMismatches, migrationFiles, requestJson } from '@simdock/server/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN, CHROMIUM, LAUNCH_ARGS, loginViaUi, shot, WEB_DIST, watchErrors } from './harness.ts';
import {
  createDatabase,
  type RoundRobinProxy,
  type ServerProcess,
  spawnServer,
  startProxy,
  type TestDatabase,
} from './processes.ts';

// Several processes (docs/architecture.md#several-processes): two real server processes (`node
// apps/server/src/main.ts`) on one PostgreSQL, started at the same moment, behind a round-robin proxy, with
// the gateway simulator as the device. The browser's live stream is held by process A while the device pushes
// to process B, and both processes run every background job (dispatch, expiry sweep, webhook delivery,
// reconciliation). Needs a PostgreSQL server: runs when TEST_DATABASE_URL is set (CI always sets it).

const PG_URL = process.env.TEST_DATABASE_URL;
const MIGRATIONS = migrationFiles();

const A = 0;
const B = 1;
const STREAM = '/api/Order/stream';

let tdb: TestDatabase;
let proxy: RoundRobinProxy;
let procs: ServerProcess[] = [];
let sim: GatewaySim;
let browser: Browser;
let page: Page;
let adminToken: string;
let user: { id: string; username: string; password: string; token: string };
/** Code webhooks received by the user's endpoint. */
const hooks: { delivery: string; body: Record<string, unknown> }[] = [];
let hookServer: Server;
let hookUrl: string;

/** Through the proxy (either process), or straight to one process with `base`. */
function api<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  token?: string,
  base = proxy.url,
  headers?: Record<string, string>,
) {
  return requestJson<T>(base, 'POST', path, body ?? {}, token, headers);
}

async function ok<T = Record<string, unknown>>(path: string, body: unknown, token?: string, base?: string) {
  const res = await api<T>(path, body, token, base);
  if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const balanceText = () => page.getByTestId('shell-balance').textContent();
const served = (pathStart: string, method?: string) =>
  proxy.log.filter((e) => e.path.startsWith(pathStart) && (!method || e.method === method));

/** Log records of both processes with this message (pino's `msg`). */
const logged = (msg: string) =>
  procs.flatMap((p) =>
    p
      .jsonLogs()
      .filter((l) => l.msg === msg)
      .map((l): Record<string, unknown> => ({ proc: p.name, ...l })),
  );

beforeAll(async () => {
  if (!PG_URL) return;
  if (!existsSync(join(WEB_DIST, 'index.html')))
    throw new Error(`The built web app is missing (${WEB_DIST}). Run "npm run build" first.`);
  tdb = await createDatabase(PG_URL);
  sim = await GatewaySim.start({ ports: 8, sendDelayMs: 5 });
  hookServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      hooks.push({
        delivery: String(req.headers['x-simdock-delivery'] ?? ''),
        body: JSON.parse(raw) as Record<string, unknown>,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;

  // The browser's live stream always lands on A; the device's pushes and the sandbox payment
  // (its webhooks) always on B; everything else alternates.
  proxy = await startProxy({
    route: (method, path) =>
      path === STREAM
        ? A
        : path.startsWith('/api/gw/')
          ? B
          : method === 'POST' && path.startsWith('/sandbox/pay/')
            ? B
            : undefined,
  });
  const env = {
    DATABASE_URL: tdb.url,
    APP_SECRET: 'multi-process-secret-0123456789-abcdef',
    ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_URL: proxy.url,
    WEB_DIST,
    DEMO: 'false',
    PAYMENT_PROVIDER: 'sandbox',
    LOG_LEVEL: 'info',
    CANCEL_MIN_SECONDS: '0',
    // Every job ticks often, in both processes, so they really compete.
    SWEEP_INTERVAL_MS: '250',
    SMS_DISPATCH_INTERVAL_MS: '150',
    SMS_PER_SIM_PER_MINUTE: '300',
    WEBHOOK_INTERVAL_MS: '150',
    PAYMENT_RECONCILE_INTERVAL_MS: '250',
    PAYMENT_RECONCILE_AFTER_MINUTES: '0',
  };
  // Both at once: the migrations must run once, under their lock, whoever comes first.
  const started = await Promise.allSettled([
    spawnServer({ name: 'A', env }),
    spawnServer({ name: 'B', env }),
  ]);
  procs = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  proxy.setBackends(procs.map((p) => p.url));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await proxy?.close();
  await Promise.all(procs.map((p) => p.stop()));
  await sim?.stop();
  await new Promise<void>((r) => (hookServer ? hookServer.close(() => r()) : r()));
  await tdb?.drop();
});

describe.skipIf(!PG_URL)('two server processes on one PostgreSQL', () => {
  /** On a failure, the last log lines of both processes. */
  const dumpLogsOnFailure = () =>
    onTestFailed(() => {
      for (const p of procs) console.error(`--- server ${p.name} ---\n${p.logs.slice(-40).join('\n')}`);
    });

  it('start together: the migrations run once, one admin is created, both serve', async () => {
    dumpLogsOnFailure();
    const applied = await tdb.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.map((r) => r.name)).toEqual([...MIGRATIONS].sort());
    // Exactly one process applied them; the other found nothing left to do after the lock.
    const migrated = logged('database migrated');
    expect(migrated.length).toBe(1);
    expect(migrated[0]!.migrations).toEqual([...MIGRATIONS].sort());
    const admins = await tdb.db.query(`SELECT id FROM users WHERE 'Admin9' = ANY(roles)`);
    expect(admins.length).toBe(1);
    // The process that lost the race to create the admin does not cry wolf about it.
    expect(procs.flatMap((p) => p.logs).filter((l) => l.includes('create an admin by hand'))).toEqual([]);
    for (const p of procs) expect((await fetch(`${p.url}/api/meta`)).status).toBe(200);

    adminToken = (await ok<{ token: string }>('/api/Auth/login', ADMIN)).token;
    // A token signed by one process is accepted by the other (same APP_SECRET).
    for (const p of procs) expect((await api('/api/user/info', {}, adminToken, p.url)).status).toBe(200);

    // The catalogue and the device, set up through the proxy (so by either process).
    await ok(
      '/api/service/update',
      { name: 'Telegram', code: 'tg', price: 0.5, stock: 100, rentTimeMinutes: 20, textContains: 'Telegram' },
      adminToken,
    );
    // Rent time 0: a rental of it is overdue at once, for the sweepers.
    await ok(
      '/api/service/update',
      { name: 'Flash', code: 'flash', price: 0.25, stock: 100, rentTimeMinutes: 0, textContains: 'Flash' },
      adminToken,
    );
    const gw = await ok<{ id: string }>(
      '/api/Admin/updateGateway',
      { gateway: { name: 'Rack MP', url: sim.url, mac: sim.mac, userName: 'root', password: 'root' } },
      adminToken,
    );
    await ok('/api/Admin/gatewayScan', { id: gw.id }, adminToken);
    await sim.pushesSettled();
    await ok('/api/Admin/updateSettings', { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 }, adminToken);

    const username = `mp${process.pid % 10000}`;
    const password = 'password-123';
    await ok('/api/Auth/register', { username, email: `${username}@example.com`, passwordHash: password });
    const [row] = await tdb.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
    await tdb.db.tx(async (q) => {
      await q.query(`UPDATE users SET balance = balance + 10 WHERE id = $1`, [row!.id]);
      await q.query(`INSERT INTO ledger (user_id, amount, kind) VALUES ($1, 10, 'admin_adjustment')`, [
        row!.id,
      ]);
    });
    const token = (await ok<{ token: string }>('/api/Auth/login', { username, password })).token;
    user = { id: row!.id, username, password, token };
  });

  it('rents in the browser; the SMS pushed to B shows live on the page streaming from A; one webhook', async () => {
    dumpLogsOnFailure();
    const reauth = await ok<{ reauth: string }>('/api/Auth/reauth', { password: user.password }, user.token);
    const added = await api('/api/user/webhooks/add', { url: hookUrl }, user.token, undefined, {
      'x-reauth': reauth.reauth,
    });
    expect(added.status).toBe(200);
    const ctx = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1280, height: 800 } });
    ctx.setDefaultTimeout(15_000);
    page = await ctx.newPage();
    const errors = watchErrors(page);
    await loginViaUi(page, user);
    await expect.poll(balanceText).toBe('$10.0000');
    await expect.poll(() => served(STREAM).length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Rent a Telegram number' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Telegram' }).filter({ hasText: 'Waiting for code' });
    await row.waitFor();
    const phone = (await row.getByTestId('order-phone').getAttribute('data-value'))!;
    await expect.poll(balanceText).toBe('$9.5000');

    // The device pushes the SMS; the proxy hands every device push to B.
    await page.evaluate('window.__stillHere = true');
    const slot = sim.slots().find((s) => s.sn === phone);
    expect(slot).toBeDefined();
    const smsPushesBefore = served('/api/gw/').length;
    sim.injectSms({ port: slot!.port, from: 'Telegram', text: 'Telegram code: 48213. Do not share it.' });
    const done = page.getByRole('row').filter({ has: page.locator(`[data-value="${phone}"]`) });
    await done.getByTestId('order-code').filter({ hasText: '48213' }).waitFor();
    await expect.poll(() => done.getByTestId('order-status').textContent()).toBe('Code received');
    expect(await page.evaluate('window.__stillHere === true')).toBe(true);
    const pushes = served('/api/gw/').slice(smsPushesBefore);
    expect(pushes.some((e) => e.path.endsWith('/sms') && e.backend === B && e.status === 200)).toBe(true);
    // The page's live stream was only ever served by A.
    expect(served(STREAM).every((e) => e.backend === A)).toBe(true);
    await shot(page, 'multiprocess-code-arrived');

    // Both processes run the webhook job: the code is delivered once (wait a few ticks to be sure).
    await expect.poll(() => hooks.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(hooks.map((h) => h.body.code)).toEqual(['48213']);
    expect(hooks[0]!.body.phone).toBe(phone);
    expect(errors).toEqual([]);
  });

  it('overdue rentals are refunded exactly once although both processes sweep', async () => {
    dumpLogsOnFailure();
    // Rented at once through the proxy (so on both processes); each is overdue as soon as it exists.
    const rents = await Promise.all(
      Array.from({ length: 4 }, () =>
        api<{ data: { id: string; phoneNumber?: string } }>(
          '/api/Order/create',
          { serviceCode: 'flash' },
          user.token,
        ),
      ),
    );
    expect(rents.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const ids = rents.map((r) => String(r.body.data.id));
    const refunds = () =>
      tdb.db.query<{ ref: string; n: number }>(
        `SELECT ref, count(*)::int AS n FROM ledger WHERE user_id = $1 AND kind = 'refund' GROUP BY ref`,
        [user.id],
      );
    await expect.poll(async () => (await refunds()).length, { timeout: 15_000 }).toBe(4);
    // A few more sweeps by both processes change nothing.
    await new Promise((r) => setTimeout(r, 1000));
    const rows = await refunds();
    expect(rows.map((r) => r.ref).sort()).toEqual(ids.map((id) => `order:${id}`).sort());
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const orders = await tdb.db.query<{ status: string }>(
      'SELECT status FROM orders WHERE id = ANY($1::bigint[])',
      [ids],
    );
    expect(orders.map((o) => o.status)).toEqual(['CANCEL', 'CANCEL', 'CANCEL', 'CANCEL']);
    // What the two processes say they refunded adds up to the four orders, not more.
    const sweeps = logged('expired orders refunded');
    console.info(`refunded by ${sweeps.map((l) => `${String(l.proc)}: ${String(l.expired)}`).join(', ')}`);
    const expired = sweeps.reduce((n, l) => n + Number(l.expired), 0);
    expect(expired).toBe(4);
    expect(logged('worker tick failed')).toEqual([]);
    expect(await ledgerMismatches(tdb.db)).toEqual([]);

    // The page (streaming from A) followed: the orders show as cancelled and the balance is back.
    await expect.poll(balanceText).toBe('$9.5000');
    const flashRows = page.getByRole('row').filter({ hasText: 'Flash' });
    await expect.poll(() => flashRows.filter({ hasText: 'Cancelled' }).count(), { timeout: 15_000 }).toBe(4);
  });

  it('a campaign created on A: both dispatchers compete, every message reaches the device once', async () => {
    dumpLogsOnFailure();
    const numbers = Array.from({ length: 60 }, (_, i) => String(18005550100 + i));
    const sent = await ok<{ data: { campaignId: string } }>(
      '/api/MassOutreach/sendMassSMS',
      { number: numbers.join('\n'), mess: 'Hello from two processes' },
      user.token,
      procs[A]!.url,
    );
    const campaignId = sent.data.campaignId;
    type Progress = { total: number; delivered: number; failed: number; finished: boolean };
    const progress = async () =>
      (await ok<{ data: Progress }>('/api/MassOutreach/campaign', { campaignId }, user.token)).data;
    await expect.poll(async () => (await progress()).finished, { timeout: 45_000, interval: 500 }).toBe(true);
    expect(await progress()).toMatchObject({ total: 60, delivered: 60, failed: 0, finished: true });

    // The device saw each message in exactly one task: no claim was taken twice (not even a
    // duplicate the device refused), and each recipient got the text once.
    const tasks = sim.sentTasks().filter((t) => t.recipients.some((r) => numbers.includes(r)));
    expect(tasks.length).toBe(60);
    expect(new Set(tasks.map((t) => t.tid)).size).toBe(60);
    const perRecipient = new Map<string, number>();
    for (const t of tasks) for (const r of t.recipients) perRecipient.set(r, (perRecipient.get(r) ?? 0) + 1);
    expect([...perRecipient.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect([...perRecipient.keys()].sort()).toEqual([...numbers].sort());
    expect(tasks.every((t) => t.outcome === 'ok')).toBe(true);
    // Both dispatchers took part, and their claims add up to the 60 messages.
    const claims = logged('messages dispatched');
    const byProc = (name: string) =>
      claims.filter((l) => l.proc === name).reduce((n, l) => n + Number(l.claimed), 0);
    console.info(`dispatched by A: ${byProc('A')}, by B: ${byProc('B')}`);
    expect(byProc('A') + byProc('B')).toBe(60);
    expect(byProc('A')).toBeGreaterThan(0);
    expect(byProc('B')).toBeGreaterThan(0);
    expect(logged('worker tick failed')).toEqual([]);
  });

  it('a sandbox payment completed on B is credited once; the page streaming from A shows it', async () => {
    dumpLogsOnFailure();
    await expect.poll(balanceText).toBe('$9.5000');
    // The payer uses another tab; this page stays open on the Dashboard.
    const payer = await page.context().newPage();
    await payer.goto('/topup');
    await payer.getByLabel('Amount (USD)').fill('25.50');
    await payer.getByRole('button', { name: 'Create Invoice' }).click();
    await payer.waitForURL(/\/sandbox\/pay\/sbx_/);
    await payer.getByRole('button', { name: 'Pay exactly' }).click();
    await payer.waitForURL(/\/topup\?payment=/);
    await payer.getByText('Payment received: $25.50 was added to your balance.').waitFor();

    await expect.poll(balanceText, { timeout: 10_000 }).toBe('$35.0000');
    expect(served('/sandbox/pay/', 'POST').map((e) => e.backend)).toEqual([B]);
    expect(served(STREAM).every((e) => e.backend === A)).toBe(true);

    // Both processes keep reconciling the payment with the provider meanwhile: still one credit.
    await new Promise((r) => setTimeout(r, 1000));
    const topups = await tdb.db.query<{ amount: string }>(
      `SELECT amount::text AS amount FROM ledger WHERE user_id = $1 AND kind = 'topup'`,
      [user.id],
    );
    expect(topups).toEqual([{ amount: '25.50' }]);
    const [payment] = await tdb.db.query<{ status: string; n: number }>(
      `SELECT p.status, (SELECT count(*)::int FROM payment_credits c WHERE c.payment_id = p.id) AS n
         FROM payments p WHERE p.user_id = $1`,
      [user.id],
    );
    expect(payment).toEqual({ status: 'DONE', n: 1 });
    expect(await ledgerMismatches(tdb.db)).toEqual([]);
    expect((await ok<{ balance: number }>('/api/user/info', {}, user.token)).balance).toBe(35);
    expect(logged('worker tick failed')).toEqual([]);
    await payer.close();
  });

  it('nothing went wrong in either process; both stop cleanly on SIGTERM', async () => {
    dumpLogsOnFailure();
    // No warning or error in either log over the whole run (a failed job tick, an event that could
    // not be rendered, a start-up race).
    const bad = procs.flatMap((p) => p.jsonLogs().filter((l) => Number(l.level) >= 40));
    expect(bad).toEqual([]);
    await page.context().close();
    await Promise.all(procs.map((p) => p.stop(15_000)));
    expect(procs.map((p) => p.child.exitCode)).toEqual([0, 0]);
  });
});
