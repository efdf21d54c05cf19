/**
 * Sustained sends through the SMPP door beside the REST messaging API, against a real server
 * process on PostgreSQL with simulated gateways (the dispatch setup of bench/messaging.ts):
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test N=1000 npm run bench:smpp
 *
 * One user with an API key (every scope) and its SMPP credential, the account's rate raised to
 * SMPP_RATE. SMPP: one transmitter bind keeps WINDOW submit_sm outstanding until N are accepted.
 * REST: N `POST /api/v1/messages`, one number each, WINDOW in flight. Per path: accepted submits a
 * second, the time from the first submit until every message has its result from a SIM (delivered
 * or failed, as bench/messaging.ts counts), the server process's CPU per message over that time
 * (dispatching included, the same work for both paths) and the bench process's own CPU per message
 * while submitting.
 *
 * Before them, WARMUP messages through each path, not measured, so neither path pays for the other's
 * first compilations; and the server's CPU while idle, which the per-message figures include.
 *
 * Options (env): N (1000), WARMUP (100), WINDOW (10, the server's window per bind), SMPP_RATE (per
 * second, 1000), SIM_RATE (per SIM per minute, 600; 64 SIMs), PATHS (smpp,rest; the order they run).
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import type { SimFleet } from '@simdock/gateway-sim';
import pg from 'pg';
import { connect, type Pdu, type Session } from 'smpp';
import { cpuMs } from './cpu.ts';
import { benchDatabase, benchUsers, jsonPoster } from './http.ts';
import { simGateways, startBenchServer, timedPoster } from './sim-gateways.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.N ?? 1000);
const WARMUP = Number(process.env.WARMUP ?? 100);
const WINDOW = Number(process.env.WINDOW ?? 10);
const SMPP_RATE = Number(process.env.SMPP_RATE ?? 1000);
const SIM_RATE = Number(process.env.SIM_RATE ?? 600);
const PATHS = (process.env.PATHS ?? 'smpp,rest').split(',');
const PORT = 4000 + Math.floor(Math.random() * 900);
const BASE = `http://127.0.0.1:${PORT}`;
const SIMS = 64;
const ESME_RTHROTTLED = 0x58;

interface Row {
  path: string;
  submitS: number;
  endS: number;
  serverCpuMs: number;
  clientCpuMs: number;
  throttled: number;
}

async function main() {
  const database = await benchDatabase(ADMIN_URL);
  let server: ChildProcess | undefined;
  let fleet: SimFleet | undefined;
  const db = new pg.Client({ connectionString: database.url });
  try {
    server = await startBenchServer(PORT, database.url, {
      SMS_PER_SIM_PER_MINUTE: String(SIM_RATE),
      SMS_DISPATCH_INTERVAL_MS: '500',
      // One key sends every REST message of the run.
      API_RATE_LIMIT: '1000000',
    });
    await db.connect();
    const post = timedPoster(BASE);
    const adminToken = (await post('/api/Auth/login', { username: 'admin', password: 'bench-admin-pass' }))
      .json.token as string;
    await post(
      '/api/Admin/updateSettings',
      { MaxBatchSendSms: 10_000, MaxMsgPerDay: 100_000_000, SmsPricePerSegment: 0.01 },
      adminToken,
    );
    fleet = await simGateways(post, adminToken, SIMS);
    const [token] = await benchUsers(jsonPoster(BASE), database.url, 1);
    // Keys and SMPP credentials are made after a fresh re-authentication.
    const guarded = async (path: string, body: unknown) => {
      const reauth = (await post('/api/Auth/reauth', { password: 'bench-password' }, token)).json.reauth;
      return (await post(path, body, token, { 'x-reauth': reauth })).json;
    };
    const apiKey = (await guarded('/api/user/reset-key', {})).apiKey as string;
    const keyId = (await post('/api/user/apikeys', {}, token)).json.keys[0].id as string;
    const smpp = await guarded('/api/user/apikeys/smppPassword', { id: keyId });
    await db.query('UPDATE smpp_accounts SET rate_per_second = $1 WHERE system_id = $2', [
      SMPP_RATE,
      smpp.systemId,
    ]);

    const send = async (path: string, numbers: string[], text: string): Promise<number> => {
      if (path === 'smpp') return smppSends(smpp.port, smpp.systemId, smpp.password, numbers, text);
      if (path === 'rest') return restSends(apiKey, numbers, text);
      throw new Error(`unknown path ${path}`);
    };
    const numbersOf = (i: number, n: number) =>
      Array.from({ length: n }, (_, k) => `+1415${String(2_000_000 + i * 1_000_000 + k)}`);
    for (const [i, path] of PATHS.entries()) {
      await send(path, numbersOf(i + 5, WARMUP), `Warm-up ${path}`);
      await allDone(db, `Warm-up ${path}`, WARMUP);
    }
    const idle0 = cpuMs(server.pid);
    await new Promise((r) => setTimeout(r, 3000));
    const idleMsPerS = (cpuMs(server.pid) - idle0) / 3;
    const load = loadavg()[0]!;

    const rows: Row[] = [];
    for (const [i, path] of PATHS.entries()) {
      const text = `Bench ${path} send`;
      const cpu0 = cpuMs(server.pid);
      const client0 = process.cpuUsage();
      const t0 = performance.now();
      const throttled = await send(path, numbersOf(i, N), text);
      const t1 = performance.now();
      const client = process.cpuUsage(client0);
      await allDone(db, text, N);
      const t2 = performance.now();
      rows.push({
        path,
        submitS: (t1 - t0) / 1000,
        endS: (t2 - t0) / 1000,
        serverCpuMs: cpuMs(server.pid) - cpu0,
        clientCpuMs: (client.user + client.system) / 1000,
        throttled,
      });
    }
    console.log(
      `\n${N} messages a path, window ${WINDOW}, SMPP rate ${SMPP_RATE}/s, ${SIMS} SIMs at ${SIM_RATE}/min ` +
        `(${((SIMS * SIM_RATE) / 60).toFixed(0)}/s combined); server idle ${idleMsPerS.toFixed(0)} ms CPU/s; ` +
        `load average ${load.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
    );
    // Server CPU from the first submit to the last result: accepting, pricing and dispatching.
    // The bench's own CPU while submitting shares the two cores with it.
    console.log(
      '| path | messages | submit rate (/s) | end-to-end (s) | server CPU ms/msg | bench client CPU ms/msg |',
    );
    console.log('| --- | --: | --: | --: | --: | --: |');
    for (const r of rows)
      console.log(
        `| ${r.path}${r.throttled ? ` (${r.throttled} throttled, resent)` : ''} | ${N} | ${(N / r.submitS).toFixed(0)} | ` +
          `${r.endS.toFixed(2)} | ${(r.serverCpuMs / N).toFixed(2)} | ${(r.clientCpuMs / N).toFixed(2)} |`,
      );
  } finally {
    await fleet?.stop();
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await db.end().catch(() => {});
    await database.drop();
  }
}

/** Binds a transmitter and keeps WINDOW submits outstanding; resolves with the throttled count. */
async function smppSends(port: number, systemId: string, password: string, numbers: string[], text: string) {
  const session = await new Promise<Session>((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.on('error', reject);
  });
  try {
    const bind = await new Promise<Pdu>((r) =>
      session.bind_transmitter({ system_id: systemId, password }, r),
    );
    if (bind.command_status !== 0) throw new Error(`bind refused: ${bind.command_status}`);
    let next = 0;
    let throttled = 0;
    const submitOne = async (to: string): Promise<void> => {
      for (;;) {
        const resp = await new Promise<Pdu>((r) =>
          session.submit_sm({ destination_addr: to, data_coding: 0, short_message: text }, r),
        );
        if (resp.command_status === 0) return;
        if (resp.command_status !== ESME_RTHROTTLED) throw new Error(`submit_sm: ${resp.command_status}`);
        // Nothing of a throttled PDU is kept: it is sent again after a pause.
        throttled++;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const lane = async () => {
      while (next < numbers.length) await submitOne(numbers[next++]!);
    };
    await Promise.all(Array.from({ length: WINDOW }, lane));
    await new Promise<Pdu>((r) => session.unbind({}, r));
    return throttled;
  } finally {
    session.destroy();
  }
}

/** One `POST /api/v1/messages` per number, WINDOW in flight; nothing is throttled (0). */
async function restSends(apiKey: string, numbers: string[], text: string): Promise<number> {
  const post = timedPoster(BASE);
  let next = 0;
  const lane = async () => {
    while (next < numbers.length) await post('/api/v1/messages', { to: numbers[next++]!, text }, apiKey);
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  return 0;
}

/** Polls until every message with this text has its result from a SIM. */
async function allDone(db: pg.Client, text: string, n: number) {
  const t0 = performance.now();
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE body = $1 AND status IN ('delivered', 'failed')`,
      [text],
    );
    if (rows[0]!.n >= n) return;
    if (performance.now() - t0 > 5 * 60_000) throw new Error(`dispatch stalled: ${rows[0]!.n} of ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

await main();
