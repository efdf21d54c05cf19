/**
 * Seeds the operator-scale data set into its own PostgreSQL database, for bench/scale.ts
 * to measure as many times as needed. At SCALE=1: 100,000 users, 200 services, 200 gateways × 32
 * SIMs, 2,000,000 orders over 90 days with their SMS, codes and ledger, 1.2M incoming SMS in all,
 * 5,000,000 messages from 5,000 senders in 100,000 conversations (campaigns, replies, the hourly
 * rollup, daily usage), 200,000 payments, 500,000 audit rows and 90 days of uptime (hourly; samples for 48 h) per
 * gateway. Every balance equals the sum of its user's ledger rows (asserted at the end).
 *
 *   SCALE=0.1 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scale:seed
 *
 * The database (simdock_scale_<‰>, or SCALE_DB) is dropped and created, the server's own migrations
 * run on it (npm run migrate), then every table is filled by set-based SQL (generate_series,
 * INSERT … SELECT), no row goes through Node.js. Rows look like the product's own: the statuses,
 * timestamps, references (ledger refs `order:<id>`, `campaign:<id>`, …) and rollups it writes.
 *
 * How it stays fast without lying about the end state: the big tables' secondary indexes are dropped
 * during the load and created again from their own definitions; foreign-key and trigger checks are
 * off during the load (session_replication_role = replica), so the messaging rollup is filled with
 * the backfill statement of its migration and a few orphan checks stand in for the foreign keys;
 * then VACUUM ANALYZE, as autovacuum would have done on a live database.
 *
 * Shapes chosen for the product's rules: a number serves a service once (at most one open or
 * successful order per number and service, a unique index), so the SIM cards of each port change
 * every 30 days (three generations of numbers over 90 days; orders keep the number they had) and
 * each generation's successful orders take distinct (number, service) pairs. Gateways point at a
 * closed local port and their SMS pull catch-up is not due for years (nothing answers it here);
 * bench/scale.ts keeps them online while it measures.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchServerEnv } from './http.ts';
import { ADMIN_URL, DB_NAME, databaseUrl, SCALE, SEED_TABLE, SIZES } from './scale-common.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const S = SIZES;
const SIMS = S.gateways * S.portsPerGateway;
const NSV = S.services;
/** The heavy user's conversations (5 %); the other senders share the rest equally. */
const HEAVY_CONV = Math.max(1, Math.round(S.conversations * 0.05));
const PER = Math.max(1, Math.floor((S.conversations - HEAVY_CONV) / (S.senders - 1)));
const NCONV = HEAVY_CONV + PER * (S.senders - 1);
const MESSAGE_CHUNK = 1_000_000;

/** Tables whose secondary indexes are dropped for the load and made again afterwards. */
const BIG_TABLES = [
  'orders',
  'order_codes',
  'ledger',
  'messages',
  'incoming_sms',
  'conversations',
  'conversation_replies',
  'audit_log',
  'payments',
  'messaging_hourly',
];

/** A uniform value in [0, 1) from a bigint SQL expression (deterministic). */
const rnd = (expr: string) => `((hashint8((${expr})::bigint) & 1048575)::float8 / 1048576)`;
/** A non-negative int hash of a bigint SQL expression. */
const hsh = (expr: string) => `(hashint8((${expr})::bigint) & 2147483647)`;
/** A user index for activity: mostly the oldest accounts (squared), index 2…users. */
const skewedUser = (seed: string) => `(2 + floor(${S.users - 1} * power(${rnd(seed)}, 2))::int)`;
const uid = (i: string) => `md5('u' || (${i}))::uuid`;
const gw = (slot: string) => `md5('g' || ((${slot}) / 32 + 1))::uuid`;
const gwName = (slot: string) => `'gw-' || lpad(((${slot}) / 32 + 1)::text, 3, '0')`;
const simId = (slot: string) => `md5('s' || (${slot}))::uuid`;
const portOf = (slot: string) => `((${slot}) % 32 + 1) || '.01'`;

