/**
 * OTP latency by device transport: the same code path measured from an Ejoin box (its HTTP push)
 * and from a GoIP box (a UDP `RECEIVE` to the platform's GoIP port), side by side in one run.
 *
 * A real server process on PostgreSQL; this process plays both boxes (tools/gateway-sim and
 * tools/goip-sim, each speaking its real protocol) and the users (one SSE stream each). Every SIM of
 * both boxes is rented for each service; then SMS arrive at a steady rate, alternating between the
 * boxes, each to a random open order of that box, and the time from the box sending the SMS to the
 * order event at the user's SSE client is taken per transport.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:otp:transports
 *
 * Options (env): RATE (SMS per second over both boxes, 50), DURATION (seconds measured, 20), LINES (SIMs per box, 16),
 * USERS (20), WARMUP (seconds of traffic before the measured run, not counted; 5).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { GatewaySim } from '@simdock/gateway-sim';
import { GoipSim } from '@simdock/goip-sim';
import { freeUdpPort } from '@simdock/goip-sim/testkit';
import { openSse, requestJson } from '@simdock/server/testing';
import { benchDatabase, benchServerEnv, benchUsers, type Json, jsonPoster, serveArgs } from './http.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.DURATION ?? 20);
const LINES = Number(process.env.LINES ?? 16);
const USERS = Number(process.env.USERS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 5);
const SERVICES = ['Alpha', 'Bravo', 'Charlie', 'Delta'];
const PORT = 3800 + Math.floor(Math.random() * 90);
const BASE = `http://127.0.0.1:${PORT}`;
const post = jsonPoster(BASE);

type Transport = 'http (Ejoin)' | 'udp (GoIP)';

function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
}

async function main() {
  const database = await benchDatabase(ADMIN_URL);
  const dbUrl = new URL(database.url);
  const udp = await freeUdpPort();

  let server: ChildProcess | undefined;
  const ejoin = await GatewaySim.start({ ports: LINES, slots: 1, seed: 7 });
  let goip: GoipSim | undefined;
  try {
    server = spawn(process.execPath, serveArgs(), {
      env: {
        ...benchServerEnv(PORT, dbUrl.toString()),
        GOIP_UDP_PORT: String(udp),
        GOIP_UDP_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; ; i++) {
      if ((await fetch(`${BASE}/readyz`).catch(() => undefined))?.ok) break;
      if (i > 300) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const adminToken = (await post('/api/Auth/login', { username: 'admin', password: 'bench-admin-pass' }))
      .token;
    const box = await post(
      '/api/Admin/updateGateway',
      { gateway: { name: 'ejoin', url: ejoin.url, mac: ejoin.mac, userName: 'root', password: 'root' } },
      adminToken,
    );
    await post('/api/Admin/gatewayScan', { id: box.id }, adminToken);
    const goipGw = await post(
      '/api/Admin/updateGateway',
      { gateway: { name: 'goip', kind: 'goip', url: '', userName: 'bench', password: 'line-pw' } },
      adminToken,
    );
    goip = await GoipSim.start({
      server: { host: '127.0.0.1', port: udp },
      lines: LINES,
      idPrefix: 'bench',
      password: 'line-pw',
      keepaliveMs: 5000,
      seed: 9,
    });
    for (let i = 0; ; i++) {
      const report = await post('/api/Admin/gatewayReport', { id: goipGw.id }, adminToken);
      if (report.sims.filter((s: { usable: boolean }) => s.usable).length === LINES) break;
      if (i > 100) throw new Error('the GoIP lines did not register');
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const name of SERVICES) {
      await post(
        '/api/service/update',
        {
          name,
          code: name.toLowerCase(),
          price: 0.1,
          textContains: name,
          pattern: '(\\d{6})',
          isRepeatable: true,
        },
        adminToken,
      );
    }
    const users = await benchUsers(post, database.url, USERS);

    // Every usable SIM of both boxes, once per service (until no number is left for it).
    type Target = { transport: Transport; service: string; send: (text: string) => void };
    const byNumber = new Map<string, (text: string) => void>();
    for (const s of ejoin.slots())
      if (s.sn) byNumber.set(s.sn, (text) => ejoin.injectSms({ port: s.port, from: 'Verify', text }));
    const ejoinNumbers = new Set(byNumber.keys());
    for (let n = 1; n <= LINES; n++) {
      const line = n;
      byNumber.set(goip.line(n).sim.number, (text) => goip!.receiveSms(line, { from: 'Verify', text }));
    }
    const targets: Record<Transport, Target[]> = { 'http (Ejoin)': [], 'udp (GoIP)': [] };
    let k = 0;
    for (const service of SERVICES) {
      for (;;) {
        const rented = await requestJson<Json>(
          BASE,
          'POST',
          '/api/Order/create',
          { serviceCode: service.toLowerCase() },
          users[k++ % USERS],
        );
        if (rented.status === 409) break;
        if (rented.status !== 200) throw new Error(`rent: ${rented.status} ${JSON.stringify(rented.body)}`);
        const phone = rented.body.data.phoneNumber as string;
        const transport: Transport = ejoinNumbers.has(phone) ? 'http (Ejoin)' : 'udp (GoIP)';
        const send = byNumber.get(phone);
        if (!send) throw new Error(`rented ${phone}, on neither box`);
        targets[transport].push({ transport, service, send });
      }
    }

    if (targets['udp (GoIP)'].length === 0 || targets['http (Ejoin)'].length === 0)
      throw new Error('no open orders on one of the boxes');
    const sentAt = new Map<string, { at: number; transport: Transport }>();
    const latencies: Record<Transport, number[]> = { 'http (Ejoin)': [], 'udp (GoIP)': [] };
    const streams = await Promise.all(
      users.map((token) =>
        openSse(`${BASE}/api/Order/stream`, token, (e) => {
          if (e.event !== 'order') return;
          const at = performance.now();
          const code = (JSON.parse(e.data) as { codeText: string | null }).codeText ?? '';
          const sent = sentAt.get(code);
          if (!sent) return;
          sentAt.delete(code);
          latencies[sent.transport].push(at - sent.at);
        }),
      ),
    );
    const send = async (count: number, codeBase: number, timed: boolean) => {
      const t0 = performance.now();
      for (let n = 0; n < count; n++) {
        const wait = t0 + (n * 1000) / RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const list = targets[n % 2 === 0 ? 'http (Ejoin)' : 'udp (GoIP)'];
        const t = list[Math.floor(Math.random() * list.length)]!;
        const code = String(codeBase + n).padStart(6, '0');
        if (timed) sentAt.set(code, { at: performance.now(), transport: t.transport });
        t.send(`${t.service} code: ${code}`);
      }
    };
    await send(RATE * WARMUP, 900_000, false);
    await new Promise((r) => setTimeout(r, 2000));
    const total = RATE * SECONDS;
    await send(total, 100_000, true);
    const deadline = performance.now() + 5000;
    while (sentAt.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const s of streams) s.close();

    const rows = (Object.keys(latencies) as Transport[]).map((transport) => {
      const sorted = [...latencies[transport]].sort((a, b) => a - b);
      return {
        transport,
        sent: Math.ceil(total / 2) - (transport === 'udp (GoIP)' ? total % 2 : 0),
        delivered: sorted.length,
        p50: quantile(sorted, 0.5),
        p90: quantile(sorted, 0.9),
        p99: quantile(sorted, 0.99),
        max: quantile(sorted, 1),
      };
    });
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          rate: RATE,
          seconds: SECONDS,
          simsPerBox: LINES,
          load: loadavg(),
          rows,
        },
        null,
        2,
      ),
    );
    console.log('\n| transport | delivered | p50 | p90 | p99 | max |\n| --- | --- | --- | --- | --- | --- |');
    for (const r of rows)
      console.log(
        `| ${r.transport} | ${r.delivered}/${r.sent} | ${r.p50} ms | ${r.p90} ms | ${r.p99} ms | ${r.max} ms |`,
      );
    if (rows.some((r) => r.delivered < r.sent)) process.exitCode = 1;
  } finally {
    const stopped = server && new Promise((r) => server?.once('exit', r));
    server?.kill('SIGTERM');
    await goip?.stop();
    await ejoin.stop();
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 10_000))]);
    await database.drop();
  }
}

await main();
