/**
 * Bulk SMS benchmarks on PostgreSQL, against a real server process:
 *
 * 1. accept: POST /api/MassOutreach/sendMassSMS with 10,000 recipients (validate + store the campaign,
 *    10,000 queued messages and their conversations in one transaction). Target ≤ 1 s.
 * 2. history: POST /api/MassOutreach/querymsg (summary + one page + total) over 1,000,000 stored
 *    messages, for a user and for Admin9, one day and 30 days. Target p95 ≤ 100 ms.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/messaging.ts
 *
 * 3. dispatch: 10,000 queued messages through simulated gateways with 64 SIM ports in all, each SIM
 *    limited to SIM_RATE messages a minute; the achieved rate against the ports' combined rate.
 *    Target ≥ 95 %. Then the fair queue: user A queues 10,000 messages, and once they are going out
 *    user B sends 10; the time from B's send to B's last result, also in dispatcher ticks and in
 *    ticks of the SIMs' capacity that went to A meanwhile (goal: under 2 ticks), and the pair's
 *    throughput.
 * 4. deep (not in the default set): DEEP_MESSAGES (1,000,000) queued messages of 20 users × 5
 *    campaigns seeded in SQL, then the dispatch rate over 20 s against the combined rate, and a
 *    10-message send of another user through that queue.
 *
 * Options (env): RUNS (accept runs, 10), MESSAGES (history rows, 1000000), QUERIES (per case, 40),
 * PARTS (comma list of accept,history,dispatch,deep; accept,history,dispatch by default), SIM_RATE
 * (per SIM per minute, 300), DISPATCH_MESSAGES (10000), DEEP_MESSAGES (1000000).
 */
import type { ChildProcess } from 'node:child_process';
import type { SimFleet } from '@simdock/gateway-sim';
import pg from 'pg';
import { benchDatabase, type Json } from './http.ts';
import { simGateways, startBenchServer, timedPoster } from './sim-gateways.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.RUNS ?? 10);
const MESSAGES = Number(process.env.MESSAGES ?? 1_000_000);
const QUERIES = Number(process.env.QUERIES ?? 40);
const PORT = 3990 + Math.floor(Math.random() * 9);
const BASE = `http://127.0.0.1:${PORT}`;
const USERS = 20;
const DAYS = 30;
const PARTS = new Set((process.env.PARTS ?? 'accept,history,dispatch').split(','));
const SIM_RATE = Number(process.env.SIM_RATE ?? 300);
const DISPATCH_MESSAGES = Number(process.env.DISPATCH_MESSAGES ?? 10_000);
const DEEP_MESSAGES = Number(process.env.DEEP_MESSAGES ?? 1_000_000);
const PORTS = 64;
/** The server's SMS_DISPATCH_INTERVAL_MS (a tick: a claim, then this pause). */
const TICK_MS = 500;

const post = timedPoster(BASE);

