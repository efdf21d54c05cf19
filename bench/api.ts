/**
 * API throughput benchmark: autocannon against two signed-in routes of the real server and against
 * a bare Fastify route, in the same run on the same machine. The ratio server / bare is the figure
 * that means something on a shared machine (both sides see the same contention).
 *
 * The bare server has a second route that sends getbyuser's exact answer (the bench fetches it from
 * the real server first): a 30 KB answer costs any server, the kernel and the load generator far
 * more than the bare route's 21 bytes, so getbyuser is also given as a ratio to that route.
 * Every measurement records CPU per request of the answering process, of PostgreSQL (all its
 * processes on this machine) and of autocannon: the three share the machine's cores.
 *
 * Three processes besides this one: the real server (`apps/server/src/main.ts`, NODE_ENV=production,
 * logging at warn), the bare server (`bench/bare-server.ts`, the same Fastify, no plugins), and the
 * load generator (autocannon in `bench/cannon.ts`, one process per measurement, so it never shares an
 * event loop with a server). The benchmark user has ORDERS orders in the database (inserted in SQL),
 * 20 other users 4 × ORDERS more; `POST /api/Order/getbyuser` answers the newest 100. With USERS=N,
 * N benchmark users share the ORDERS orders and the requests take their tokens in turn (concurrent
 * requests of different users: nothing is shared between them but the statements).
 *
 *   npm run bench:api                                   # embedded PGlite in a temporary directory
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:api
 *                                                       # PostgreSQL: a fresh database, dropped after
 *
 * Options (env): ORDERS (10000), CONNECTIONS (50), SECONDS (10, per measurement), WARMUP (3 s),
 * ROUNDS (3; each round measures both bare routes, healthz, user/info and getbyuser in turn), ONLY (measure only
 * the routes whose name contains it, besides the bare one), USERS (1), RATE (requests/s in all: a
 * fixed load, for a CPU profile of a server that is never short of a core), KEEP_DB (keep the database),
 * PROFILE (=1: the server runs with --cpu-prof, profiles in bench/out/prof/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Db, openDatabase } from '@simdock/server';
import pg from 'pg';
import { cpuMs, postgresCpuMs, postgresCpuSince } from './cpu.ts';
import { type Json, jsonPoster, serveArgs, startReference } from './http.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CANNON = join(ROOT, 'bench/cannon.ts');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const ORDERS = Number(process.env.ORDERS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ONLY = process.env.ONLY;
const USERS = Math.max(1, Number(process.env.USERS ?? 1));
const RATE = process.env.RATE ? Number(process.env.RATE) : undefined;
const PORT = 4100 + Math.floor(Math.random() * 200);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = 'bench-secret-bench-secret-bench-secret!!';
const OUT = join(ROOT, 'bench/out');

const post = jsonPoster(BASE);

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child) return;
  child.kill('SIGTERM');
  await Promise.race([exited(child), new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The real server, production-like: NODE_ENV=production, logs at warn, the same tsx loader as `npm run serve`. */
async function startServer(db: { url?: string; dataDir?: string }): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    APP_SECRET: SECRET,
    ADMIN_PASSWORD: 'bench-admin-pass',
    LOG_LEVEL: 'warn',
    LOGIN_MAX_FAILURES_PER_IP: '1000',
    // The benchmark registers its users from one address.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
  };
  delete env.DATABASE_URL;
  if (db.url) env.DATABASE_URL = db.url;
  if (db.dataDir) env.DATA_DIR = db.dataDir;
  const prof = process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir', join(OUT, 'prof')] : [];
  const child = spawn(process.execPath, serveArgs(prof), {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    if ((await fetch(`${BASE}/readyz`).catch(() => undefined))?.ok) return child;
    if (child.exitCode !== null) throw new Error('server exited at start');
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startBare(bodyFile: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, port } = await startReference('bare-server.ts', { ...process.env, BODY_FILE: bodyFile });
  return { child, url: `http://127.0.0.1:${port}` };
}

interface Run {
  rps: number;
  /** CPU time of the answering process per request, in microseconds. */
  cpuUs: number;
  /** PostgreSQL's CPU time per request (µs; 0 for the bare server and PGlite, which is in-process). */
  pgCpuUs: number;
  /** The load generator's CPU time per request (µs), for the whole of its run. */
  genCpuUs: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** One autocannon measurement, in its own process (`bench/cannon.ts`); its JSON report is read from stdout. */
function cannon(method: string, url: string, tokens: string[], seconds: number, pid?: number): Promise<Run> {
  const cpu0 = cpuMs(pid);
  const pg0 = postgresCpuMs();
  const spec = JSON.stringify({ url, method, tokens, connections: CONNECTIONS, seconds, rate: RATE });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CANNON, spec], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out) as Json;
      resolve({
        rps: r.requests.average,
        cpuUs: Math.round(((cpuMs(pid) - cpu0) * 1000) / r.requests.total),
        pgCpuUs: Math.round((postgresCpuSince(pg0) * 1000) / r.requests.total),
        genCpuUs: Math.round((r.cpuMs * 1000) / r.requests.total),
        p50: r.latency.p50,
        p99: r.latency.p99,
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
      });
    });
  });
}

