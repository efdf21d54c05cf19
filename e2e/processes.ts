import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Db, openPostgres } from '@simdock/server';

/**
 * Several REAL server processes on one PostgreSQL, behind a small round-robin proxy: what a
 * production deployment with a reverse proxy and several processes looks like
 * (docs/architecture.md#several-processes).
 *
 *   const db = await createDatabase(process.env.TEST_DATABASE_URL!);
 *   const proxy = await startProxy({ route: (m, path) => (path === '/api/Order/stream' ? 0 : undefined) });
 *   const [a, b] = await Promise.all([spawnServer({ name: 'A', env }), spawnServer({ name: 'B', env })]);
 *   proxy.setBackends([a.url, b.url]);
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface TestDatabase {
  url: string;
  /** A pool on the new database, for the test's own checks. */
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, empty database on the PostgreSQL server of `adminUrl`. */
export async function createDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `simdock_mp_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(adminUrl, 1);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 4);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.close().catch(() => {});
      const c = await openPostgres(adminUrl, 1);
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.close();
      }
    },
  };
}

/** A port nobody listens on right now (the server process gets it through PORT). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface ServerProcess {
  name: string;
  /** http://127.0.0.1:<port>, the process itself (not the proxy). */
  url: string;
  child: ChildProcess;
  /** Its stdout and stderr lines (JSON logs and the banner), for checks and for debugging. */
  logs: string[];
  /** Log lines parsed as JSON (the others skipped). */
  jsonLogs(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `node --import tsx apps/server/src/main.ts` as its own process with `env` (on top of PATH
 * and HOME only, so nothing of the test runner's environment leaks in) and waits until it answers.
 */
export async function spawnServer(opts: {
  name: string;
  env: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), `simdock-mp-${opts.name}-`)),
      // Each server process takes a free GoIP port (tests run in parallel).
      GOIP_UDP_PORT: '0',
      // And a free SMPP port (every process listens).
      SMPP_PORT: '0',
      ...opts.env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) logs.push(line);
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  const proc: ServerProcess = {
    name: opts.name,
    url,
    child,
    logs,
    jsonLogs() {
      const out: Record<string, unknown>[] = [];
      for (const line of logs) {
        if (!line.startsWith('{')) continue;
        try {
          out.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a log record
        }
      }
      return out;
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const until = Date.now() + (opts.readyTimeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server ${opts.name} exited with ${child.exitCode}:\n${logs.slice(-30).join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/api/meta`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await proc.stop(1000);
      throw new Error(`server ${opts.name} did not answer in time:\n${logs.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface ProxyLogEntry {
  method: string;
  path: string;
  /** Index of the backend that served it. */
  backend: number;
  status?: number;
}

export interface RoundRobinProxy {
  url: string;
  /** Every forwarded request, in arrival order. */
  log: ProxyLogEntry[];
  setBackends(urls: string[]): void;
  close(): Promise<void>;
}

// Hop-by-hop headers belong to one connection; Node frames the body of each side itself.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function endToEnd(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/**
 * A reverse proxy in front of the server processes: each request goes to the next backend in turn
 * (not each connection: a browser's keep-alive connection still alternates), unless `route` names
 * one. Responses are streamed as they come, so server-sent events pass through at once.
 */
export async function startProxy(
  opts: { route?: (method: string, path: string) => number | undefined } = {},
): Promise<RoundRobinProxy> {
  let backends: URL[] = [];
  let next = 0;
  const log: ProxyLogEntry[] = [];
  const open = new Set<import('node:net').Socket>();

  const server: Server = createServer((req, res) => {
    if (backends.length === 0) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend yet');
      return;
    }
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const pinned = opts.route?.(method, new URL(path, 'http://x').pathname);
    const index = pinned ?? next++ % backends.length;
    const target = backends[index]!;
    const entry: ProxyLogEntry = { method, path, backend: index };
    log.push(entry);
    const headers = endToEnd(req.headers);
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers },
      (up) => {
        entry.status = up.statusCode;
        res.writeHead(up.statusCode ?? 502, endToEnd(up.headers));
        // Headers at once: a stream's first bytes may come much later.
        res.flushHeaders();
        up.pipe(res);
        up.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    // The browser going away (an aborted stream) must reach the server as a closed request.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setBackends(urls) {
      backends = urls.map((u) => new URL(u));
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
