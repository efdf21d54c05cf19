/**
 * OTP latency benchmark: time from the simulator's SMS push to the order event at an SSE client.
 *
 * A real server process runs on PostgreSQL; this process plays the gateways (SimFleet speaking
 * the device protocol) and the users (one SSE stream each). Setup opens ORDERS orders, then SMS
 * arrive at a steady rate on the rented SIMs and each event's arrival is timed.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/otp-latency.ts
 *
 * Options (env): KEEP_DB (keep the database), ORDERS (10000), RATE (SMS per second, 500), RATES (a sweep:
 * RATES=0,2,20,100,500 measures each rate in turn on the same server and orders and prints a table; 0 is
 * the idle server), SECONDS (20 per rate), GATEWAYS (20 simulated devices of 64 SIMs), USERS (50),
 * WARMUP (seconds of traffic at the first rate, at least 100/s, before the measured runs; 0. For CPU per
 * SMS use 60: V8 compiles the SMS path over its first thousands of SMS, and a shorter warm-up counts
 * that compiling as the SMS's cost; THREADS=1 shows it in V8's threads), SETTLE (seconds of traffic at
 * each rate before it is measured, not counted; 0. For CPU per SMS in a sweep use 60: the catch-up reads
 * each gateway's last minute again, so without it a rate is billed the previous rate's re-reads, five
 * times as many when 20 SMS/s follows 100), RENT=http (rent through
 * POST /api/Order/create, as the runs before 2026-11-25 did; by default the open orders are inserted
 * in SQL, one per SIM and service, which takes seconds instead of minutes). There are as many
 * services as the SIMs need to carry ORDERS open orders (a number serves a service once), at least 4.
 *
 * STATEMENTS=1: per rate, the statements PostgreSQL ran for the server (pg_stat_statements, which must be
 * in shared_preload_libraries; track_planning on adds planning time): calls and time per SMS, top first.
 * THREADS=1: per rate, the server's CPU by thread (its main thread, V8's workers, libuv's pool).
 * PROFILE=1: the server writes a CPU profile to bench/out/prof/ (read it with bench/profile-summary.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimFleet } from '@simdock/gateway-sim';
import { openSse } from '@simdock/server/testing';
import pg from 'pg';
import { cpuMs, postgresCpuMs, postgresCpuSince, rssMb, threadCpuMs, threadCpuSince } from './cpu.ts';
import { benchDatabase, benchServerEnv, benchUsers, jsonPoster, serveArgs } from './http.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.ORDERS ?? 10_000);
/** The measured rates: RATES=2,20,100,500 (a sweep over the same server and orders, 0 = idle), else RATE. */
const RATES = (process.env.RATES ?? process.env.RATE ?? '500').split(',').map(Number);
if (RATES.some((r) => !Number.isFinite(r) || r < 0)) throw new Error(`RATES: ${process.env.RATES}`);
const SECONDS = Number(process.env.SECONDS ?? 20);
const GATEWAYS = Number(process.env.GATEWAYS ?? 20);
const PORTS = 64;
const PORT = 3900 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet'];
const SERVICES = NAMES.slice(0, Math.max(4, Math.ceil(ORDERS / (GATEWAYS * PORTS))));
if (SERVICES.length * GATEWAYS * PORTS < ORDERS) throw new Error('more GATEWAYS are needed for ORDERS');
const USERS = Number(process.env.USERS ?? 50);
/** Seconds of the same traffic before the measured run (JIT, plan caches), not counted. 0: from cold. */
const WARMUP = Number(process.env.WARMUP ?? 0);
/** Seconds at each rate before it is measured, not counted (steady state: see the loop). 0: none. */
const SETTLE = Number(process.env.SETTLE ?? 0);

const post = jsonPoster(BASE);