const q = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${fmt(q(s, 0.5))}, p95 ${fmt(q(s, 0.95))}, max ${fmt(s[s.length - 1]!)}`;
}

async function main() {
  const database = await benchDatabase(ADMIN_URL);
  const dbUrl = new URL(database.url);
  let server: ChildProcess | undefined;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  try {
    server = await startBenchServer(PORT, dbUrl.toString(), {
      SMS_PER_SIM_PER_MINUTE: String(SIM_RATE),
      SMS_DISPATCH_INTERVAL_MS: String(TICK_MS),
    });
    await db.connect();
    const adminToken = await login('admin', 'bench-admin-pass');
    await post(
      '/api/Admin/updateSettings',
      { MaxBatchSendSms: 10_000, MaxMsgPerDay: 100_000_000 },
      adminToken,
    );
    await post('/api/Auth/register', {
      username: 'sender',
      email: 'sender@bench.local',
      passwordHash: 'bench-pass-123',
    });
    const token = await login('sender', 'bench-pass-123');

    // 1. accept
    if (PARTS.has('accept')) await acceptPart(token);
    if (PARTS.has('history')) await historyPart(db, adminToken);
    if (PARTS.has('dispatch') || PARTS.has('deep')) await dispatchPart(db, adminToken, token);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await db.end().catch(() => {});
    await database.drop();
  }
}

async function login(username: string, password: string): Promise<string> {
  return (await post('/api/Auth/login', { username, password })).json.token as string;
}

async function acceptPart(token: string) {
  const accept: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const base = 12000000000 + run * 100_000;
    const number = Array.from({ length: 10_000 }, (_, i) => String(base + i)).join('\n');
    const { ms, json } = await post(
      '/api/MassOutreach/sendMassSMS',
      { number, mess: 'Spring sale today only\nSpring sale: reply STOP to opt out\nSee you soon' },
      token,
    );
    if (json.data.queued !== 10_000) throw new Error('not all queued');
    accept.push(ms);
  }
  console.log(`accept 10,000 recipients (${RUNS} runs, HTTP round trip on localhost): ${stats(accept)}`);
}

async function historyPart(db: pg.Client, adminToken: string) {
  // 2. history over MESSAGES rows: USERS users, DAYS days, seeded in SQL (statuses and replies mixed).
  await db.query(`TRUNCATE messages, conversations, campaigns, conversation_replies`);
  const users = (
    await db.query<{ id: string; username: string }>(
      `INSERT INTO users (username, email, password_hash, roles)
         SELECT 'hist' || g, 'hist' || g || '@bench.local', (SELECT password_hash FROM users WHERE username = 'sender'),
                ARRAY['User']
           FROM generate_series(1, $1) g RETURNING id, username`,
      [USERS],
    )
  ).rows;
  const t0 = performance.now();
  const end = Date.UTC(2031, 5, 30);
  await db.query(
    `INSERT INTO conversations (user_id, receiver, latest_sms, latest_time, created_at)
       SELECT u.id, (13000000000 + r)::text, 'x', now(), now()
         FROM unnest($1::uuid[]) AS u(id), generate_series(0, 4999) r`,
    [users.map((u) => u.id)],
  );
  await db.query(
    `INSERT INTO messages (user_id, conversation_id, recipient, body, status, sim_id, gateway_name, port, created_at,
                             sent_at, status_reason, replied_at)
       SELECT c.user_id, c.id, c.receiver, 'Spring sale today only',
              CASE WHEN g % 10 = 0 THEN 'failed' WHEN g % 97 = 0 THEN 'queued' ELSE 'delivered' END,
              gen_random_uuid(), 'gw-' || (g % 4), (g % 64 + 1) || '.01', t, t,
              CASE WHEN g % 10 = 0 THEN '6 Timeout; 21 Short message transfer rejected' END,
              CASE WHEN g % 23 = 0 THEN t + interval '5 minutes' END
         FROM generate_series(1, $1) g
         CROSS JOIN LATERAL (SELECT to_timestamp($2 / 1000.0) - (g % ($3 * 86400)) * interval '1 second' AS t) tt
         JOIN conversations c ON c.id = (g % ($4 * 5000)) + (SELECT min(id) FROM conversations)`,
    [MESSAGES, end, DAYS, USERS],
  );
  await db.query('VACUUM ANALYZE messages');
  await db.query('VACUUM ANALYZE conversations');
  await db.query('VACUUM ANALYZE messaging_hourly');
  console.log(`seeded ${MESSAGES} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const userToken = await login(users[0]!.username, 'bench-pass-123');
  const endS = end / 1000;
  const cases: [string, string, Json][] = [
    ['user, one day', userToken, { strTime: endS - 86400, endTime: endS - 1 }],
    ['user, 30 days', userToken, { strTime: endS - DAYS * 86400, endTime: endS - 1 }],
    ['Admin9, one day', adminToken, { strTime: endS - 86400, endTime: endS - 1 }],
    ['Admin9, 30 days', adminToken, { strTime: endS - DAYS * 86400, endTime: endS - 1 }],
    ['Admin9, 30 days, page 100', adminToken, { strTime: endS - DAYS * 86400, endTime: endS - 1 }],
  ];
  for (const [name, tk, params] of cases) {
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < QUERIES; i++) {
      const { ms, json } = await post(
        '/api/MassOutreach/querymsg',
        { current: name.includes('page 100') ? 100 : 1, size: 50, params },
        tk,
      );
      samples.push(ms);
      total = json.data.sum.numCnt;
    }
    console.log(`querymsg ${name} (numCnt ${total}): ${stats(samples)}`);
  }
}

