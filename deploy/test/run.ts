// npm run test:deploy — runs the deploy kit for real on this machine, without a Docker engine or a
// registry (docs/operations.md, "How the kit is tested"):
//   1. base images made locally (build-bases.sh: mmdebstrap + this machine's Node.js; PostgreSQL and
//      Caddy from Debian, behaving like the official images), cached by a safe key;
//   2. the image built from deploy/Containerfile with buildah (docker format), checked: non-root, no
//      dev dependencies, labels, healthcheck, size budget, refuses to start without APP_SECRET;
//   2b. with TEST_DATABASE_URL: deploy/systemd/simdock-update installs a release (the image's /app),
//       then rolls back one whose migration fails (systemctl played by a script);
//   3. a database made by the previous release (a fixed older commit, run with plain node) with users,
//      balances, orders and messages, upgraded in place by the compose stack (2 replicas + PostgreSQL +
//      Caddy with TLS) started by podman-compose; every balance still equals its ledger;
//   4. through the proxy: /readyz, an admin signs in, a user is created, topped up in the sandbox and
//      rents a number from a simulated gateway on the host reached from the containers;
//   5. one replica killed: requests still succeed;
//   6. the backup profile dumps and keeps the last N; a dump restored into an empty database serves the
//      same data;
//   7. a migration that fails leaves the database as it was and the running release serving;
//   8. the stack taken down and up again: the data is there.
// Ports: 127.0.0.1:18080 (HTTP), 18443 (HTTPS), 18090–18091 (single containers), 18095 (the update
// script's release). DEPLOY_TEST_ONLY=update stops after the update script; KEEP_STACK=1 leaves the
// stack up. Needs root, podman, buildah, podman-compose, mmdebstrap (.ci/run installs them).
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewaySim } from '@simdock/gateway-sim';
import { Agent, fetch as undiciFetch } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const COMPOSE_FILE = join(ROOT, 'deploy/compose/compose.yaml');
const PROJECT = 'simdock-deploytest';
const NETWORK = `${PROJECT}_default`;
/** The previous release the upgrade starts from: the last commit before migration 024. */
const PREVIOUS_RELEASE = '019a129';
/** What the image may add to its base (the app, its production dependencies, the built web app). */
const APP_LAYERS_BUDGET_MB = 150;
/** The whole image on the locally made base (Debian minbase + Node.js; the official slim one is smaller). */
const IMAGE_BUDGET_MB = 450;
const HTTPS = 'https://localhost:18443';
const ADMIN = { username: 'admin', password: 'deploy-admin-password-1' };
const POSTGRES_PASSWORD = 'deploytestpw0123456789';
const APP_SECRET = 'deploy-test-secret-0123456789-abcdefghijklmnop';

const started = Date.now();
const timings: [string, number][] = [];
const work = mkdtempSync(join(tmpdir(), 'simdock-deploy-'));
const cleanups: (() => void | Promise<void>)[] = [];

// ---- small helpers -------------------------------------------------------------------------------

