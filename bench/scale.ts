/**
 * The operator-scale benchmark: measures a database seeded by bench/scale-seed.ts. It
 * changes nothing the measured calls read (it refreshes the gateways' last contact, so they are
 * online, gives the heavy user the admin's password and an API key, and the pushes add incoming SMS),
 * so one seed serves many runs.
 *
 *   SCALE=0.1 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scale
 *
 * A real server process (as `npm run serve` starts it) runs on the seeded database. Then:
 *
 * 1. lists: every admin list call the UI offers (first, middle and last page of each pager, its
 *    filters and sorts), the public and polled calls, and the heavy user's own lists; one caller,
 *    WARM unmeasured calls then RUNS measured ones each; p50 and p95.
 * 2. push: device SMS pushes through the HTTP ingress (POST /api/gw/<id>/<secret>/sms, the ejoin
 *    recv-sms push, PUSH_DEVICES devices each pushing every PUSH_EVERY_MS) for PUSH_SECONDS while 0,
 *    12 and 50 (PUSH_CALLERS) anonymous callers call POST /api/Service/getall back to back; push
 *    p50/p95 and the 503s of both.
 * 3. browser: Order Manager's and User Manager's time to content in Chromium (CHROMIUM_PATH,
 *    /usr/bin/chromium; the built web app: npm run build first): from navigation to the page's
 *    heading (the app drawn), to the first data row, and to every table filled with no skeleton
 *    left; BROWSER_RUNS (5) full page loads after one warm-up, the browser's cache kept.
 *
 * Options (env): PARTS (lists,push,browser), RUNS (20), WARM (3), ONLY (a substring of the call names
 * to measure), PUSH_SECONDS (20), PUSH_CALLERS (0,12,50). Results: a table on stdout and
 * bench/out/scale-<‰>.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAUTH_HEADER } from '@simdock/contract';
import pg from 'pg';
import { benchServerEnv, type Json, serveArgs } from './http.ts';
import { DB_NAME, databaseUrl, HEAVY_USER, SCALE, SEED_TABLE } from './scale-common.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PARTS = new Set((process.env.PARTS ?? 'lists,push,browser').split(','));
const RUNS = Number(process.env.RUNS ?? 20);
const WARM = Number(process.env.WARM ?? 3);
const ONLY = process.env.ONLY;
const PUSH_SECONDS = Number(process.env.PUSH_SECONDS ?? 20);
const PUSH_CALLERS = (process.env.PUSH_CALLERS ?? '0,12,50').split(',').map(Number);
const PUSH_DEVICES = Number(process.env.PUSH_DEVICES ?? 4);
const PUSH_EVERY_MS = Number(process.env.PUSH_EVERY_MS ?? 200);
const BROWSER_RUNS = Number(process.env.BROWSER_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = 4100 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_PASSWORD = 'bench-admin-pass';
const DAY = 86_400;

interface Answer {
  status: number;
  ms: number;
  body: string;
}

/** One call, timed from the request to the whole answer read. */
async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(BASE + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - t, body: text };
}