async function dispatchPart(db: pg.Client, adminToken: string, token: string) {
  await db.query(`UPDATE messages SET status = 'cancelled' WHERE status IN ('queued', 'sending', 'sent')`);
  await post('/api/Auth/register', {
    username: 'sender_b',
    email: 'sender_b@bench.local',
    passwordHash: 'bench-pass-123',
  });
  const tokenB = await login('sender_b', 'bench-pass-123');
  const fleet = await simGateways(post, adminToken, PORTS);
  try {
    if (PARTS.has('dispatch')) {
      await throughputCase(db, fleet, token);
      await twoUsersCase(db, fleet, token, tokenB);
    }
    if (PARTS.has('deep')) await deepQueueCase(db, fleet, tokenB);
  } finally {
    await fleet.stop();
  }
}

const combinedRate = () => (PORTS * SIM_RATE) / 60;
/** Messages all SIMs may send in one tick. */
const tickCapacity = () => (combinedRate() * TICK_MS) / 1000;
const accepted = (fleet: SimFleet) =>
  fleet.devices.reduce((n, d) => n + d.sentTasks().filter((t) => t.status.startsWith('0')).length, 0);
const numbers = (n: number, base: number) => Array.from({ length: n }, (_, i) => String(base + i)).join('\n');

/** Messages of a campaign with a final result (delivered or failed). */
async function finished(db: pg.Client, campaign: string): Promise<number> {
  const rows = (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1::bigint AND status IN ('delivered', 'failed')`,
      [campaign],
    )
  ).rows;
  return rows[0]?.n ?? 0;
}

/** Polls until `n` messages of the campaign have their result; when each poll saw the count move. */
async function until(
  db: pg.Client,
  campaign: string,
  n: number,
  everyMs: number,
  onProgress?: (done: number) => void,
) {
  const t0 = performance.now();
  for (;;) {
    const done = await finished(db, campaign);
    onProgress?.(done);
    if (done >= n) return performance.now();
    if (performance.now() - t0 > 10 * 60_000) throw new Error(`dispatch stalled: ${done} of ${n}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function throughputCase(db: pg.Client, fleet: SimFleet, token: string) {
  const before = accepted(fleet);
  const t0 = performance.now();
  const sent = await post(
    '/api/MassOutreach/sendMassSMS',
    { number: numbers(DISPATCH_MESSAGES, 14000000000), mess: 'Bench dispatch' },
    token,
  );
  let firstAt: number | undefined;
  const end = await until(db, sent.json.data.campaignId as string, DISPATCH_MESSAGES, 200, (done) => {
    if (firstAt === undefined && done > 0) firstAt = performance.now();
  });
  const seconds = (end - t0) / 1000;
  const achieved = DISPATCH_MESSAGES / seconds;
  console.log(
    `dispatch ${DISPATCH_MESSAGES} messages over ${PORTS} SIMs at ${SIM_RATE}/min each: ${seconds.toFixed(1)} s, ` +
      `${achieved.toFixed(1)}/s of ${combinedRate().toFixed(1)}/s combined (${((achieved / combinedRate()) * 100).toFixed(1)} %), ` +
      `first result after ${(((firstAt ?? t0) - t0) / 1000).toFixed(2)} s, device tasks accepted ${accepted(fleet) - before}`,
  );
}

interface SmallSend {
  /** From the send's request until none of B's messages is queued (all claimed). */
  claimedMs: number;
  /** From the send's request until B's last result. */
  lastMs: number;
  /** Other users' messages the devices accepted meanwhile. */
  others: number;
}

/** B sends 10 messages while other messages keep every SIM busy; polled every 20 ms. */
async function smallSend(db: pg.Client, fleet: SimFleet, tokenB: string, base: number): Promise<SmallSend> {
  const before = accepted(fleet);
  const t0 = performance.now();
  const sent = await post(
    '/api/MassOutreach/sendMassSMS',
    { number: numbers(10, base), mess: 'Bench small' },
    tokenB,
  );
  let claimedMs: number | undefined;
  for (;;) {
    const [r] = (
      await db.query<{ queued: number; done: number }>(
        `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
                count(*) FILTER (WHERE status IN ('delivered', 'failed'))::int AS done
           FROM messages WHERE campaign_id = $1::bigint`,
        [sent.json.data.campaignId],
      )
    ).rows;
    const at = performance.now() - t0;
    if (claimedMs === undefined && r!.queued === 0) claimedMs = at;
    if (r!.done === 10)
      return { claimedMs: claimedMs ?? at, lastMs: at, others: accepted(fleet) - before - 10 };
    if (at > 10 * 60_000) throw new Error('small send stalled');
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** B's sends, one line each and their median and worst: in ms, in ticks, in ticks of SIM capacity. */
function smallSendReport(runs: SmallSend[]): string {
  if (runs.length === 0) return '  (no small sends: B_SENDS=0)';
  const ticks = (ms: number) => (ms / TICK_MS).toFixed(2);
  const lines = runs.map(
    (r, i) =>
      `  B send ${i + 1}: claimed after ${r.claimedMs.toFixed(0)} ms, last result after ${r.lastMs.toFixed(0)} ms ` +
      `= ${ticks(r.lastMs)} ticks; other messages sent meanwhile ${r.others} = ${(r.others / tickCapacity()).toFixed(2)} ticks of SIM capacity`,
  );
  const last = runs.map((r) => r.lastMs).sort((a, b) => a - b);
  const capacity = runs.map((r) => r.others / tickCapacity()).sort((a, b) => a - b);
  return [
    ...lines,
    `  B's last result: median ${q(last, 0.5).toFixed(0)} ms = ${ticks(q(last, 0.5))} ticks of ${TICK_MS} ms, ` +
      `worst ${last[last.length - 1]!.toFixed(0)} ms = ${ticks(last[last.length - 1]!)} ticks; ` +
      `in ticks of SIM capacity (${tickCapacity()} messages a tick): median ${q(capacity, 0.5).toFixed(2)}, ` +
      `worst ${capacity[capacity.length - 1]!.toFixed(2)}`,
  ].join('\n');
}

/** B sends this often, 2 s apart, while A's campaign goes out. */
const B_SENDS = Number(process.env.B_SENDS ?? 5);

async function twoUsersCase(db: pg.Client, fleet: SimFleet, tokenA: string, tokenB: string) {
  const before = accepted(fleet);
  const t0 = performance.now();
  const sent = await post(
    '/api/MassOutreach/sendMassSMS',
    { number: numbers(DISPATCH_MESSAGES, 15000000000), mess: 'Bench campaign A' },
    tokenA,
  );
  const campaign = sent.json.data.campaignId as string;
  // A's campaign is going out at full rate before B sends.
  await until(db, campaign, 1, 50);
  const aDone = until(db, campaign, DISPATCH_MESSAGES, 200);
  const runs: SmallSend[] = [];
  for (let i = 0; i < B_SENDS; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    runs.push(await smallSend(db, fleet, tokenB, 16000000000 + i * 100));
  }
  const end = await aDone;
  const seconds = (end - t0) / 1000;
  const achieved = (DISPATCH_MESSAGES + 10 * B_SENDS) / seconds;
  console.log(
    `two users: A sends ${DISPATCH_MESSAGES} messages; once they are going out, B sends 10, ${B_SENDS} times 2 s apart. ` +
      `A's campaign done in ${seconds.toFixed(1)} s: ${achieved.toFixed(1)}/s of ${combinedRate().toFixed(1)}/s ` +
      `(${((achieved / combinedRate()) * 100).toFixed(1)} %), device tasks accepted ${accepted(fleet) - before}\n` +
      smallSendReport(runs),
  );
}

async function deepQueueCase(db: pg.Client, fleet: SimFleet, tokenB: string) {
  // The SIMs are left out while the queue is seeded (one INSERT), then the dispatcher takes it on.
  await db.query('UPDATE gateways SET is_enable = false');
  const users = 20;
  const campaigns = 5;
  const perCampaign = Math.ceil(DEEP_MESSAGES / (users * campaigns));
  const t0 = performance.now();
  await db.query(
    `INSERT INTO users (username, email, password_hash, roles)
       SELECT 'deep' || g, 'deep' || g || '@bench.local', 'x', ARRAY['User'] FROM generate_series(1, $1) g`,
    [users],
  );
  await db.query(
    `INSERT INTO campaigns (user_id, total, created_at)
       SELECT u.id, $1, now() FROM users u, generate_series(1, $2) WHERE u.username LIKE 'deep%'`,
    [perCampaign, campaigns],
  );
  await db.query(
    `INSERT INTO conversations (user_id, receiver, latest_sms, latest_time, created_at)
       SELECT u.id, (17000000000 + r)::text, 'x', now(), now()
         FROM users u, generate_series(0, $1 - 1) r WHERE u.username LIKE 'deep%'`,
    [perCampaign],
  );
  await db.query(
    `INSERT INTO messages (campaign_id, user_id, conversation_id, recipient, body, status, created_at)
       SELECT c.id, c.user_id, cv.id, cv.receiver, 'Deep queue', 'queued', now()
         FROM campaigns c JOIN users u ON u.id = c.user_id AND u.username LIKE 'deep%'
         JOIN conversations cv ON cv.user_id = c.user_id
        ORDER BY cv.id, c.id`,
  );
  await db.query('VACUUM ANALYZE messages');
  const queued = (
    await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE status = 'queued'`)
  ).rows[0]!.n;
  console.log(`seeded ${queued} queued messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await db.query('UPDATE gateways SET is_enable = true');
  // The rate once the SIMs' pace is steady: from 5 s in, over 30 s, counted per claim (the
  // messages of every claim after the window's first, over the time from the first claim to the
  // last), so a claim landing just inside or outside the window does not move the figure.
  await new Promise((r) => setTimeout(r, 5000));
  const t1 = (await db.query<{ t1: Date }>('SELECT now() AS t1')).rows[0]!.t1;
  await new Promise((r) => setTimeout(r, 30_000));
  const [claims] = (
    await db.query<{ claims: number; n: number; seconds: number }>(
      `WITH c AS (SELECT claim_id, min(sent_at) AS t, count(*) AS n FROM messages
                   WHERE sent_at >= $1 AND claim_id IS NOT NULL GROUP BY claim_id)
       SELECT count(*)::int AS claims, (sum(n) - (SELECT n FROM c ORDER BY t LIMIT 1))::int AS n,
              extract(epoch FROM max(t) - min(t))::float AS seconds FROM c`,
      [t1],
    )
  ).rows;
  const rate = claims!.n / claims!.seconds;
  const period = (claims!.seconds * 1000) / (claims!.claims - 1);
  const runs: SmallSend[] = [];
  for (let i = 0; i < B_SENDS; i++) {
    runs.push(await smallSend(db, fleet, tokenB, 16500000000 + i * 100));
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log(
    `deep queue (${queued} queued, ${users} users × ${campaigns} campaigns): ${rate.toFixed(1)}/s of ` +
      `${combinedRate().toFixed(1)}/s combined (${((rate / combinedRate()) * 100).toFixed(1)} %) over ` +
      `${claims!.claims} claims, one every ${period.toFixed(0)} ms\n` +
      smallSendReport(runs),
  );
  await db.query(`UPDATE messages SET status = 'cancelled' WHERE status IN ('queued', 'sending', 'sent')`);
}

await main();
