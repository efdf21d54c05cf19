import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestJson } from '@simdock/server/testing';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node's arguments for a server process exactly as `npm run serve` starts it (the script in the root
 * package.json, node flags included), with the entry point made absolute; the benchmarks measure
 * that process. `extraNodeFlags` go after the script's own flags, so they can override them.
 */
export function serveArgs(extraNodeFlags: readonly string[] = []): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const [node, ...args] = scripts.serve!.split(/\s+/);
  if (node !== 'node' || !args.at(-1)?.endsWith('.ts'))
    throw new Error(`npm run serve does not start node on a script: ${scripts.serve}`);
  return [...args.slice(0, -1), ...extraNodeFlags, join(ROOT, args.at(-1)!)];
}

// biome-ignore lint/suspicious/noExplicitAny: the benches read API JSON loosely
export type Json = Record<string, any>;

/** POSTs JSON to `base` and returns the parsed body; a non-2xx answer stops the bench with it. */
export function jsonPoster(base: string) {
  return async (path: string, body: unknown, token?: string): Promise<Json> => {
    const res = await requestJson<Json>(base, 'POST', path, body, token);
    if (res.status < 200 || res.status >= 300)
      throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
}

/**
 * The environment of a benchmark's server on PostgreSQL: a development server without the demo,
 * logging warnings only, and with the limits that would refuse the benchmark's own setup turned off.
 */
export function benchServerEnv(port: number, databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: 'bench-admin-pass',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret!!',
    NODE_ENV: 'development',
    DEMO: 'false',
    LOG_LEVEL: 'warn',
    LOGIN_MAX_FAILURES_PER_IP: '1000',
    // The benchmarks register their users from one address.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
    // Several bench processes may run on one machine: each takes a free SMPP port.
    SMPP_PORT: '0',
  };
}

/**
 * Starts a reference server script of `bench/` (it prints `listening <port>` once it accepts
 * connections) and resolves with the process and its port.
 */
export function startReference(
  script: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; port: number }> {
  return startListening(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', script)], env);
}

/**
 * Starts a server program that prints `listening <port>` once it accepts connections, and resolves
 * with the process and its port; rejects if it exits first.
 */
export async function startListening(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('error', reject);
    child.once('exit', () => reject(new Error(`${[command, ...args].join(' ')} exited at start`)));
  });
  return { child, port };
}

/**
 * A throw-away database on the PostgreSQL server at `adminUrl` (BENCH_DATABASE_URL): its URL, and
 * `drop`, which removes it (KEEP_DB=1 keeps it to look at) and closes the admin connection.
 */
export async function benchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `simdock_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (process.env.KEEP_DB) console.log(`kept database ${name} (KEEP_DB)`);
      else
        await admin
          .query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
          .catch((err) => console.error(`could not drop ${name}: ${err.message}`));
      await admin.end();
    },
  };
}

/**
 * Registers `count` users (bench0, bench1, …) through the API, signs each in, and gives each 100 USD
 * through the ledger, as every balance change goes. Resolves with their tokens, in order.
 */
export async function benchUsers(
  post: ReturnType<typeof jsonPoster>,
  databaseUrl: string,
  count: number,
): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const username = `bench${i}`;
    await post('/api/Auth/register', {
      username,
      email: `${username}@bench.local`,
      passwordHash: 'bench-password',
    });
    tokens.push((await post('/api/Auth/login', { username, password: 'bench-password' })).token);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `WITH u AS (UPDATE users SET balance = balance + 100 WHERE username LIKE 'bench%' RETURNING id)
       INSERT INTO ledger (user_id, amount, kind, created_at) SELECT id, 100, 'admin_adjustment', now() FROM u`,
    );
  } finally {
    await db.end();
  }
  return tokens;
}