async function json(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Json> {
  const a = await call(method, path, body, token, headers);
  if (a.status < 200 || a.status >= 300)
    throw new Error(`${method} ${path}: ${a.status} ${a.body.slice(0, 300)}`);
  return JSON.parse(a.body) as Json;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;
const r1 = (n: number) => Math.round(n * 10) / 10;

/** The number of pages a list answer offers (totalPages, or total over the page size). */
function pagesOf(body: Json, pageSize: number): number {
  const d = (body.data ?? body) as Json;
  if (typeof d.totalPages === 'number') return Math.max(1, d.totalPages);
  if (typeof d.total === 'number') return Math.max(1, Math.ceil(d.total / pageSize));
  throw new Error(`no total in ${JSON.stringify(body).slice(0, 200)}`);
}

interface Cursors {
  after: string;
  before: string;
}

interface Case {
  group: string;
  name: string;
  run: () => Promise<Answer>;
}

interface Measured {
  group: string;
  name: string;
  p50: number;
  p95: number;
  max: number;
  status: number;
}

async function waitReady(server: ChildProcess) {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    if ((await fetch(`${BASE}/readyz`).catch(() => undefined))?.ok) return;
    if (i > 1200) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const db = new pg.Client({ connectionString: databaseUrl() });
  await db.connect();
  const meta = Object.fromEntries(
    (await db.query<{ key: string; value: string }>(`SELECT key, value FROM ${SEED_TABLE}`)).rows.map((r) => [
      r.key,
      r.value,
    ]),
  );
  if (!meta.scale)
    throw new Error(`${DB_NAME} is not seeded: run npm run bench:scale:seed with SCALE=${SCALE}`);
  console.log(`measuring ${DB_NAME} (SCALE=${meta.scale}, seeded ${meta.seeded_at}, ${meta.database_size})`);

  // Online gateways: their last contact refreshed within GATEWAY_ONLINE_MS (3 min) while measuring.
  const keepOnline = () => db.query('UPDATE gateways SET last_update = now() WHERE is_enable');
  await keepOnline();
  const online = setInterval(() => void keepOnline().catch(() => {}), 30_000);

  const server = spawn(process.execPath, serveArgs(), {
    // The API key's own limit (50 calls per 10 s) would answer the measured calls 429: they are
    // timed here, not limited.
    env: { ...benchServerEnv(PORT, databaseUrl()), LOG_LEVEL: 'warn', API_RATE_LIMIT: '100000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  const file = join(ROOT, `bench/out/scale-${Math.round(Number(meta.scale) * 1000)}.json`);
  const save = (part: string, value: unknown) => {
    results[part] = value;
    results.load = loadavg().map((l) => +l.toFixed(1));
    writeFileSync(file, JSON.stringify(results, null, 2));
  };
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    scale: Number(meta.scale),
    database: DB_NAME,
    seededAt: meta.seeded_at,
    seedSeconds: Number(meta.seed_seconds),
    databaseSize: meta.database_size,
    runs: RUNS,
    warm: WARM,
  };
  try {
    await waitReady(server);
    // The heavy user signs in with the admin's password (the seed has no password hashing).
    await db.query(
      `UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE username = 'admin') WHERE username = $1`,
      [HEAVY_USER],
    );
    const adminToken = (
      await json('POST', '/api/Auth/login', { username: 'admin', password: ADMIN_PASSWORD })
    ).token as string;
    const userToken = (
      await json('POST', '/api/Auth/login', { username: HEAVY_USER, password: ADMIN_PASSWORD })
    ).token as string;
    // Its default API key (made on the first run; later runs read it again).
    // Making a key needs a fresh re-authentication (the password again).
    const key = ((await json('POST', '/api/user/apikey', {}, userToken)).apiKey ??
      (
        await json('POST', '/api/user/reset-key', {}, userToken, {
          [REAUTH_HEADER]: (
            await json('POST', '/api/Auth/reauth', { password: ADMIN_PASSWORD }, userToken)
          ).reauth as string,
        })
      ).apiKey) as string;

    // Each part's results are written as soon as it ends (a later part that fails keeps them).
    if (PARTS.has('lists')) save('lists', await measureLists(adminToken, userToken, key));
    if (PARTS.has('push')) save('push', await measurePush(db));
    if (PARTS.has('browser')) save('browser', await measureBrowser(adminToken));
  } finally {
    clearInterval(online);
    const stopped = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 10_000))]);
    await db.end();
  }
  console.log(`\nwritten ${file}`);
}