/**
 * ORDERS orders for the benchmark users and 4 × ORDERS for 20 other users, interleaved (every fifth
 * order is a benchmark user's, the benchmark users in turn), in one statement.
 */
async function seed(db: Db, benchUsers: string[]): Promise<void> {
  const userId = benchUsers[0]!;
  const t0 = performance.now();
  const [service] = await db.query<{ id: string }>(
    `INSERT INTO services (name, code, price, stock, pattern, text_contains)
       VALUES ('Bench', 'bench', 0.10, 100, '(\\d{6})', 'Bench') RETURNING id`,
  );
  const others = await db.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash, roles)
       SELECT 'other' || k, 'other' || k || '@bench.local', password_hash, roles
         FROM users, generate_series(1, 20) k WHERE id = $1 RETURNING id`,
    [userId],
  );
  // Finished orders (no open ones: the sweeper would cancel and refund them), 9 in 10 with a code,
  // one every 12 s back from now.
  const total = ORDERS * 5;
  await db.query(
    `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_name, port, phone_number,
                         price, status, code_text, sms_text, created_at, expires_at, finished_at)
       SELECT CASE WHEN g % 5 = 0 THEN ($4::uuid[])[(g / 5) % $5 + 1] ELSE ($3::uuid[])[g % 20 + 1] END, $1, 'bench', 'Bench', 'bench-gw',
              (g % 64 + 1) || '.01', (15550000000 + g)::text,
              0.10, CASE WHEN g % 7 = 0 THEN 'CANCEL' ELSE 'SUCCESS' END,
              CASE WHEN g % 7 = 0 THEN NULL ELSE lpad((g * 7919 % 1000000)::text, 6, '0') END,
              CASE WHEN g % 7 = 0 THEN NULL
                   ELSE 'Your Bench code: ' || lpad((g * 7919 % 1000000)::text, 6, '0') || '. Do not share it.' END,
              t, t + interval '20 minutes', t + interval '2 minutes'
         FROM generate_series(1, $2) g
         CROSS JOIN LATERAL (SELECT now() - ($2 - g) * interval '12 seconds' - interval '1 day' AS t) tt`,
    [service!.id, total, others.map((o) => o.id), benchUsers, benchUsers.length],
  );
  await db.query('ANALYZE orders');
  await db.query('ANALYZE users');
  const [mine] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE user_id = $1', [
    userId,
  ]);
  console.log(
    `seeded ${total} orders (${mine!.n} of the benchmark user) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  if (process.env.EXPLAIN) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ANALYZE SELECT * FROM orders o WHERE o.user_id = $1 ORDER BY o.id DESC LIMIT 100`,
      [userId],
    );
    console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  mkdirSync(OUT, { recursive: true });
  const dbName = `simdock_bench_api_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | undefined;
  let dbUrl: string | undefined;
  let dataDir: string | undefined;
  if (ADMIN_URL) {
    admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'simdock-bench-api-'));
  }
  const where = { url: dbUrl, dataDir };
  let server: ChildProcess | undefined;
  let bare: { child: ChildProcess; url: string } | undefined;
  try {
    server = await startServer(where);
    // USERS benchmark users (bench, bench2, …), each with a token and an API key (user/info shows
    // it); requests take the tokens in turn.
    const tokens: string[] = [];
    for (let i = 1; i <= USERS; i++) {
      const username = i === 1 ? 'bench' : `bench${i}`;
      await post('/api/Auth/register', {
        username,
        email: `${username}@bench.local`,
        passwordHash: 'bench-password',
      });
      const login = await post('/api/Auth/login', { username, password: 'bench-password' });
      tokens.push(login.token as string);
      await post('/api/user/reset-key', {}, login.token as string);
    }
    const token = tokens[0]!;
    const me = await post('/api/user/info', {}, token);
    if (!dbUrl) await stop(server); // PGlite has one owner: seed between two server runs
    const db = await openDatabase({ DATABASE_URL: dbUrl, DATA_DIR: dataDir ?? '' });
    try {
      const benchUsers = await db.query<{ id: string }>(
        `SELECT id FROM users WHERE username ~ '^bench[0-9]*$' ORDER BY length(username), username`,
      );
      await seed(
        db,
        benchUsers.map((u) => u.id),
      );
    } finally {
      await db.close();
    }
    if (!dbUrl) server = await startServer(where);
    const orders = await post('/api/Order/getbyuser', {}, token);
    if (orders.orders.length !== Math.min(100, ORDERS)) throw new Error('getbyuser: unexpected answer');
    if (me.username !== 'bench') throw new Error('user/info: unexpected answer');
    // The bare server's second route sends getbyuser's exact answer: what its size costs anyone.
    const ordersText = await (
      await fetch(`${BASE}/api/Order/getbyuser`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{}',
      })
    ).text();
    const bodyFile = join(OUT, 'getbyuser-answer.json');
    writeFileSync(bodyFile, ordersText);
    bare = await startBare(bodyFile);

    // The bare route first (every ratio is against it); GET /healthz is the real server's floor:
    // its plugins and hooks (security headers, metrics, logging) with no database and no sign-in.
    const sameAnswer = `bare Fastify, getbyuser's answer`;
    const targets: { name: string; method: string; url: string; pid?: number; sameAs?: string }[] = [
      { name: 'bare Fastify POST', method: 'POST', url: `${bare.url}/bare`, pid: bare.child.pid },
      {
        name: `${sameAnswer} (${(Buffer.byteLength(ordersText) / 1024).toFixed(1)} KB)`,
        method: 'POST',
        url: `${bare.url}/bare-same`,
        pid: bare.child.pid,
      },
      { name: 'GET /healthz', method: 'GET', url: `${BASE}/healthz`, pid: server.pid },
      { name: 'POST /api/user/info', method: 'POST', url: `${BASE}/api/user/info`, pid: server.pid },
      {
        name: 'POST /api/Order/getbyuser',
        method: 'POST',
        url: `${BASE}/api/Order/getbyuser`,
        pid: server.pid,
        // Also against the bare route that sends the same bytes: the server's own cost, without
        // what the answer's size costs any server (and the load generator) on these cores.
        sameAs: sameAnswer,
      },
    ].filter((t, i) => i === 0 || !ONLY || t.name.includes(ONLY));
    // For each target, the bare route sending the same bytes (-1: none measured).
    const sameIndex = targets.map((t) => targets.findIndex((x) => t.sameAs && x.name.startsWith(t.sameAs)));
    for (const t of targets) await cannon(t.method, t.url, tokens, WARMUP);
    const runs: Run[][] = targets.map(() => []);
    const load: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      load.push(loadavg()[0]!);
      for (const [i, t] of targets.entries()) {
        const r = await cannon(t.method, t.url, tokens, SECONDS, t.pid);
        if (r.non2xx || r.errors) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        runs[i]!.push(r);
        const same = sameIndex[i]!;
        const ratio =
          (i === 0 ? '' : `, ratio ${(r.rps / runs[0]![round]!.rps).toFixed(2)}`) +
          (same >= 0 ? ` (${(r.rps / runs[same]![round]!.rps).toFixed(2)} to the same answer)` : '');
        console.log(
          `round ${round + 1} ${t.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${ratio}, ` +
            `CPU per request: ${r.cpuUs} µs server, ${r.pgCpuUs} µs PostgreSQL, ${r.genCpuUs} µs autocannon`,
        );
      }
    }

    const summary = targets.map((t, i) => {
      const rs = runs[i]!;
      const ratios = rs.map((r, k) => r.rps / runs[0]![k]!.rps);
      const same = sameIndex[i]!;
      const rps = rs.map((r) => r.rps);
      return {
        route: t.name,
        rpsBest: Math.round(Math.max(...rps)),
        rpsMedian: Math.round(median(rps)),
        p50Median: median(rs.map((r) => r.p50)),
        p99Median: median(rs.map((r) => r.p99)),
        p99Best: Math.min(...rs.map((r) => r.p99)),
        cpuUsMedian: median(rs.map((r) => r.cpuUs)),
        pgCpuUsMedian: median(rs.map((r) => r.pgCpuUs)),
        genCpuUsMedian: median(rs.map((r) => r.genCpuUs)),
        ratioBest: i === 0 ? 1 : +Math.max(...ratios).toFixed(2),
        ratioMedian: i === 0 ? 1 : +median(ratios).toFixed(2),
        ratioToSameAnswerMedian:
          same >= 0 ? +median(rs.map((r, k) => r.rps / runs[same]![k]!.rps)).toFixed(2) : undefined,
      };
    });
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      database: dbUrl ? 'PostgreSQL (server, same machine)' : 'PGlite (embedded, in the server process)',
      orders: ORDERS,
      users: USERS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      loadAverageAtRounds: load.map((l) => +l.toFixed(2)),
      summary,
      runs: targets.map((t, i) => ({ route: t.name, runs: runs[i] })),
    };
    console.log('');
    console.table(summary);
    console.log(`load average (1 min) at each round: ${result.loadAverageAtRounds.join(', ')}`);
    writeFileSync(join(OUT, 'api.json'), JSON.stringify(result, null, 2));
    const below = summary.filter((s) => s.ratioMedian < 0.5);
    if (below.length)
      console.log(`below the 0.5 target (median ratio): ${below.map((s) => s.route).join(', ')}`);
  } finally {
    await stop(bare?.child);
    await stop(server);
    if (admin) {
      if (process.env.KEEP_DB) console.log(`kept database ${dbName} (KEEP_DB)`);
      else await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    } else if (dataDir) {
      if (process.env.KEEP_DB) console.log(`kept PGlite data in ${dataDir} (KEEP_DB)`);
      else rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

await main();