/**
 * The server's CPU per SMS over the bench's own. The bench does the same per SMS whatever the server
 * is (a push out, its answer and one event in), so its CPU tracks how fast the machine is at that
 * moment: on the shared 2-core machine the same code gives 0.86–1.19 ms of server CPU per SMS at
 * 100 SMS/s from one run to the next, and the bench's CPU moves with it. The ratio compares runs taken
 * at different moments; the milliseconds are what a goal is read against.
 */
function serverPerBench(cpu: { serverMsPerSms: number | null; benchMsPerSms: number | null }): number | null {
  return cpu.serverMsPerSms === null || !cpu.benchMsPerSms
    ? null
    : +(cpu.serverMsPerSms / cpu.benchMsPerSms).toFixed(2);
}

/** The sweep as a markdown table: one row per rate. */
function sweepTable(
  runs: {
    rate: number;
    p50: number | null;
    p99: number | null;
    cpu: { serverMsPerSms: number | null; postgresMsPerSms: number | null; benchMsPerSms: number | null };
    cpuPercentOfCore: { server: number; postgres: number };
    serverRssMb: number;
  }[],
): string {
  const cell = (v: number | null, unit = '') => (v === null ? '–' : `${v}${unit}`);
  return [
    '| rate (SMS/s) | p50 | p99 | server CPU / SMS | PostgreSQL CPU / SMS | bench CPU / SMS | server ÷ bench CPU | server CPU | PostgreSQL CPU | server RSS |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.rate === 0 ? 'idle' : r.rate} | ${cell(r.p50, ' ms')} | ${cell(r.p99, ' ms')} | ${cell(r.cpu.serverMsPerSms, ' ms')} | ${cell(r.cpu.postgresMsPerSms, ' ms')} | ${cell(r.cpu.benchMsPerSms, ' ms')} | ${cell(serverPerBench(r.cpu))} | ${r.cpuPercentOfCore.server} % | ${r.cpuPercentOfCore.postgres} % | ${r.serverRssMb} MB |`,
    ),
  ].join('\n');
}

/**
 * pg_stat_statements for the bench's database: `reset()` before a run, `report(n)` after it prints each
 * statement's calls, execution and planning time per unit (SMS), the costliest first.
 */