async function measureLists(admin: string, user: string, key: string): Promise<Measured[]> {
  const now = Math.floor(Date.now() / 1000);
  const range = { strTime: now - 90 * DAY, endTime: now };
  // What the History screen sends: whole days of the browser's zone (UTC here), the last 90 up to today.
  const dayStart = now - (now % DAY);
  const days = { strTime: dayStart - 89 * DAY, endTime: dayStart + DAY - 1 };
  const firstGateway = 'gw-001';
  const cases: Case[] = [];
  const add = (group: string, name: string, run: () => Promise<Answer>) => cases.push({ group, name, run });

  /**
   * First, middle and last page of a pager, the page count read from the first page's answer. Where
   * the list pages by key (its answers carry cursors), the middle page is reached as the pager reaches
   * it: from the page before it, with that page's anchors (docs/architecture.md#paged-lists).
   */
  const pager = async (
    group: string,
    name: string,
    pageSize: number,
    at: (page: number, cursors?: Cursors) => () => Promise<Answer>,
  ) => {
    const first = await at(1)();
    if (first.status !== 200) throw new Error(`${name}: ${first.status} ${first.body.slice(0, 200)}`);
    const body = JSON.parse(first.body) as Json;
    const pages = pagesOf(body, pageSize);
    const keyed = typeof ((body.data ?? body) as Json).lastCursor === 'string';
    const estimated = ((body.data ?? body) as Json).totalEstimated === true ? '≈' : '';
    add(group, `${name}, page 1 of ${estimated}${pages}`, at(1));
    if (pages > 2) {
      const mid = Math.ceil(pages / 2);
      if (keyed && mid > 1) {
        // One unmeasured call (by offset: the slow way) for the anchors of the page before.
        const prev = JSON.parse((await at(mid - 1)()).body) as Json;
        const d = (prev.data ?? prev) as Json;
        const cursors = { after: d.lastCursor as string, before: d.firstCursor as string };
        add(group, `${name}, page ${mid} (Next from ${mid - 1})`, at(mid, cursors));
      } else {
        add(group, `${name}, page ${mid}`, at(mid));
      }
    }
    if (pages > 1) add(group, `${name}, page ${pages} (last)`, at(pages));
  };
  const q = (c?: Cursors) =>
    c ? `&after=${encodeURIComponent(c.after)}&before=${encodeURIComponent(c.before)}` : '';
  const get = (path: string, token?: string) => () => call('GET', path, undefined, token);
  const post = (path: string, body: unknown, token?: string) => () => call('POST', path, body, token);

  // Admin: Order Manager (its list, filters, per-gateway statistics, unmatched SMS).
  const orders = (f: string) => (page: number, c?: Cursors) =>
    get(`/api/Admin/orders?page=${page}&pageSize=100${f}${q(c)}`, admin);
  await pager('Order Manager', 'orders', 100, orders(''));
  await pager('Order Manager', 'orders, status SUCCESS', 100, orders('&status=SUCCESS'));
  await pager('Order Manager', `orders, gateway ${firstGateway}`, 100, orders(`&gateway=${firstGateway}`));
  add('Order Manager', 'orders, phone number contains 31000001', orders('&phoneNumber=31000001')(1));
  await pager(
    'Order Manager',
    `orders, status SUCCESS on ${firstGateway}`,
    100,
    orders(`&status=SUCCESS&gateway=${firstGateway}`),
  );
  add(
    'Order Manager',
    'orders, status CANCEL, phone contains 555',
    orders('&status=CANCEL&phoneNumber=555')(1),
  );
  add('Order Manager', 'per-gateway statistics (orderfilter)', get('/admin/orderfilter', admin));
  const inbox = (f: string) => (page: number, c?: Cursors) =>
    get(`/api/Admin/inbox?page=${page}&pageSize=100${f}${q(c)}`, admin);
  await pager('Order Manager', 'unmatched SMS', 100, inbox('&matched=false'));
  add(
    'Order Manager',
    'device statistics (one gateway)',
    post('/api/Admin/deviceStats', { mac: '00:00:00:00:00:01' }, admin),
  );

  // User Manager.
  const users = (extra: Json) => (page: number, c?: Cursors) =>
    post('/api/Admin/getUser', { page, pageSize: 50, ...extra, ...c }, admin);
  await pager('User Manager', 'users', 50, users({}));
  await pager('User Manager', 'users by balance, highest first', 50, users({ sort: 'balance', dir: 'desc' }));
  await pager(
    'User Manager',
    'users by created, newest first',
    50,
    users({ sort: 'createdAt', dir: 'desc' }),
  );
  add('User Manager', 'users, search "user123"', users({ search: 'user123' })(1));
  // The other sortable columns, each way, deep as the pager goes.
  for (const sort of ['username', 'email', 'roles', 'status'])
    for (const dir of ['asc', 'desc'])
      await pager('User Manager', `users by ${sort}, ${dir}`, 50, users({ sort, dir }));
  add(
    'User Manager',
    'users, search "user123" by balance',
    users({ search: 'user123', sort: 'balance', dir: 'desc' })(1),
  );
  add('User Manager', 'users, page size 500', users({ pageSize: 500 })(1));

  // Payment Manager.
  const payments = (f: string) => (page: number, c?: Cursors) =>
    get(`/api/Admin/payments?page=${page}&pageSize=100${f}${q(c)}`, admin);
  await pager('Payment Manager', 'payments', 100, payments(''));
  await pager('Payment Manager', 'payments, status DONE', 100, payments('&status=DONE'));
  add('Payment Manager', 'payments, search "user12"', payments('&search=user12')(1));
  const week = new Date((now - 7 * DAY) * 1000).toISOString().slice(0, 10);
  const today = new Date(now * 1000).toISOString().slice(0, 10);
  add('Payment Manager', 'payments, last 7 days', payments(`&from=${week}&to=${today}`)(1));

  // Audit log.
  const audit = (extra: Json) => (page: number, c?: Cursors) =>
    post('/api/Admin/audit', { page, pageSize: 50, ...extra, ...c }, admin);
  await pager('Audit log', 'audit', 50, audit({}));
  add('Audit log', 'audit, who "ops1"', audit({ actor: 'ops1' })(1));
  add('Audit log', 'audit, kind user.balance', audit({ kind: 'user.balance' })(1));

  add('Overview', 'admin overview', post('/api/Admin/overview', {}, admin));

  // Service Manager.
  add('Service Manager', 'services (admin, Service/getall)', post('/api/Service/getall', {}, admin));
  add('Service Manager', 'spentCounts', post('/api/service/spentCounts', {}, admin));

  // History for the admin (every sender), 90 days.
  const history = (token: string, params: Json) => (page: number, c?: Cursors) =>
    post(
      '/api/MassOutreach/querymsg',
      { current: page, size: 50, params: { ...range, ...params }, ...c },
      token,
    );
  await pager('History (admin)', 'history, 90 days', 50, history(admin, {}));
  // The screen's filters: status (1 delivered, 0 failed), the number's first digits, a sender.
  add('History (admin)', 'history, status failed', history(admin, { status: 0 })(1));
  add('History (admin)', 'history, number starts 1555', history(admin, { name: '1555' })(1));
  add('History (admin)', 'history, sender the heavy user', history(admin, { seatId: HEAVY_USER })(1));
  add('History (admin)', 'dailyStats, 90 days', post('/api/MassOutreach/dailyStats', range, admin));
  add(
    'History (admin)',
    'dailyStats, 90 whole days (the screen)',
    post('/api/MassOutreach/dailyStats', days, admin),
  );

  // Public and polled.
  add('Public / polled', 'Service/getall (anonymous)', post('/api/Service/getall', {}));
  add('Public / polled', 'Order/stats (Dashboard cards)', post('/api/Order/stats', {}, user));
  add(
    'Public / polled',
    'SMS-Activate getPrices',
    get(`/stubs/handler_api.php?api_key=${key}&action=getPrices`),
  );
  add(
    'Public / polled',
    'SMS-Activate getNumbersStatus',
    get(`/stubs/handler_api.php?api_key=${key}&action=getNumbersStatus`),
  );
  add('Public / polled', '/api/v1/services', get('/api/v1/services', key));

  // The heavy user's own lists (5 % of the orders and of the messages).
  add('Heavy user', 'my orders (Order/getbyuser)', post('/api/Order/getbyuser', {}, user));
  add('Heavy user', 'balance history', post('/api/user/balanceHistory', { page: 1, pageSize: 20 }, user));
  add('Heavy user', 'payment history', get('/api/Payments/history?page=1', user));
  add('Heavy user', '/api/v1/orders', get('/api/v1/orders', key));
  add('Heavy user', '/api/v1/ledger', get('/api/v1/ledger', key));
  add('Heavy user', 'chat list', post('/api/livechat/queryConversation', {}, user));
  add('Heavy user', 'chat unread count', post('/api/livechat/unreadCount', {}, user));
  await pager('Heavy user', 'history, 90 days', 50, history(user, {}));
  add('Heavy user', 'history, status delivered', history(user, { status: 1 })(1));
  add('Heavy user', 'dailyStats, 90 days', post('/api/MassOutreach/dailyStats', range, user));
  add(
    'Heavy user',
    'dailyStats, 90 whole days (the screen)',
    post('/api/MassOutreach/dailyStats', days, user),
  );

  const measured: Measured[] = [];
  for (const c of cases) {
    if (ONLY && !c.name.includes(ONLY) && !c.group.includes(ONLY)) continue;
    let status = 0;
    for (let i = 0; i < WARM; i++) status = (await c.run()).status;
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const a = await c.run();
      status = a.status;
      ms.push(a.ms);
    }
    ms.sort((a, b) => a - b);
    const m = {
      group: c.group,
      name: c.name,
      p50: r1(quantile(ms, 0.5)),
      p95: r1(quantile(ms, 0.95)),
      max: r1(ms.at(-1)!),
      status,
    };
    measured.push(m);
    console.log(
      `${c.group.padEnd(16)} ${c.name.padEnd(48)} ${String(m.p50).padStart(8)} ${String(m.p95).padStart(8)} ms  ${status}`,
    );
  }
  console.log(
    `\n| Group | Call | p50 (ms) | p95 (ms) | status |\n| --- | --- | --- | --- | --- |\n${measured
      .map((m) => `| ${m.group} | ${m.name} | ${m.p50} | ${m.p95} | ${m.status} |`)
      .join('\n')}`,
  );
  return measured;
}