function run(cmd: string, args: string[], opts: SpawnSyncOptions & { allowFail?: boolean } = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  const out = String(r.stdout ?? '');
  const err = String(r.stderr ?? '');
  if (r.status !== 0 && !opts.allowFail) {
    throw new Error(`${cmd} ${args.join(' ')} → exit ${r.status}\n${out.slice(-4000)}\n${err.slice(-4000)}`);
  }
  return { status: r.status ?? -1, out, err };
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function step(name: string, fn: () => Promise<void> | void) {
  const t = Date.now();
  process.stdout.write(`▸ ${name}\n`);
  await fn();
  const s = (Date.now() - t) / 1000;
  timings.push([name, s]);
  process.stdout.write(`  ✓ ${s.toFixed(1)} s\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(500);
  }
}

/** Compose with this test's environment (the operator's .env, here as variables). */
let composeEnv: NodeJS.ProcessEnv = {};
function compose(...args: string[]) {
  return run('podman-compose', ['-p', PROJECT, '-f', COMPOSE_FILE, ...args], {
    env: { ...process.env, ...composeEnv },
    cwd: dirname(COMPOSE_FILE),
  });
}

/** SQL in the database container, as the owner (psql over the container's socket). */
function sql(query: string, db = 'simdock'): string {
  return run('podman', [
    'exec',
    `${PROJECT}_db_1`,
    'psql',
    '-U',
    'simdock',
    '-d',
    db,
    '-v',
    'ON_ERROR_STOP=1',
    '-tAc',
    query,
  ]).out.trim();
}

type Json = Record<string, unknown>;
let tls: Agent;

/** JSON over HTTP(S); TLS trusts only the test's own certificate. */
async function api(base: string, path: string, body?: unknown, token?: string, method = 'POST') {
  const res = await undiciFetch(base + path, {
    method: body === undefined && method === 'POST' ? 'GET' : method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    dispatcher: base.startsWith('https:') ? tls : undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an HTML page or an empty body
  }
  return { status: res.status, body: parsed as Json, headers: res.headers };
}

async function ok(base: string, path: string, body: unknown, token?: string): Promise<Json> {
  const r = await api(base, path, body, token);
  if (r.status !== 200) throw new Error(`${path} → ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
  return r.body;
}

const signIn = async (base: string, who: { username: string; password: string }) =>
  (await ok(base, '/api/Auth/login', who)).token as string;

/** What a user sees of their account: balance, orders, messages (compared across upgrade and restore). */
async function accountView(base: string, who: { username: string; password: string }) {
  const token = await signIn(base, who);
  const info = await ok(base, '/api/user/info', {}, token);
  const orders = (await ok(base, '/api/Order/getbyuser', {}, token)).orders as Json[];
  const ledger = await api(base, '/api/v1/ledger?limit=100', undefined, token, 'GET');
  return {
    balance: info.balance,
    orders: orders.map((o) => ({ id: o.id, phoneNumber: o.phoneNumber, status: o.status })),
    ledgerStatus: ledger.status,
  };
}

/** Both replicas answer their image's HEALTHCHECK (node asking /readyz inside the container). */
async function bothReplicasHealthy() {
  for (const n of [1, 2]) {
    await until(
      `replica ${n} healthy`,
      async () =>
        run('podman', ['healthcheck', 'run', `${PROJECT}_simdock_${n}`], { allowFail: true }).status === 0,
      180_000,
    );
  }
}

/** Every balance equals the sum of its ledger. */
function ledgerMismatches(db = 'simdock'): string {
  return sql(
    `SELECT coalesce(string_agg(u.username || ':' || u.balance, ','), '') FROM users u
       WHERE u.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.user_id = u.id)`,
    db,
  );
}

// ---- the run -------------------------------------------------------------------------------------

let nodeBase = '';
let servicesBase = '';
let image = '';
const version = run('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).out.trim();
const revision = run('git', ['-C', ROOT, 'rev-parse', 'HEAD']).out.trim();

async function main() {
  await step('base images (mmdebstrap, cached by key)', () => {
    const lines = run(join(ROOT, 'deploy/test/build-bases.sh'), []).out.trim().split('\n');
    [nodeBase, servicesBase] = lines.slice(-2) as [string, string];
    check(nodeBase && servicesBase, 'build-bases.sh printed two images');
  });

  image = `localhost/simdock:${version}`;
  await step(`image ${image} (buildah, docker format)`, () => {
    run(
      'buildah',
      [
        'bud',
        '--format',
        'docker',
        '--layers',
        '-f',
        'deploy/Containerfile',
        '--build-arg',
        `NODE_IMAGE=${nodeBase}`,
        '--build-arg',
        `VERSION=${version}`,
        '--build-arg',
        `REVISION=${revision}`,
        '-t',
        image,
        '.',
      ],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
  });

  await step('image: non-root, tini, healthcheck, labels, no dev dependencies, size budget', () => {
    const [info] = JSON.parse(run('podman', ['image', 'inspect', image]).out) as Json[];
    const cfg = (info as { Config: Json }).Config;
    check(cfg.User === '10001:10001', `runs as 10001, not ${String(cfg.User)}`);
    check(JSON.stringify(cfg.Entrypoint) === '["/usr/bin/tini","--"]', 'tini is PID 1');
    check((cfg.Cmd as string[])[0] === 'node', 'CMD starts node itself');
    const labels = (info as { Labels: Record<string, string> }).Labels;
    check(labels['org.opencontainers.image.version'] === version, 'version label');
    const health = JSON.parse(
      run('podman', ['image', 'inspect', '--format', '{{json .HealthCheck}}', image]).out,
    );
    check(JSON.stringify(health?.Test ?? '').includes('/readyz'), 'HEALTHCHECK kept (docker format)');
    // One container for the checks inside the image (each start costs seconds on a loaded machine).
    const inside = run('podman', [
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      image,
      '-c',
      `node -e "const fs=require('fs');process.stdout.write(JSON.stringify({uid:process.getuid(),dev:
        ['vitest','typescript','vite','@biomejs/biome','playwright-core','jsdom','smtp-server','mailparser',
         'dependency-cruiser','@simdock/web','@simdock/payment-sim','fast-check','react']
        .filter(p=>fs.existsSync('node_modules/'+p))}))"; echo; command -v npm || echo no-npm; cat /app/VERSION`,
    ])
      .out.trim()
      .split('\n');
    const facts = JSON.parse(inside[0]!) as { uid: number; dev: string[] };
    check(facts.uid === 10001, `uid 10001 at run time, not ${facts.uid}`);
    check(facts.dev.length === 0, `no dev dependencies in the image, found ${facts.dev.join(' ')}`);
    check(inside[1] === 'no-npm', 'npm is not in the image');
    check(inside[2] === `${version} ${revision}`, `/app/VERSION names the release (${inside[2]})`);
    const size = (name: string) =>
      Number(run('podman', ['image', 'inspect', '--format', '{{.Size}}', name]).out.trim()) / 1e6;
    const total = size(image);
    const app = total - size(nodeBase);
    console.log(`  size: ${total.toFixed(0)} MB in all, ${app.toFixed(0)} MB over the base`);
    check(app <= APP_LAYERS_BUDGET_MB, `app layers ${app.toFixed(0)} MB ≤ ${APP_LAYERS_BUDGET_MB} MB`);
    check(total <= IMAGE_BUDGET_MB, `image ${total.toFixed(0)} MB ≤ ${IMAGE_BUDGET_MB} MB`);
    const noSecret = run('podman', ['run', '--rm', '-e', 'NODE_ENV=production', image], { allowFail: true });
    check(noSecret.status === 1, `refuses to start without APP_SECRET (exit ${noSecret.status})`);
    check(noSecret.err.includes('APP_SECRET: is required when NODE_ENV=production'), 'says why');
  });

  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    await step(
      'systemd update script: installs a release; a failing one is rolled back to the old',
      async () => {
        await updateScript(pgUrl);
      },
    );
  } else {
    console.log('  (TEST_DATABASE_URL unset: the update script is not run)');
  }
  if (process.env.DEPLOY_TEST_ONLY === 'update') return;

  // The operator's certificate (TLS_MODE=files): self-signed for localhost, trusted by this test only.
  const certs = join(work, 'certs');
  mkdirSync(certs);
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    join(certs, 'privkey.pem'),
    '-out',
    join(certs, 'fullchain.pem'),
  ]);
  run('chmod', ['644', join(certs, 'privkey.pem')]);
  tls = new Agent({ connect: { ca: readFileSync(join(certs, 'fullchain.pem')) } });

  composeEnv = {
    SIMDOCK_IMAGE: image,
    POSTGRES_IMAGE: servicesBase,
    CADDY_IMAGE: servicesBase,
    APP_SECRET,
    POSTGRES_PASSWORD,
    SITE_ADDRESS: 'localhost',
    PUBLIC_URL: HTTPS,
    TLS_MODE: 'files',
    TLS_CERT_DIR: certs,
    BIND_ADDRESS: '127.0.0.1',
    HTTP_PORT: '18080',
    HTTPS_PORT: '18443',
    ADMIN_PASSWORD: ADMIN.password,
    // The sandbox top-up never runs in production: the test stack runs in development mode, on
    // PostgreSQL (no demo), with the production image otherwise unchanged.
    NODE_ENV: 'development',
    PAYMENT_PROVIDER: 'sandbox',
    CANCEL_MIN_SECONDS: '0',
    BACKUP_KEEP: '2',
    BACKUP_INTERVAL_SECONDS: '2',
  };
  // The operator's .env: compose's variables and the replicas' settings (env_file).
  const envFile = join(work, 'test.env');
  writeFileSync(
    envFile,
    `${Object.entries(composeEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  composeEnv.SIMDOCK_ENV_FILE = envFile;
  cleanups.push(() => {
    compose('down', '-t', '5');
    run('podman', ['rm', '-f', '-t', '2', `${PROJECT}_old`, `${PROJECT}_restored`], { allowFail: true });
    for (const v of ['pgdata', 'caddy-data', 'caddy-config', 'backups', 'demo-data']) {
      run('podman', ['volume', 'rm', '-f', `${PROJECT}_${v}`], { allowFail: true });
    }
    run('podman', ['network', 'rm', '-f', NETWORK], { allowFail: true });
  });
  // A previous run that was interrupted.
  await cleanups[0]!();

  await step('compose: the database (pg_isready healthy, no port on the host)', async () => {
    compose('up', '-d', 'db');
    await until(
      'db healthy',
      async () => run('podman', ['healthcheck', 'run', `${PROJECT}_db_1`], { allowFail: true }).status === 0,
    );
    const ports = run('podman', ['port', `${PROJECT}_db_1`], { allowFail: true }).out.trim();
    check(ports === '', `the database publishes no port (${ports})`);
  });

  // The simulated gateway on the host, on the compose network's gateway address only.
  const net = JSON.parse(run('podman', ['network', 'inspect', NETWORK]).out) as Json[];
  const hostIp = ((net[0] as { subnets: { gateway: string }[] }).subnets[0] as { gateway: string }).gateway;
  const sim = await GatewaySim.start({ ports: 6, host: hostIp, sendDelayMs: 5 });
  cleanups.push(() => sim.stop());
  const oldUser = { username: 'olduser1', password: 'old-user-password-1' };
  const oldBase = 'http://127.0.0.1:18090';

  await step(`previous release ${PREVIOUS_RELEASE} (plain node) makes the data`, async () => {
    const tree = join(work, 'old');
    mkdirSync(tree);
    run('sh', ['-c', `git -C "${ROOT}" archive ${PREVIOUS_RELEASE} | tar -x -C "${tree}"`]);
    mkdirSync(join(tree, 'node_modules')); // where this checkout's packages are mounted
    run('podman', [
      'run',
      '-d',
      '--name',
      `${PROJECT}_old`,
      '--network',
      NETWORK,
      '-p',
      '127.0.0.1:18090:3000',
      '-v',
      `${tree}:/app:ro`,
      '-v',
      `${join(ROOT, 'node_modules')}:/app/node_modules:ro`,
      '-w',
      '/app',
      '-e',
      `DATABASE_URL=postgres://simdock:${POSTGRES_PASSWORD}@db:5432/simdock`,
      '-e',
      `APP_SECRET=${APP_SECRET}`,
      '-e',
      `ADMIN_PASSWORD=${ADMIN.password}`,
      '-e',
      'NODE_ENV=development',
      '-e',
      'DEMO=false',
      '-e',
      'PAYMENT_PROVIDER=sandbox',
      '-e',
      `PUBLIC_URL=${oldBase}`,
      '-e',
      'CANCEL_MIN_SECONDS=0',
      '-e',
      'SMS_DISPATCH_INTERVAL_MS=200',
      nodeBase,
      'node',
      '--import',
      'tsx',
      'apps/server/src/main.ts',
    ]);
    await until('old release ready', async () => (await api(oldBase, '/readyz')).status === 200, 120_000);
    const admin = await signIn(oldBase, ADMIN);
    await ok(
      oldBase,
      '/api/service/update',
      { name: 'Telegram', code: 'tg', price: 0.5, stock: 100, rentTimeMinutes: 20, textContains: 'Telegram' },
      admin,
    );
    const gw = await ok(
      oldBase,
      '/api/Admin/updateGateway',
      {
        gateway: {
          name: 'Rack',
          url: `http://${hostIp}:${new URL(sim.url).port}`,
          mac: sim.mac,
          userName: 'root',
          password: 'root',
        },
      },
      admin,
    );
    await ok(oldBase, '/api/Admin/gatewayScan', { id: gw.id }, admin);
    await sim.pushesSettled();
    await ok(oldBase, '/api/Admin/updateSettings', { MaxBatchSendSms: 100, MaxMsgPerDay: 1000 }, admin);
    await ok(oldBase, '/api/Auth/register', {
      username: oldUser.username,
      email: 'old@example.com',
      passwordHash: oldUser.password,
    });
    const token = await signIn(oldBase, oldUser);
    await topUp(oldBase, token, 12.5);
    const order = (await ok(oldBase, '/api/Order/create', { serviceCode: 'tg' }, token)).data as Json;
    check(typeof order.phoneNumber === 'string', 'the old release rented a number');
    const sent = await ok(
      oldBase,
      '/api/MassOutreach/sendMassSMS',
      { number: '17005550001\n17005550002', mess: 'Before the upgrade' },
      token,
    );
    const campaignId = (sent.data as Json).campaignId;
    await until(
      'the old release dispatched the messages',
      async () => {
        const p = (await ok(oldBase, '/api/MassOutreach/campaign', { campaignId }, token)).data as Json;
        return p.finished === true;
      },
      60_000,
    );
    check(ledgerMismatches() === '', 'balances equal ledgers before the upgrade');
    check(
      sql("SELECT count(*) FROM schema_migrations WHERE name LIKE '024_%'") === '0',
      'the old schema lacks 024',
    );
    run('podman', ['stop', '-t', '20', `${PROJECT}_old`]);
  });
  const before = await (async () => {
    // read straight from the database: the old release is stopped
    return {
      balance: sql(`SELECT balance FROM users WHERE username = '${oldUser.username}'`),
      orders: sql(
        `SELECT count(*) FROM orders o JOIN users u ON u.id = o.user_id WHERE u.username = '${oldUser.username}'`,
      ),
      messages: sql(
        `SELECT count(*) FROM messages m JOIN users u ON u.id = m.user_id WHERE u.username = '${oldUser.username}'`,
      ),
    };
  })();

  await step(
    'upgrade in place: the new image starts ×2 behind Caddy, migrates, /readyz through the proxy',
    async () => {
      compose('up', '-d', 'simdock', 'proxy');
      await bothReplicasHealthy();
      await until(
        '/readyz through the proxy',
        async () => (await api(HTTPS, '/readyz')).status === 200,
        60_000,
      );
      check(
        sql("SELECT count(*) FROM schema_migrations WHERE name LIKE '024_%'") === '1',
        'migration 024 applied',
      );
      check(ledgerMismatches() === '', 'every balance still equals its ledger');
      const view = await accountView(HTTPS, oldUser);
      check(
        String(view.balance) === String(Number(before.balance)),
        `balance kept (${view.balance} vs ${before.balance})`,
      );
      check(String(view.orders.length) === before.orders, 'orders kept');
      const http = await api('http://localhost:18080', '/api/meta');
      check(http.status === 308 || http.status === 301, `plain HTTP redirects to HTTPS (${http.status})`);
    },
  );

  const newUser = { username: 'newuser1', password: 'new-user-password-1' };
  await step(
    'through the proxy: admin signs in, a user is created, tops up in the sandbox, rents a number',
    async () => {
      const admin = await signIn(HTTPS, ADMIN);
      await ok(
        HTTPS,
        '/api/Admin/gatewayScan',
        { id: sql("SELECT id FROM gateways WHERE name = 'Rack'") },
        admin,
      );
      await ok(HTTPS, '/api/Auth/register', {
        username: newUser.username,
        email: 'new@example.com',
        passwordHash: newUser.password,
      });
      const token = await signIn(HTTPS, newUser);
      await topUp(HTTPS, token, 20);
      const info = await ok(HTTPS, '/api/user/info', {}, token);
      check(Number(info.balance) === 20, `topped up (${info.balance})`);
      const order = (await ok(HTTPS, '/api/Order/create', { serviceCode: 'tg' }, token)).data as Json;
      check(typeof order.phoneNumber === 'string', 'rented a number');
      check(ledgerMismatches() === '', 'balances equal ledgers');
    },
  );

  await step('one replica killed: requests still succeed', async () => {
    run('podman', ['kill', `${PROJECT}_simdock_1`]);
    const token = await signIn(HTTPS, newUser);
    for (let i = 0; i < 20; i++) {
      const r = await api(HTTPS, '/api/user/info', {}, token);
      check(r.status === 200, `request ${i} answered ${r.status} with one replica down`);
    }
    run('podman', ['start', `${PROJECT}_simdock_1`]);
    await bothReplicasHealthy();
  });

  await step(
    'backup profile: scheduled pg_dump keeps the last 2; a restore into an empty database serves the same data',
    async () => {
      compose('up', '-d', 'backup');
      await until(
        'three backups made, two kept',
        async () => {
          const logs = run('podman', ['logs', `${PROJECT}_backup_1`]).out;
          return (logs.match(/^backup: /gm) ?? []).length >= 3;
        },
        60_000,
      );
      const files = run('podman', ['exec', `${PROJECT}_backup_1`, 'sh', '-c', 'ls /backups'])
        .out.trim()
        .split('\n');
      check(
        files.length === 2 && files.every((f) => /^simdock-\d{8}T\d{6}Z\.dump$/.test(f)),
        `kept ${files.join(' ')}`,
      );
      const latest = files.sort().at(-1)!;
      run('podman', ['exec', `${PROJECT}_backup_1`, 'createdb', 'simdock_restored']);
      run('podman', [
        'exec',
        `${PROJECT}_backup_1`,
        'pg_restore',
        '--no-owner',
        '-d',
        'simdock_restored',
        `/backups/${latest}`,
      ]);
      compose('stop', 'backup');
      const restoredBase = 'http://127.0.0.1:18091';
      run('podman', [
        'run',
        '-d',
        '--name',
        `${PROJECT}_restored`,
        '--network',
        NETWORK,
        '-p',
        '127.0.0.1:18091:3000',
        '--read-only',
        '--tmpfs',
        '/tmp',
        '-e',
        `DATABASE_URL=postgres://simdock:${POSTGRES_PASSWORD}@db:5432/simdock_restored`,
        '-e',
        `APP_SECRET=${APP_SECRET}`,
        '-e',
        'NODE_ENV=development',
        '-e',
        'PAYMENT_PROVIDER=sandbox',
        image,
      ]);
      await until(
        'restored server ready',
        async () => (await api(restoredBase, '/readyz')).status === 200,
        120_000,
      );
      for (const who of [oldUser, newUser]) {
        const a = await accountView(HTTPS, who);
        const b = await accountView(restoredBase, who);
        check(
          JSON.stringify(a) === JSON.stringify(b),
          `${who.username} the same after restore: ${JSON.stringify(b)}`,
        );
      }
      check(ledgerMismatches('simdock_restored') === '', 'restored balances equal their ledgers');
      run('podman', ['rm', '-f', '-t', '5', `${PROJECT}_restored`]);
    },
  );

  await step('a migration that fails leaves the database as it was and the release serving', async () => {
    const broken = `${image}-broken-migration`;
    cleanups.push(() => void run('podman', ['rmi', '-f', broken], { allowFail: true }));
    const c = run('buildah', ['from', image]).out.trim();
    const file = join(work, '999_broken.sql');
    writeFileSync(file, 'CREATE TABLE deploy_test_partial (id int);\nSELECT 1 / 0;\n');
    run('buildah', ['copy', c, file, '/app/apps/server/src/db/migrations/999_broken.sql']);
    run('buildah', ['commit', '--quiet', '--format', 'docker', '--rm', c, broken]);
    const fingerprint = () =>
      sql(`SELECT (SELECT string_agg(name, ',' ORDER BY name) FROM schema_migrations) || '|' ||
                  (SELECT count(*) FROM ledger) || '|' || (SELECT sum(balance) FROM users) || '|' ||
                  (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public')`);
    const was = fingerprint();
    const migrate = run(
      'podman',
      [
        'run',
        '--rm',
        '--network',
        NETWORK,
        '--read-only',
        '--tmpfs',
        '/tmp',
        '-e',
        `DATABASE_URL=postgres://simdock:${POSTGRES_PASSWORD}@db:5432/simdock`,
        '-e',
        `APP_SECRET=${APP_SECRET}`,
        broken,
        'node',
        '--import',
        'tsx',
        'apps/server/src/migrate.ts',
      ],
      { allowFail: true },
    );
    check(migrate.status !== 0, 'the failing migration exits non-zero');
    check(fingerprint() === was, 'the database is as it was');
    check(sql("SELECT to_regclass('deploy_test_partial') IS NULL") === 't', 'no half-applied table');
    check((await api(HTTPS, '/readyz')).status === 200, 'the release still serves /readyz');
    await accountView(HTTPS, newUser);
  });

  run('podman', ['rmi', `${image}-broken-migration`]);

  await step('stack down and up: the data is there', async () => {
    const a = await accountView(HTTPS, newUser);
    compose('down', '-t', '20');
    compose('up', '-d', 'db');
    await until(
      'db healthy',
      async () => run('podman', ['healthcheck', 'run', `${PROJECT}_db_1`], { allowFail: true }).status === 0,
    );
    compose('up', '-d', 'simdock', 'proxy');
    await bothReplicasHealthy();
    await until(
      '/readyz through the proxy',
      async () => (await api(HTTPS, '/readyz')).status === 200,
      60_000,
    );
    const b = await accountView(HTTPS, newUser);
    check(JSON.stringify(a) === JSON.stringify(b), 'same account after down/up');
  });
}