async function main() {
  const started = performance.now();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const url = databaseUrl();

  // The product's own migrations, exactly as an operator runs them.
  const migrate = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/migrate.ts')], {
    env: benchServerEnv(3999, url),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (migrate.status !== 0) throw new Error('npm run migrate failed');

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const T0 = (
    await db.query<{ t: string }>(
      "SELECT to_char(date_trunc('second', now()), 'YYYY-MM-DD\"T\"HH24:MI:SSOF') AS t",
    )
  ).rows[0]!.t;
  const t0 = `'${T0}'::timestamptz`;
  const span = (frac: string) => `(${t0} - interval '90 days' + interval '90 days' * (${frac}))`;
  const timings: [string, number][] = [];
  const step = async (name: string, sql: string | string[]) => {
    const t = performance.now();
    for (const s of Array.isArray(sql) ? sql : [sql]) await db.query(s);
    const ms = performance.now() - t;
    timings.push([name, ms]);
    console.log(`${name.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(7)} s`);
  };
  console.log(`SCALE=${SCALE}: seeding ${DB_NAME} (now = ${T0})`, S);

  await db.query(`SET maintenance_work_mem = '512MB'`);
  await db.query(`SET work_mem = '128MB'`);
  await db.query('SET synchronous_commit = off');
  await db.query(`CREATE TABLE ${SEED_TABLE} (key text PRIMARY KEY, value text NOT NULL)`);

  const indexes = (
    await db.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes
        WHERE schemaname = 'public' AND tablename = ANY($1)
          AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
      [BIG_TABLES],
    )
  ).rows;
  await step(
    'drop secondary indexes',
    indexes.map((i) => `DROP INDEX ${i.name}`),
  );
  await db.query('SET session_replication_role = replica');

  await step(
    'users',
    `INSERT INTO users (id, username, email, password_hash, roles, status, balance, created_at)
     SELECT ${uid('i')}, CASE WHEN i = 1 THEN 'heavy' ELSE 'user' || i END,
            CASE WHEN i = 1 THEN 'heavy' ELSE 'user' || i END || '@bench.example',
            '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hiZW5jaA$unusable-until-scale-ts-sets-it',
            ARRAY['User'], CASE WHEN i % 40 = 0 THEN 'Inactive' ELSE 'Active' END, 0,
            ${t0} - interval '400 days' * (1 - (i - 1)::float8 / ${S.users})
       FROM generate_series(1, ${S.users}) i`,
  );
  await step(
    'services',
    `INSERT INTO services (id, name, code, description, price, stock, pattern, text_contains, rent_time_minutes,
                           is_repeatable, is_enable, created_at)
     SELECT md5('v' || i)::uuid, 'Service ' || lpad(i::text, 3, '0'), 'svc' || lpad(i::text, 3, '0'),
            'Verification codes of service ' || i, (0.05 + (${hsh('i')} % 250) / 100.0)::numeric(14, 2),
            200 + (i * 37) % 800, '(\\d{4,8})', '', 20, i % 10 = 0, i % 25 <> 0, ${t0} - interval '120 days'
       FROM generate_series(1, ${NSV}) i`,
  );
  await step(
    'gateways',
    `INSERT INTO gateways (id, name, url, mac, external_id, user_name, password_enc, is_enable, push_secret, total_sim,
                           last_update, max_ports, max_slots, ip, firmware, sms_pull_due, driver, created_at)
     SELECT md5('g' || i)::uuid, 'gw-' || lpad(i::text, 3, '0'), 'http://127.0.0.1:9/', mac, mac, 'root',
            'bench:not-sealed', true, 'bench-push-secret-' || i, 32, ${t0}, 32, 1,
            '10.1.' || (i / 250) || '.' || (i % 250), 'bench-1.0', ${t0} + interval '10 years', 'ejoin',
            ${t0} - interval '120 days'
       FROM generate_series(1, ${S.gateways}) i,
            LATERAL (SELECT regexp_replace(lpad(to_hex(i), 12, '0'), '(..)(?=.)', '\\1:', 'g') AS mac) m`,
  );
  await step('sims and their health', [
    `INSERT INTO sims (id, gateway_id, port, iccid, imsi, imei, number, number_source, operator, signal, state,
                       active, updated_at, role)
     SELECT ${simId('j')}, ${gw('j')}, ${portOf('j')},
            CASE WHEN e THEN NULL ELSE '8901' || lpad(j::text, 15, '0') END,
            CASE WHEN e THEN NULL ELSE '45201' || lpad(j::text, 10, '0') END, '86' || lpad(j::text, 13, '0'),
            CASE WHEN e THEN NULL ELSE '1' || (3100000000 + j) END, CASE WHEN e THEN NULL ELSE 'device' END,
            CASE WHEN e THEN NULL ELSE 'Bench Mobile' END, CASE WHEN e THEN NULL ELSE 15 + j % 17 END,
            CASE WHEN e THEN 'empty' WHEN j % 50 = 7 THEN 'starting' ELSE 'ready' END, true, ${t0},
            CASE WHEN j % 10 = 0 THEN 'messaging' WHEN j % 10 = 1 THEN 'rental' ELSE 'both' END
       FROM generate_series(0, ${SIMS - 1}) j, LATERAL (SELECT j % 20 = 19 AS e) x`,
    `UPDATE gateways g SET total_sim = (SELECT count(*) FROM sims s WHERE s.gateway_id = g.id AND s.state <> 'empty')`,
    `INSERT INTO sim_health (sim_id, sent_day, sent_today, sent_month, sent_this_month, failed_total,
                             consecutive_failures, rentals_day, rentals_today, last_success_at, locked_at, lock_kind,
                             lock_reason, locked_by)
     SELECT id, ${t0}::date, n % 40, date_trunc('month', ${t0})::date, n % 900, n % 30, 0, ${t0}::date, n % 12,
            ${t0} - interval '1 minute' * (n % 60),
            CASE WHEN n % 100 = 3 THEN ${t0} - interval '2 days' END, CASE WHEN n % 100 = 3 THEN 'manual' END,
            CASE WHEN n % 100 = 3 THEN 'Blocked by the carrier' END, CASE WHEN n % 100 = 3 THEN 'admin' END
       FROM (SELECT id, (hashtext(id::text) & 2147483647) AS n FROM sims WHERE state <> 'empty') s`,
  ]);

  // Orders: one every 90 days / N, ids in time order. The last 20 minutes are still waiting for
  // their code; 30 % of the rest got one (a quarter of those never closed by their user), the rest
  // expired or were cancelled (refunded). Generation g = the SIM cards of days [30g, 30g + 30) ago.
  await step(
    'orders',
    `WITH base AS (
       SELECT i, ${span(`i::float8 / ${S.orders}`)} AS at, ${hsh('i * 7 + 1')} % 1000 AS h
         FROM generate_series(0, ${S.orders - 1}) i
     ), classified AS (
       SELECT i, at,
              CASE WHEN at > ${t0} - interval '20 minutes' THEN 'WAIT_CODE' WHEN h < 300 THEN 'SUCCESS' ELSE 'CANCEL' END
                AS status,
              least(2, floor(extract(epoch FROM ${t0} - at) / (30 * 86400)))::int AS gen
         FROM base
     ), ranked AS (
       SELECT c.*, CASE WHEN status <> 'CANCEL'
                        THEN (row_number() OVER (PARTITION BY gen, status <> 'CANCEL' ORDER BY i) - 1) * 7919
                               % ${SIMS * NSV} END AS pair
         FROM classified c
     ), placed AS (
       SELECT r.*,
              1 + coalesce(pair % ${NSV}, ${hsh('i * 7 + 2')} % ${NSV}) AS svc,
              coalesce(pair / ${NSV}, ${hsh('i * 7 + 3')} % ${SIMS})::int AS slot,
              CASE WHEN i % 20 = 0 THEN 1 ELSE ${skewedUser('i * 7 + 4')} END AS u,
              lpad((${hsh('i')} % 1000000)::text, 6, '0') AS code
         FROM ranked r
     )
     INSERT INTO orders (id, user_id, service_id, service_code, service_name, gateway_id, gateway_name, sim_id, port,
                         phone_number, price, status, code_text, sms_text, created_at, expires_at, finished_at,
                         closed_at)
     OVERRIDING SYSTEM VALUE
     SELECT p.i + 1, ${uid('p.u')}, s.id, s.code, s.name, ${gw('p.slot')}, ${gwName('p.slot')}, ${simId('p.slot')},
            ${portOf('p.slot')}, '1' || (3100000000 + p.gen * 100000000 + p.slot), s.price, p.status,
            CASE WHEN p.status = 'SUCCESS' THEN p.code END,
            CASE WHEN p.status = 'SUCCESS' THEN 'Your ' || s.name || ' code is ' || p.code || '. Do not share it.' END,
            p.at, p.at + interval '20 minutes',
            CASE WHEN p.status = 'SUCCESS' THEN p.at + interval '1 second' * (15 + p.i % 240)
                 WHEN p.status = 'CANCEL' AND p.i % 3 = 0 THEN p.at + interval '1 second' * (60 + p.i % 600)
                 WHEN p.status = 'CANCEL' THEN p.at + interval '20 minutes' END,
            -- a quarter never finished by their user: closed at the end of their time by the order-expiry
            -- job (docs/operations.md, "Data retention") unless that is still to come
            CASE WHEN p.status = 'SUCCESS' AND p.i % 4 <> 0 THEN p.at + interval '1 second' * (300 + p.i % 900)
                 WHEN p.status = 'SUCCESS' AND p.at + interval '20 minutes' <= ${t0} THEN p.at + interval '20 minutes' END
       FROM placed p JOIN services s ON s.code = 'svc' || lpad(p.svc::text, 3, '0')
      ORDER BY p.i`,
  );
  await step('order SMS and codes', [
    `INSERT INTO incoming_sms (id, gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at,
                               dedupe_key, matched)
     SELECT md5('os' || o.id)::uuid, o.gateway_id, o.port, NULL, o.service_name, o.phone_number, o.sms_text, false,
            extract(epoch FROM o.finished_at)::bigint, o.finished_at, 'bench:os:' || o.id, true
       FROM orders o WHERE o.status = 'SUCCESS' ORDER BY o.id`,
    `INSERT INTO order_codes (order_id, sms_id, code_text, sms_text, received_at)
     SELECT o.id, md5('os' || o.id)::uuid, o.code_text, o.sms_text, o.finished_at
       FROM orders o WHERE o.status = 'SUCCESS' ORDER BY o.id`,
    `INSERT INTO number_spent (phone_number, service_id, reason, marked_by, marked_by_name, created_at)
     SELECT DISTINCT ON (1, 2) '1' || (3100000000 + (k * 13) % ${SIMS}), md5('v' || (1 + k % ${NSV}))::uuid,
            'Banned by the service', NULL, 'admin', ${t0} - interval '1 hour' * k
       FROM generate_series(0, ${Math.max(10, Math.round(1000 * SCALE))}) k`,
  ]);

  await db.query(
    `CREATE UNLOGGED TABLE bench_ledger_stage (
       user_id uuid NOT NULL, amount numeric NOT NULL, kind text NOT NULL, ref text, created_at timestamptz NOT NULL)`,
  );
  await step('ledger of the orders (staged)', [
    `INSERT INTO bench_ledger_stage SELECT user_id, -price, 'order_charge', 'order:' || id, created_at FROM orders`,
    `INSERT INTO bench_ledger_stage SELECT user_id, price, 'refund', 'order:' || id, finished_at
       FROM orders WHERE status = 'CANCEL'`,
  ]);

  await step('payments and their credits', [
    `INSERT INTO payments (id, user_id, provider, provider_invoice_id, url, amount, amount_real, status, gw_status,
                           created_at, updated_at, finished_at, checked_at)
     SELECT md5('p' || i)::uuid, ${uid('u')}, 'sandbox', 'bench-inv-' || i,
            'http://127.0.0.1/sandbox/pay/bench-inv-' || i, amt, CASE WHEN done THEN amt ELSE 0 END,
            CASE WHEN done THEN 'DONE' ELSE 'FAILED' END, CASE WHEN done THEN 'finished' ELSE 'expired' END,
            at, at + interval '6 minutes', at + interval '6 minutes', at + interval '6 minutes'
       FROM (SELECT i, ${span(`i::float8 / ${S.payments}`)} AS at,
                    CASE WHEN i % 500 = 0 THEN 1 ELSE ${skewedUser('i * 3 + 7')} END AS u,
                    (5 + ${hsh('i * 3 + 1')} % 496)::numeric(14, 2) AS amt, ${hsh('i * 3 + 2')} % 100 < 80 AS done
               FROM generate_series(0, ${S.payments - 1}) i) p`,
    `INSERT INTO payment_credits (provider, provider_payment_id, payment_id, parent_payment_id, amount, created_at)
     SELECT 'sandbox', 'bench-pay-' || provider_invoice_id, id, NULL, amount_real, finished_at
       FROM payments WHERE status = 'DONE'`,
    `INSERT INTO bench_ledger_stage
     SELECT user_id, amount_real, 'topup', 'sandbox:bench-pay-' || provider_invoice_id, finished_at
       FROM payments WHERE status = 'DONE'`,
  ]);

  // Messaging: conversation c belongs to the heavy sender (the first 5 %) or to sender 2 + (c − H) / PER;
  // campaign k (PER messages, one to each conversation of its sender, all created at one instant).
  await step(
    'conversations',
    `INSERT INTO conversations (id, user_id, receiver, contact_name, latest_sms, latest_time, created_at)
     OVERRIDING SYSTEM VALUE
     SELECT c + 1, CASE WHEN c < ${HEAVY_CONV} THEN ${uid('1')} ELSE ${uid(`2 + (c - ${HEAVY_CONV}) / ${PER}`)} END,
            '1' || (5550000000 + c), CASE WHEN c % 5 = 0 THEN 'Contact ' || c ELSE '' END, '', ${t0},
            ${t0} - interval '90 days'
       FROM generate_series(0, ${NCONV - 1}) c`,
  );
  const messageSql = (from: number, to: number) => `
     INSERT INTO messages (id, campaign_id, user_id, conversation_id, recipient, body, status, attempt, sim_id,
                           gateway_id, gateway_name, port, tid, status_reason, created_at, sent_at, done_at,
                           replied_at, cost, refunded_at)
     OVERRIDING SYSTEM VALUE
     SELECT m + 1, k + 1, ${uid('u')}, conv + 1, '1' || (5550000000 + conv),
            'Bench campaign ' || (k + 1) || ': your appointment is confirmed for tomorrow at 10:00. Reply STOP to opt out.',
            st, 0, CASE WHEN st <> 'cancelled' THEN ${simId('slot')} END,
            CASE WHEN st <> 'cancelled' THEN ${gw('slot')} END, CASE WHEN st <> 'cancelled' THEN ${gwName('slot')} END,
            CASE WHEN st <> 'cancelled' THEN ${portOf('slot')} END, CASE WHEN st <> 'cancelled' THEN (m + 1)::int END,
            CASE WHEN st = 'failed' THEN 'The device reported a failure (code 21)' END,
            at, CASE WHEN st <> 'cancelled' THEN at + interval '2 seconds' * (m % ${PER}) + interval '1 second' END,
            CASE WHEN st <> 'cancelled' THEN at + interval '2 seconds' * (m % ${PER}) + interval '6 seconds'
                 ELSE at + interval '1 minute' END,
            CASE WHEN st = 'delivered' AND ${hsh('m * 5 + 3')} % 1000 < 20
                 THEN at + interval '2 seconds' * (m % ${PER}) + interval '5 minutes' END,
            0.0200, CASE WHEN st <> 'delivered' THEN at + interval '2 minutes' END
       FROM (SELECT m, k, u, conv, ${span(`k::float8 * ${PER} / ${S.messages}`)} AS at,
                    CASE WHEN h < 922 THEN 'delivered' WHEN h < 993 THEN 'failed' ELSE 'cancelled' END AS st,
                    CASE WHEN sl % 10 = 1 THEN sl - 1 ELSE sl END AS slot
               FROM (SELECT m, m / ${PER} AS k, ${hsh('m * 5 + 1')} % 1000 AS h, ${hsh('m * 5 + 2')} % ${SIMS} AS sl
                       FROM generate_series(${from}, ${to - 1}) m) a,
                    LATERAL (SELECT CASE WHEN k % 20 = 0 THEN 1 ELSE 2 + ${hsh('k')} % ${S.senders - 1} END AS u) b,
                    LATERAL (SELECT CASE WHEN u = 1 THEN ((k / 20) * ${PER} + m % ${PER}) % ${HEAVY_CONV}
                                         ELSE ${HEAVY_CONV} + (u - 2) * ${PER} + m % ${PER} END AS conv) c) x`;
  const chunks: string[] = [];
  for (let m = 0; m < S.messages; m += MESSAGE_CHUNK)
    chunks.push(messageSql(m, Math.min(S.messages, m + MESSAGE_CHUNK)));
  await step('messages', chunks);
  await step('campaigns, their ledger, rollups', [
    `INSERT INTO campaigns (id, user_id, total, created_at, cost, refunded, finished_at)
     OVERRIDING SYSTEM VALUE
     SELECT campaign_id, user_id, count(*), min(created_at), sum(cost),
            coalesce(sum(cost) FILTER (WHERE refunded_at IS NOT NULL), 0), max(done_at)
       FROM messages GROUP BY campaign_id, user_id ORDER BY campaign_id`,
    `INSERT INTO bench_ledger_stage
     SELECT user_id, -cost, 'message_charge', 'campaign:' || id, created_at FROM campaigns`,
    `INSERT INTO bench_ledger_stage
     SELECT user_id, sum(cost), 'message_refund', 'campaign:' || campaign_id || ':messages:' || min(id) || '-' || max(id),
            max(refunded_at)
       FROM messages WHERE refunded_at IS NOT NULL GROUP BY campaign_id, user_id`,
    // The backfill statement of migration 009 (the rollup its triggers keep).
    `INSERT INTO messaging_hourly (user_id, hour, num, success, folded)
     SELECT user_id, date_trunc('hour', created_at, 'UTC'),
            count(*) FILTER (WHERE status <> 'cancelled'), count(*) FILTER (WHERE status = 'delivered'), true
       FROM messages GROUP BY 1, 2`,
    `INSERT INTO messaging_daily_usage (user_id, day, used)
     SELECT user_id, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM messages GROUP BY 1, 2`,
    `UPDATE messaging_settings SET max_batch_send_sms = 10000, max_msg_per_day = 100000,
            sms_price_per_segment = 0.02, mms_price = 0.1, updated_at = ${t0}, updated_by = 'admin'`,
  ]);
  await step('replies and their SMS', [
    `INSERT INTO conversation_replies (conversation_id, user_id, message_id, sms_id, sender, body, sim_id, gateway_id,
                                       port, is_read, received_at)
     SELECT conversation_id, user_id, id, md5('rp' || id)::uuid, recipient,
            CASE WHEN id % 7 = 0 THEN 'STOP' ELSE 'Thanks, see you then' END, sim_id, gateway_id, port,
            replied_at < ${t0} - interval '1 day', replied_at
       FROM messages WHERE replied_at IS NOT NULL ORDER BY replied_at`,
    `INSERT INTO incoming_sms (id, gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at,
                               dedupe_key, matched)
     SELECT r.sms_id, r.gateway_id, r.port, NULL, r.sender, NULL, r.body, false,
            extract(epoch FROM r.received_at)::bigint, r.received_at, 'bench:rp:' || r.id, true
       FROM conversation_replies r ORDER BY r.id`,
    `INSERT INTO opt_outs (user_id, number, created_at)
     SELECT DISTINCT ON (user_id, sender) user_id, sender, received_at
       FROM conversation_replies WHERE body = 'STOP' ORDER BY user_id, sender, received_at`,
    `UPDATE conversations c SET latest_sms = m.body, latest_time = m.created_at, sim_id = m.sim_id,
            gateway_id = m.gateway_id, port = m.port
       FROM (SELECT DISTINCT ON (conversation_id) conversation_id, body, created_at, sim_id, gateway_id, port
               FROM messages ORDER BY conversation_id, id DESC) m
      WHERE m.conversation_id = c.id`,
    `UPDATE conversations c SET last_reply_at = r.at, unread_count = r.unread,
            latest_sms = CASE WHEN r.at > c.latest_time THEN r.body ELSE c.latest_sms END,
            latest_time = greatest(c.latest_time, r.at)
       FROM (SELECT DISTINCT ON (conversation_id) conversation_id, received_at AS at, body,
                    count(*) FILTER (WHERE NOT is_read) OVER (PARTITION BY conversation_id) AS unread
               FROM conversation_replies ORDER BY conversation_id, received_at DESC) r
      WHERE r.conversation_id = c.id`,
  ]);
  await step(
    'unmatched incoming SMS',
    `INSERT INTO incoming_sms (id, gateway_id, port, iccid, sender, recipient, body, is_report, device_ts, received_at,
                               dedupe_key, matched)
     SELECT md5('un' || k)::uuid, ${gw('slot')}, ${portOf('slot')}, '8901' || lpad(slot::text, 15, '0'),
            (ARRAY['PROMO', 'BANK', '+15550001111', 'Carrier', 'INFO'])[1 + k % 5], '1' || (3100000000 + slot),
            CASE WHEN k % 10 = 0 THEN 'Delivery report: delivered' ELSE 'Special offer ' || k || ': 20 % off this weekend.' END,
            k % 10 = 0, extract(epoch FROM at)::bigint, at, 'bench:un:' || k, false
       FROM (SELECT k, ${hsh('k * 11 + 5')} % ${SIMS} AS slot, ${span(`k::float8 / greatest(1, n)`)} AS at
               FROM (SELECT ${S.incomingSms} - (SELECT count(*) FROM incoming_sms) AS n) c,
                    generate_series(0, greatest(0, n - 1)) k
              WHERE n > 0) x`,
  );
  await step(
    'audit log',
    `INSERT INTO audit_log (at, actor_id, actor_name, kind, target_id, target_label, before, after)
     SELECT ${span(`a::float8 / ${S.audit}`)}, NULL, (ARRAY['admin', 'ops1', 'ops2', 'ops3'])[1 + a % 4], kind,
            CASE WHEN kind LIKE 'service.%' THEN md5('v' || (1 + t % ${NSV}))::text
                 WHEN kind LIKE 'gateway.%' THEN md5('g' || (1 + t % ${S.gateways}))::text
                 WHEN kind = 'settings.update' THEN NULL
                 ELSE ${uid(`1 + t % ${S.users}`)}::text END,
            CASE WHEN kind LIKE 'service.%' THEN 'Service ' || lpad((1 + t % ${NSV})::text, 3, '0')
                 WHEN kind LIKE 'gateway.%' THEN 'gw-' || lpad((1 + t % ${S.gateways})::text, 3, '0')
                 WHEN kind = 'settings.update' THEN 'Settings'
                 WHEN t % ${S.users} = 0 THEN 'heavy' ELSE 'user' || (1 + t % ${S.users}) END,
            jsonb_build_object('value', t % 100), jsonb_build_object('value', t % 100 + 1)
       FROM (SELECT a, ${hsh('a * 13 + 1')} AS t,
                    (ARRAY['user.update', 'user.update', 'user.balance', 'user.balance', 'user.deactivate',
                           'service.update', 'service.update', 'service.numberSpent', 'gateway.simLock',
                           'gateway.simUnlock', 'gateway.simNumber', 'gateway.simRole', 'gateway.update',
                           'settings.update', 'apikey.create', 'apikey.reset', 'user.create'])[1 + ${hsh('a * 13 + 2')} % 17] AS kind
               FROM generate_series(0, ${S.audit - 1}) a) x`,
  );
  // One sample per gateway and minute over 90 days, as the sampler writes them: the hourly uptime of
  // all of them, and the samples themselves for the last 48 hours (UPTIME_SAMPLES_RETENTION_HOURS).
  const uptimeOnline = `${hsh('extract(epoch FROM m)::bigint / 60 + g.n * 1000003')} % 1000 < 990`;
  const uptimeMinutes = (from: string) =>
    `FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM gateways) g,
          generate_series(date_trunc('minute', ${t0}) - interval '${from}', date_trunc('minute', ${t0}),
                          interval '1 minute') m`;
  await step('gateway uptime', [
    `INSERT INTO gateway_uptime_hourly (gateway_id, hour, samples, online)
     SELECT g.id, date_trunc('hour', m, 'UTC'), count(*), count(*) FILTER (WHERE ${uptimeOnline})
       ${uptimeMinutes('90 days')} GROUP BY 1, 2`,
    `INSERT INTO gateway_uptime (gateway_id, minute, online)
     SELECT g.id, m, ${uptimeOnline} ${uptimeMinutes('48 hours')}`,
  ]);

  // Money: each user's first entry is an admin credit covering every charge to come (so no balance
  // is ever negative), then the ledger in time order (ids in time order, as the product writes them)
  // with the balance after each entry.
  await step('ledger (adjustments, balances after)', [
    `INSERT INTO bench_ledger_stage
     SELECT u.id, coalesce(-s.debit, 0) + 10 + round((hashtext(u.id::text) & 2147483647) % 9000 / 100.0, 2),
            'admin_adjustment', NULL, least(u.created_at, s.first - interval '1 minute')
       FROM users u LEFT JOIN (SELECT user_id, sum(amount) FILTER (WHERE amount < 0) AS debit, min(created_at) AS first
                                 FROM bench_ledger_stage GROUP BY 1) s ON s.user_id = u.id`,
    `INSERT INTO ledger (user_id, amount, kind, ref, created_at, balance_after)
     SELECT user_id, amount, kind, ref, created_at,
            sum(amount) OVER (PARTITION BY user_id ORDER BY created_at, seq ROWS UNBOUNDED PRECEDING)
       FROM (SELECT *, row_number() OVER () AS seq FROM bench_ledger_stage) s
      ORDER BY created_at, seq`,
    'DROP TABLE bench_ledger_stage',
    `UPDATE users u SET balance = s.total FROM (SELECT user_id, sum(amount) AS total FROM ledger GROUP BY 1) s
      WHERE s.user_id = u.id`,
  ]);
  await step('identity sequences', [
    ...[
      'orders',
      'order_codes',
      'campaigns',
      'conversations',
      'messages',
      'conversation_replies',
      'ledger',
      'audit_log',
    ].map((t) => `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT max(id) FROM ${t}))`),
  ]);
  await db.query('SET session_replication_role = origin');
  await step(
    'create the indexes again',
    indexes.map((i) => i.def),
  );

  // The checks: every balance is its ledger's sum and its last balance_after; no row points nowhere.
  const checks: [string, string][] = [
    [
      'balances that differ from their ledger',
      `SELECT count(*) AS n FROM users u LEFT JOIN (SELECT user_id, sum(amount) AS t FROM ledger GROUP BY 1) s
          ON s.user_id = u.id WHERE u.balance <> coalesce(s.t, 0)`,
    ],
    [
      'balances that differ from their last balance_after',
      `SELECT count(*) AS n FROM users u JOIN (SELECT DISTINCT ON (user_id) user_id, balance_after FROM ledger
          ORDER BY user_id, id DESC) l ON l.user_id = u.id WHERE u.balance <> l.balance_after`,
    ],
    ['negative balances', 'SELECT count(*) AS n FROM users WHERE balance < 0'],
    [
      'orders of no user',
      'SELECT count(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id)',
    ],
    [
      'messages of no conversation',
      'SELECT count(*) AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = m.conversation_id)',
    ],
    [
      'conversations of no user',
      'SELECT count(*) AS n FROM conversations c WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)',
    ],
    [
      'ledger rows of no user',
      'SELECT count(*) AS n FROM ledger l WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = l.user_id)',
    ],
  ];
  for (const [name, sql] of checks) {
    const n = Number((await db.query<{ n: string }>(sql)).rows[0]!.n);
    if (n !== 0) throw new Error(`seed check failed: ${n} ${name}`);
  }
  console.log('checks: every balance equals its ledger; no orphan rows');
  await step('VACUUM ANALYZE', 'VACUUM ANALYZE');

  const counts = (
    await db.query<{ t: string; n: string }>(
      `SELECT relname AS t, n_live_tup::text AS n FROM pg_stat_user_tables WHERE n_live_tup > 0 ORDER BY n_live_tup DESC`,
    )
  ).rows;
  const size = (
    await db.query<{ s: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS s')
  ).rows[0]!.s;
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const meta: Record<string, string> = {
    scale: String(SCALE),
    seeded_at: T0,
    seed_seconds: seconds,
    database_size: size,
    sizes: JSON.stringify(S),
    steps: JSON.stringify(timings.map(([n, ms]) => [n, Math.round(ms)])),
  };
  for (const [k, v] of Object.entries(meta)) {
    await db.query(`INSERT INTO ${SEED_TABLE} (key, value) VALUES ($1, $2)`, [k, v]);
  }
  await db.end();
  console.log('\n| table | rows (live-row estimate after VACUUM ANALYZE) |\n| --- | --- |');
  for (const c of counts) console.log(`| ${c.t} | ${Number(c.n).toLocaleString('en')} |`);
  console.log(`\nseeded ${DB_NAME} at SCALE=${SCALE} in ${seconds} s; database size ${size}`);
}

await main();