/** Device SMS pushes while `callers` anonymous catalogue callers run; per level. */
async function measurePush(db: pg.Client) {
  const gws = (
    await db.query<{ id: string; push_secret: string }>(
      'SELECT id, push_secret FROM gateways WHERE is_enable ORDER BY name LIMIT $1',
      [PUSH_DEVICES],
    )
  ).rows;
  const levels = [];
  let seq = 0;
  for (const callers of PUSH_CALLERS) {
    let stop = false;
    const catalogue = { calls: 0, s503: 0, other: 0, ms: [] as number[] };
    const loops = Array.from({ length: callers }, async () => {
      while (!stop) {
        const a = await call('POST', '/api/Service/getall', {}).catch(() => ({
          status: -1,
          ms: 0,
          body: '',
        }));
        catalogue.calls++;
        catalogue.ms.push(a.ms);
        if (a.status === 503) catalogue.s503++;
        else if (a.status !== 200) catalogue.other++;
      }
    });
    // Let the callers reach their steady state before the pushes are timed.
    if (callers > 0) await new Promise((r) => setTimeout(r, 3000));
    const push = { sent: 0, s503: 0, other: 0, ms: [] as number[] };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const end = performance.now() + PUSH_SECONDS * 1000;
    await Promise.all(
      gws.map(async (g, d) => {
        for (let next = performance.now(); performance.now() < end; ) {
          const n = ++seq;
          const at = Math.floor(Date.now() / 1000);
          const text = `Bench push ${process.pid}-${n}: your code is ${String(n % 1_000_000).padStart(6, '0')}`;
          const body = JSON.stringify({
            type: 'recv-sms',
            sms_num: 1,
            sms: [
              [
                0,
                `${(n % 32) + 1}.01`,
                at,
                `+1555${String(d).padStart(3, '0')}0000`,
                '',
                Buffer.from(text).toString('base64'),
              ],
            ],
          });
          const a = await pushOnce(agent, `/api/gw/${g.id}/${g.push_secret}/sms`, body);
          push.sent++;
          push.ms.push(a.ms);
          if (a.status === 503) push.s503++;
          else if (a.status !== 200) push.other++;
          next += PUSH_EVERY_MS;
          const wait = next - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      }),
    );
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    push.ms.sort((a, b) => a - b);
    catalogue.ms.sort((a, b) => a - b);
    const level = {
      callers,
      pushes: push.sent,
      pushP50: r1(quantile(push.ms, 0.5)),
      pushP95: r1(quantile(push.ms, 0.95)),
      push503: push.s503,
      pushOtherErrors: push.other,
      catalogueCalls: catalogue.calls,
      catalogueP50: callers ? r1(quantile(catalogue.ms, 0.5)) : null,
      catalogue503: catalogue.s503,
      catalogueOtherErrors: catalogue.other,
    };
    levels.push(level);
    console.log(JSON.stringify(level));
  }
  console.log(
    `\n| catalogue callers | pushes | push p50 (ms) | push p95 (ms) | push 503 | catalogue calls | catalogue p50 (ms) | catalogue 503 |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n${levels
      .map(
        (l) =>
          `| ${l.callers} | ${l.pushes} | ${l.pushP50} | ${l.pushP95} | ${l.push503} | ${l.catalogueCalls} | ${l.catalogueP50 ?? '–'} | ${l.catalogue503} |`,
      )
      .join('\n')}`,
  );
  return levels;
}

/** One push as a device sends it (node:http, one keep-alive connection per device). */
function pushOnce(agent: http.Agent, path: string, json: string): Promise<{ status: number; ms: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      `${BASE}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json;charset=utf-8',
          'content-length': Buffer.byteLength(json),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
      },
    );
    req.on('error', () => resolve({ status: -1, ms: performance.now() - t }));
    req.end(json);
  });
}

/** Order Manager's and User Manager's time to content in Chromium, signed in as the admin. */
async function measureBrowser(adminToken: string) {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    console.log('browser: skipped, apps/web/dist is not built (npm run build)');
    return null;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const out = [];
  try {
    const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/healthz');
    await page.evaluate(`localStorage.setItem('jwtToken', ${JSON.stringify(adminToken)})`);
    for (const [name, path] of [
      ['Order Manager', '/ordermanager'],
      ['User Manager', '/usermanager'],
    ] as const) {
      const shell: number[] = [];
      const first: number[] = [];
      const all: number[] = [];
      for (let i = 0; i <= BROWSER_RUNS; i++) {
        await page.goto('/healthz');
        const t = performance.now();
        await page.goto(path, { waitUntil: 'commit' });
        // The app drawn (the page's heading): what the browser costs before any list data.
        await page.locator('h1').first().waitFor({ timeout: 120_000 });
        const shellMs = performance.now() - t;
        // A data row: a table row without a skeleton cell.
        await page
          .locator('tbody tr:not(:has(.animate-pulse)) td')
          .first()
          .waitFor({ timeout: 120_000 })
          .catch(async (e: unknown) => {
            await page.screenshot({ path: join(ROOT, 'bench/out/scale-browser-failed.png') });
            throw e;
          });
        const firstMs = performance.now() - t;
        // Polled from here every 50 ms: the app's Content-Security-Policy refuses the string
        // evaluation page.waitForFunction would poll with.
        for (const until = performance.now() + 120_000; ; ) {
          if ((await page.locator('.animate-pulse, [aria-busy="true"]').count()) === 0) break;
          if (performance.now() > until) throw new Error(`${name}: skeletons left after 120 s`);
          await new Promise((r) => setTimeout(r, 50));
        }
        const allMs = performance.now() - t;
        if (i > 0) {
          shell.push(shellMs);
          first.push(firstMs);
          all.push(allMs);
        }
      }
      shell.sort((a, b) => a - b);
      first.sort((a, b) => a - b);
      all.sort((a, b) => a - b);
      const r = {
        page: name,
        headingP50: r1(quantile(shell, 0.5)),
        firstRowP50: r1(quantile(first, 0.5)),
        firstRowMax: r1(first.at(-1)!),
        completeP50: r1(quantile(all, 0.5)),
        completeMax: r1(all.at(-1)!),
      };
      out.push(r);
      console.log(JSON.stringify(r));
    }
  } finally {
    await browser.close();
  }
  console.log(
    `\n| page | heading p50 (ms) | first data row p50 (ms) | max | every table filled p50 (ms) | max |\n| --- | --- | --- | --- | --- | --- |\n${out
      .map(
        (r) =>
          `| ${r.page} | ${r.headingP50} | ${r.firstRowP50} | ${r.firstRowMax} | ${r.completeP50} | ${r.completeMax} |`,
      )
      .join('\n')}`,
  );
  return out;
}

await main();