/**
 * deploy/systemd/simdock-update on this machine, with systemctl played by a small script that starts
 * and stops the release in /opt-like BASE/current: the image's /app as release archives (the good one,
 * and the one whose migration fails), a PostgreSQL database of the test server.
 */
async function updateScript(pgUrl: string) {
  const dbName = 'simdock_update_test';
  const admin = new URL(pgUrl);
  run('psql', [admin.href, '-qc', `DROP DATABASE IF EXISTS ${dbName}`]);
  run('psql', [admin.href, '-qc', `CREATE DATABASE ${dbName}`]);
  const dbUrl = new URL(pgUrl);
  dbUrl.pathname = `/${dbName}`;
  const base = join(work, 'opt');
  mkdirSync(join(base, 'releases'), { recursive: true });
  // One export of the image's /app: the release, and the same with a migration that fails.
  const tree = join(work, 'tree');
  mkdirSync(tree);
  const id = run('podman', ['create', image]).out.trim();
  run('sh', ['-c', `podman export ${id} | tar -x -C "${tree}" app && podman rm ${id} >/dev/null`]);
  const archive = (name: string) => {
    const file = join(work, `${name}.tar.gz`);
    run('sh', ['-c', `tar -c -C "${join(tree, 'app')}" . | gzip -1 > "${file}"`]);
    return file;
  };
  const good = archive(`simdock-${version}`);
  writeFileSync(
    join(tree, 'app/apps/server/src/db/migrations/999_broken.sql'),
    'CREATE TABLE deploy_test_partial (id int);\nSELECT 1 / 0;\n',
  );
  const broken = archive(`simdock-${version}-broken`);
  rmSync(tree, { recursive: true, force: true });
  const envFile = join(work, 'simdock.env');
  writeFileSync(
    envFile,
    [
      `DATABASE_URL=${dbUrl.href}`,
      `APP_SECRET=${APP_SECRET}`,
      `ADMIN_PASSWORD=${ADMIN.password}`,
      'NODE_ENV=development',
      'HOST=127.0.0.1',
      'PORT=18095',
      'DEMO=false',
      'LOG_FORMAT=json',
      `BACKUP_DIR=${join(work, 'backups')}`,
      '',
    ].join('\n'),
  );
  const fakeSystemctl = join(work, 'systemctl');
  writeFileSync(
    fakeSystemctl,
    `#!/bin/bash
# systemctl start|stop simdock.service for the test: the release in $SIMDOCK_BASE/current in the background.
set -eu
pidf=${join(work, 'simdock.pid')}
case $1 in
  start) (cd "$SIMDOCK_BASE/current" && set -a && . "$SIMDOCK_ENV_FILE" && set +a &&
          exec setsid node --import tsx apps/server/src/main.ts </dev/null >>${join(work, 'simdock.log')} 2>&1) &
         echo $! >"$pidf" ;;
  stop) if [ -s "$pidf" ]; then p=$(cat "$pidf"); kill "$p" 2>/dev/null || true
          while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; rm -f "$pidf"; fi ;;
esac
`,
    { mode: 0o755 },
  );
  const update = (archive: string) =>
    run(join(ROOT, 'deploy/systemd/simdock-update'), [archive], {
      allowFail: true,
      env: {
        ...process.env,
        SIMDOCK_BASE: base,
        SIMDOCK_ENV_FILE: envFile,
        SYSTEMCTL: fakeSystemctl,
        SIMDOCK_USER: run('id', ['-un']).out.trim(),
        READY_TIMEOUT: '90',
      },
    });
  const local = 'http://127.0.0.1:18095';
  const current = () => run('readlink', ['-f', join(base, 'current')]).out.trim();
  const fingerprint = () =>
    run('psql', [
      dbUrl.href,
      '-tAc',
      `SELECT (SELECT string_agg(name, ',' ORDER BY name) FROM schema_migrations) || '|' ||
              (SELECT count(*) FROM users) || '|' ||
              (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public')`,
    ]).out.trim();
  try {
    const first = update(good);
    check(first.status === 0, `the first install succeeds:\n${first.err.slice(-2000)}`);
    check(current().endsWith(`simdock-${version}`), 'current is the new release');
    check((await api(local, '/readyz')).status === 200, 'the release serves /readyz');
    await signIn(local, ADMIN);
    const was = fingerprint();
    const second = update(broken);
    check(second.status !== 0, 'the update with a failing migration fails');
    check(second.err.includes('the migration failed'), `says why:\n${second.err.slice(-2000)}`);
    check(second.err.includes('the old release serves again'), 'the old release is back');
    check(current().endsWith(`simdock-${version}`), 'current points at the old release again');
    check(fingerprint() === was, 'the database is as it was before the update');
    // (A first try may fail on this client's kept-alive connection to the process that was stopped.)
    const served = await until('the old release /readyz', async () => api(local, '/readyz'), 10_000).catch(
      () => ({ status: 0 }),
    );
    check(
      served.status === 200,
      `the old release serves /readyz (${served.status}):\n${second.err.slice(-3000)}\n${readFileSync(join(work, 'simdock.log'), 'utf8').slice(-3000)}`,
    );
    await signIn(local, ADMIN);
    const backups = run('sh', ['-c', `ls ${join(work, 'backups')}`])
      .out.trim()
      .split('\n');
    check(
      backups.length === 2 && backups.every((b) => b.endsWith('-pre-update.dump')),
      'a backup before each update',
    );
  } finally {
    run(fakeSystemctl, ['stop'], { allowFail: true, env: { ...process.env, SIMDOCK_BASE: base } });
    run('psql', [admin.href, '-qc', `DROP DATABASE IF EXISTS ${dbName}`], { allowFail: true });
  }
}