async function statementCounter(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const db = (
    await c.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = current_database()')
  ).rows[0]!.oid;
  return {
    reset: async () => {
      await c.query('SELECT pg_stat_statements_reset(0, $1, 0)', [db]);
    },
    report: async (per: number, unit: string) => {
      const rows = (
        await c.query<{ calls: string; exec: number; plan: number; query: string }>(
          `SELECT calls, total_exec_time AS exec, total_plan_time AS plan, query
             FROM pg_stat_statements WHERE dbid = $1 AND query NOT LIKE '%pg_stat_statements%'
            ORDER BY total_exec_time + total_plan_time DESC`,
          [db],
        )
      ).rows;
      const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
      const fmt = (n: number) => (n / per).toFixed(3);
      return [
        `statements per ${unit}: ${fmt(sum((r) => Number(r.calls)))} calls, ${fmt(sum((r) => r.exec))} ms executing, ${fmt(sum((r) => r.plan))} ms planning`,
        '| calls | exec ms | plan ms | statement |',
        '| --- | --- | --- | --- |',
        ...rows
          .slice(0, 25)
          .map(
            (r) =>
              `| ${fmt(Number(r.calls))} | ${fmt(r.exec)} | ${fmt(r.plan)} | ${r.query.replace(/\s+/g, ' ').slice(0, 140)} |`,
          ),
      ].join('\n');
    },
    close: () => c.end(),
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main() {
  const database = await benchDatabase(ADMIN_URL);
  const dbUrl = new URL(database.url);

  let server: ChildProcess | undefined;
  const fleet = await SimFleet.start(GATEWAYS, { ports: PORTS, slots: 1, seed: 7 });
  try {
    // PROFILE=1: the server writes a CPU profile to bench/out/prof/ when it stops.
    const prof = process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir', join(ROOT, 'bench/out/prof')] : [];
    // SERVER_NODE_FLAGS: extra node flags for the server alone (say --trace-gc, with BENCH_SERVER_LOG).
    const flags = (process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    server = spawn(process.execPath, serveArgs([...flags, ...prof]), {
      env: {
        ...benchServerEnv(PORT, dbUrl.toString()),
        LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn',
      },
      stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'pipe' : 'ignore', 'inherit'],
    });
    if (process.env.BENCH_SERVER_LOG) {
      const { createWriteStream } = await import('node:fs');
      server.stdout?.pipe(createWriteStream(process.env.BENCH_SERVER_LOG));
    }
    for (let i = 0; ; i++) {
      if ((await fetch(`${BASE}/readyz`).catch(() => undefined))?.ok) break;
      if (i > 300) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const adminToken = (await post('/api/Auth/login', { username: 'admin', password: 'bench-admin-pass' }))
      .token;

    for (const [i, sim] of fleet.devices.entries()) {
      const gw = await post(
        '/api/Admin/updateGateway',
        {
          gateway: {
            name: `bench-${i}`,
            url: sim.url,
            mac: sim.mac,
            userName: 'root',
            password: 'root',
            isEnable: true,
          },
        },
        adminToken,
      );
      await post('/api/Admin/gatewayScan', { id: gw.id }, adminToken);
    }
    for (const name of SERVICES) {
      await post(
        '/api/service/update',
        {
          name,
          code: name.toLowerCase(),
          price: 0.1,
          stock: ORDERS,
          textContains: name,
          pattern: '(\\d{6})',
          isRepeatable: true,
        },
        adminToken,
      );
    }

    // Money for the rentals, through the ledger as every balance change.
    const users = (await benchUsers(post, database.url, USERS)).map((token) => ({ token }));

    // Rent ORDERS numbers, spread over users and services.
    const portOf = new Map<string, { sim: (typeof fleet.devices)[number]; port: string }>();
    for (const sim of fleet.devices)
      for (const s of sim.slots()) if (s.sn) portOf.set(s.sn, { sim, port: s.port });
    const orders: { id: string; user: number; service: string; phone: string }[] = [];
    if (process.env.RENT !== 'http') {
      // One open order per (SIM, service) pair until ORDERS, spread over the users: the rows a rent
      // writes (the charge is left out: it plays no part in delivering a code).
      const db2 = new pg.Client({ connectionString: dbUrl.toString() });
      await db2.connect();
      const rows = (
        await db2.query<{ id: string; username: string; name: string; phone_number: string }>(
          `WITH pairs AS (
             SELECT sim.id AS sim_id, sim.gateway_id, g.name AS gateway_name, sim.port, sim.number,
                    s.id AS service_id, s.code, s.name, s.price,
                    row_number() OVER (ORDER BY s.name, sim.gateway_id, sim.port) - 1 AS k
               FROM sims sim JOIN gateways g ON g.id = sim.gateway_id
               CROSS JOIN services s
              WHERE sim.number IS NOT NULL AND s.code = ANY($1::text[])
           ), u AS (
             SELECT id, username, row_number() OVER (ORDER BY username) - 1 AS k
               FROM users WHERE username LIKE 'bench%'
           ), ins AS (
             INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name,
                                 sim_id, port, phone_number, price, status, created_at, expires_at)
             SELECT u.id, p.service_id, p.code, p.name, p.gateway_id, p.gateway_name, p.sim_id, p.port,
                    p.number, p.price, 'WAIT_CODE', now() - interval '1 minute', now() + interval '1 day'
               FROM pairs p JOIN u ON u.k = p.k % $2
              WHERE p.k < $3
             RETURNING id::text, user_id, service_name AS name, phone_number
           )
           SELECT ins.id, u.username, ins.name, ins.phone_number FROM ins JOIN u ON u.id = ins.user_id`,
          [SERVICES.map((n) => n.toLowerCase()), USERS, ORDERS],
        )
      ).rows;
      await db2.query('ANALYZE orders');
      await db2.end();
      for (const r of rows) {
        orders.push({ id: r.id, user: Number(r.username.slice(5)), service: r.name, phone: r.phone_number });
      }
      if (orders.length !== ORDERS) throw new Error(`opened ${orders.length} orders of ${ORDERS}`);
    }
    for (let i = 0; process.env.RENT === 'http' && i < ORDERS; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, ORDERS - i) }, (_, k) => {
          const user = (i + k) % USERS;
          const service = SERVICES[(i + k) % SERVICES.length]!;
          return post('/api/Order/create', { serviceCode: service.toLowerCase() }, users[user]!.token).then(
            (r) => ({
              id: r.data.id as string,
              user,
              service,
              phone: r.data.phoneNumber as string,
            }),
          );
        }),
      );
      orders.push(...batch);
    }

    const sentAt = new Map<string, number>();
    let latencies: number[] = [];
    let received = 0;
    let started = performance.now();
    // Timed the moment each event is parsed at its client.
    const onEvent = (e: { event: string; data: string }) => {
      if (e.event !== 'order') return;
      const at = performance.now();
      const key = (JSON.parse(e.data) as { codeText: string | null }).codeText ?? '';
      const t0 = sentAt.get(key);
      if (t0 === undefined) return;
      sentAt.delete(key);
      latencies.push(at - t0);
      received++;
      if (process.env.BENCH_DEBUG && at - t0 > 50) {
        console.error(`slow: ${(t0 - started).toFixed(0)} ms in, ${(at - t0).toFixed(0)} ms`);
      }
    };
    const statements = process.env.STATEMENTS ? await statementCounter(dbUrl.toString()) : undefined;
    const streams = await Promise.all(
      users.map((u) => openSse(`${BASE}/api/Order/stream`, u.token, onEvent)),
    );

    /** SMS at `rate` to random open orders, code `codeBase + n`; `onSend` sees each code as it goes. */
    const send = async (rate: number, count: number, codeBase: number, onSend: (code: string) => void) => {
      const t0 = performance.now();
      for (let n = 0; n < count; n++) {
        const due = t0 + (n * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const o = orders[Math.floor(Math.random() * orders.length)]!;
        const code = String(codeBase + n).padStart(6, '0');
        const target = portOf.get(o.phone)!;
        onSend(code);
        target.sim.injectSms({ port: target.port, from: 'Verify', text: `${o.service} code: ${code}` });
      }
    };
    if (WARMUP > 0) {
      // Codes from 900000 on: their events are not in sentAt, so they are not counted. At least
      // 100/s, so that a sweep starting at a light rate still warms the JIT up.
      const warmRate = Math.max(RATES[0] ?? 0, 100);
      await send(warmRate, warmRate * WARMUP, 900_000, () => {});
      await new Promise((r) => setTimeout(r, 3000));
    }

    /**
     * One measured run at `rate` SMS/s for SECONDS (the services are repeatable, so the same open
     * orders serve every run of a sweep). Rate 0 measures the idle server: no SMS, CPU per second.
     */
    const measure = async (rate: number, codeBase: number) => {
      const total = Math.round(rate * SECONDS);
      latencies = [];
      received = 0;
      if (statements) await statements.reset();
      // CPU of each side over the sending phase and the drain after it (from /proc, Linux).
      const cpu0 = {
        server: cpuMs(server!.pid),
        threads: threadCpuMs(server!.pid),
        bench: process.cpuUsage(),
        pg: postgresCpuMs(),
      };
      const t0 = performance.now();
      started = t0;
      if (total > 0) await send(rate, total, codeBase, (code) => sentAt.set(code, performance.now()));
      else await new Promise((r) => setTimeout(r, SECONDS * 1000));
      const deadline = performance.now() + 5000;
      while (received < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const wallMs = performance.now() - t0;
      const benchCpu = process.cpuUsage(cpu0.bench);
      const serverMs = cpuMs(server!.pid) - cpu0.server;
      const pgMs = postgresCpuSince(cpu0.pg);
      const benchMs = (benchCpu.user + benchCpu.system) / 1000;
      const per = (ms: number) => (total > 0 ? +(ms / total).toFixed(3) : null);
      if (process.env.THREADS) {
        const byThread = [...threadCpuSince(server!.pid, cpu0.threads)].filter(([, ms]) => ms > 0);
        console.log(
          `\n${rate} SMS/s, server CPU by thread: ${byThread.map(([name, ms]) => `${name} ${ms} ms${total > 0 ? ` (${per(ms)} ms/SMS)` : ''}`).join(', ')}`,
        );
      }
      if (statements)
        console.log(
          `\n${rate} SMS/s:\n${await statements.report(Math.max(total, 1), total > 0 ? 'SMS' : 'run')}`,
        );
      latencies.sort((a, b) => a - b);
      const q = (x: number) => (latencies.length ? +quantile(latencies, x).toFixed(1) : null);
      return {
        rate,
        sent: total,
        delivered: received,
        p50: q(0.5),
        p90: q(0.9),
        p99: q(0.99),
        max: latencies.length ? +latencies[latencies.length - 1]!.toFixed(1) : null,
        cpu: {
          serverMsPerSms: per(serverMs),
          postgresMsPerSms: per(pgMs),
          benchMsPerSms: per(benchMs),
          serverPerBench: serverPerBench({ serverMsPerSms: per(serverMs), benchMsPerSms: per(benchMs) }),
        },
        /** The server's resident memory at the end of the run. */
        serverRssMb: rssMb(server!.pid),
        /** CPU per second of the run, in % of one core: what the traffic (or idleness) costs. */
        cpuPercentOfCore: {
          server: +((serverMs / wallMs) * 100).toFixed(2),
          postgres: +((pgMs / wallMs) * 100).toFixed(2),
        },
      };
    };

    const runs = [];
    for (const [i, rate] of RATES.entries()) {
      // SETTLE: the same rate, not measured, so the background work the traffic causes (the catch-up
      // reading each gateway's last minute again) is the measured rate's, not the previous one's.
      // Codes from codeBase + 50,000 on are not in sentAt, so they are not counted.
      if (SETTLE > 0) {
        if (rate > 0) await send(rate, Math.round(rate * SETTLE), 150_000 + i * 100_000, () => {});
        else await new Promise((r) => setTimeout(r, SETTLE * 1000));
      }
      runs.push(await measure(rate, 100_000 + i * 100_000));
    }
    for (const s of streams) s.close();
    await statements?.close();

    const setup = {
      date: new Date().toISOString(),
      database: 'PostgreSQL (server, same machine)',
      gateways: GATEWAYS,
      sims: GATEWAYS * PORTS,
      services: SERVICES.length,
      users: USERS,
      openOrders: ORDERS,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      settleSeconds: SETTLE,
      load: loadavg().map((l) => +l.toFixed(1)),
    };
    mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
    if (process.env.RATES) {
      const result = { ...setup, runs };
      console.log(JSON.stringify(result, null, 2));
      console.log(`\n${sweepTable(runs)}`);
      writeFileSync(join(ROOT, 'bench/out/otp-sweep.json'), JSON.stringify(result, null, 2));
    } else {
      const { rate, sent, delivered, p50, p90, p99, max, cpu } = runs[0]!;
      const result = { ...setup, rate, sent, delivered, p50, p90, p99, max, cpu };
      console.log(JSON.stringify(result, null, 2));
      writeFileSync(join(ROOT, 'bench/out/otp-latency.json'), JSON.stringify(result, null, 2));
    }
    if (runs.some((r) => r.delivered < r.sent)) process.exitCode = 1;
  } finally {
    const stopped = server && new Promise((r) => server?.once('exit', r));
    server?.kill('SIGTERM');
    await fleet.stop();
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 10_000))]);
    await database.drop();
  }
}

await main();
