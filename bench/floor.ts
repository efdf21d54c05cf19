/**
 * The floor under the cost of one SMS push on this machine: what a bare Fastify server (no product
 * code: `bench/floor-server.ts`) spends per push that makes N round trips to PostgreSQL, with and
 * without a NOTIFY heard back, at light rates. The OTP benchmark's CPU per SMS is read against it:
 * a push path cannot cost less than the bare server making the same round trips.
 *
 *   npm run bench:floor
 *   # options: RATES=20,100 RTS=0,1,2,3,5 SECONDS=15 WARMUP=30 (seconds at 100/s first) FLOOR_DATABASE_URL=postgres://…
 *   #          REFS=c,net,http,fastify (which servers; default fastify)
 *
 * REFS adds controls that answer each push at once, with no round trip, to show what of the floor is
 * the machine and what is Node.js: `c` an epoll loop in C (`floor-c-server.c`, built with `cc`: the
 * kernel's and hardware's cost of a wake-up and a loopback exchange), `net` Node.js with a bare socket,
 * `http` Node.js with node:http (`floor-node-server.ts`), `fastify` the reference above.
 *
 * Pushes come from this process over one keep-alive connection per simulated gateway (20, as the
 * gateway simulator's pusher), evenly spaced. CPU is read from /proc (user + system) for the server
 * and for all PostgreSQL processes.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, postgresCpuMs, postgresCpuSince } from './cpu.ts';
import { startListening, startReference } from './http.ts';

const list = (s: string | undefined, d: string) => (s ?? d).split(',').map(Number);
const RATES = list(process.env.RATES, '20,100');
const RTS = list(process.env.RTS, '0,1,2,3,5');
const SECONDS = Number(process.env.SECONDS ?? 15);
const WARMUP = Number(process.env.WARMUP ?? 30);
const GATEWAYS = 20;
const REFS = (process.env.REFS ?? 'fastify').split(',');
const KNOWN_REFS = ['c', 'net', 'http', 'fastify'];
if (REFS.some((r) => !KNOWN_REFS.includes(r))) throw new Error(`REFS: one of ${KNOWN_REFS.join(',')}`);
const BENCH = dirname(fileURLToPath(import.meta.url));

const agents = Array.from({ length: GATEWAYS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));

function push(port: number, agent: http.Agent, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end('{"type":"recv-sms","sms_num":1,"sms":[[0,"1.01",1700000000,"+100","+200","aGVsbG8="]]}');
  });
}

type Server = { child: ChildProcess; port: number };

/** Pushes at `rate` for `seconds`; the server's and PostgreSQL's CPU per push (ms). */
async function measure(server: Server, rate: number, path: string, seconds: number) {
  const total = Math.round(rate * seconds);
  const serverBefore = cpuMs(server.child.pid);
  const pgBefore = postgresCpuMs();
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(push(server.port, agents[i % GATEWAYS]!, path));
  }
  await Promise.all(pending);
  return {
    server: (cpuMs(server.child.pid) - serverBefore) / total,
    postgres: postgresCpuSince(pgBefore) / total,
  };
}

/** Starts one of REFS. */
function start(ref: string): Promise<Server> {
  if (ref === 'fastify') return startReference('floor-server.ts');
  if (ref === 'c') {
    const binary = join(BENCH, 'out', 'floor-c-server');
    mkdirSync(dirname(binary), { recursive: true });
    execFileSync('cc', ['-O2', '-o', binary, join(BENCH, 'floor-c-server.c')], { stdio: 'inherit' });
    return startListening(binary, []);
  }
  return startReference('floor-node-server.ts', { ...process.env, FLOOR_STACK: ref });
}

const rows: string[] = [];
try {
  for (const ref of REFS) {
    const server = await start(ref);
    try {
      // Warm-up (JIT, prepared statements, connections): a short one leaves the JIT compiling through
      // the measured rows, which counts its work as the floor's.
      const fastify = ref === 'fastify';
      await measure(server, 100, fastify ? '/push?rts=3&notify=1' : '/push', WARMUP);
      for (const rate of RATES)
        for (const rts of fastify ? RTS : [0])
          for (const notify of fastify ? [false, true] : [false]) {
            const path = `/push?rts=${rts}${notify ? '&notify=1' : ''}`;
            const r = await measure(server, rate, path, SECONDS);
            rows.push(
              `| ${ref} | ${rate} | ${rts} | ${notify ? 'yes' : 'no'} | ${r.server.toFixed(3)} ms | ${r.postgres.toFixed(3)} ms |`,
            );
            console.log(rows.at(-1));
          }
    } finally {
      server.child.kill('SIGTERM');
    }
  }
} finally {
  // Also when a server fails to start: open keep-alive sockets would keep this process running.
  for (const a of agents) a.destroy();
}
console.log(
  '\n| server | rate (pushes/s) | round trips | NOTIFY heard back | server CPU / push | PostgreSQL CPU / push |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