/** A sandbox top-up as the user does it: invoice, the sandbox page's "pay exactly", the redirect. */
async function topUp(base: string, token: string, amount: number) {
  const res = await ok(base, '/api/Payments/create', { amount }, token);
  const { url } = res.result as { url: string };
  const pay = await undiciFetch(new URL(url, base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'exact' }).toString(),
    redirect: 'manual',
    dispatcher: base.startsWith('https:') ? tls : undefined,
  });
  check(pay.status === 303, `sandbox payment answered ${pay.status}`);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  console.error(err instanceof Error ? err.message : err);
  for (const name of [
    `${PROJECT}_simdock_1`,
    `${PROJECT}_simdock_2`,
    `${PROJECT}_proxy_1`,
    `${PROJECT}_old`,
    `${PROJECT}_restored`,
  ]) {
    const logs = run('podman', ['logs', '--tail', '30', name], { allowFail: true });
    if (logs.status === 0) console.error(`--- ${name} ---\n${logs.out}${logs.err}`);
  }
} finally {
  if (!process.env.KEEP_STACK) for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  // Each commit's image is tagged once and never used again (its layers stay cached for the next
  // build): untagged, so a machine that runs this on every commit does not fill its disk.
  if (image && !process.env.KEEP_STACK) run('podman', ['rmi', image], { allowFail: true });
  rmSync(work, { recursive: true, force: true });
}
const total = (Date.now() - started) / 1000;
console.log(`\n${timings.map(([n, s]) => `${s.toFixed(1).padStart(6)} s  ${n}`).join('\n')}`);
console.log(`test:deploy ${failed ? 'FAILED' : 'passed'} in ${total.toFixed(0)} s`);
process.exit(failed ? 1 : 0);
