// Real server processes for fault tests: `node --import tsx src/main.ts` on a port of its own,
// waited for until /readyz answers, with its output kept, stopped with a chosen signal.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = join(SERVER_DIR, 'src/main.ts');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  pid: number;
  port: number;
  url: string;
  /** stdout and stderr lines, in order (JSON log lines and the banner). */
  logs: string[];
  /** Settles when the process has exited. */
  exited: Promise<Exit>;
  /** Sends the signal and waits for the exit (SIGKILL if it is still running after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<Exit>;
  /** Resolves with the first log line matching, waiting up to `timeoutMs`. */
  waitForLog(match: RegExp, timeoutMs?: number): Promise<string>;
}

/** A TCP port nothing listens on right now (for a server that must come back on the same port). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const address = srv.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface ProcessOptions {
  /** The PostgreSQL database the process uses (processes share one database). */
  databaseUrl: string;
  /** Default: a free port. */
  port?: number;
  /** More settings (they override the defaults below). */
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

export const PROCESS_ADMIN_PASSWORD = 'admin-password-1';
export const PROCESS_APP_SECRET = 'test-secret-test-secret-test-secret-0123';

/** Starts `src/main.ts` in a child process and resolves once it answers /readyz with 200. */
export async function startServerProcess(opts: ProcessOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'simdock-proc-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: opts.databaseUrl,
      APP_SECRET: PROCESS_APP_SECRET,
      ADMIN_PASSWORD: PROCESS_ADMIN_PASSWORD,
      DEMO: 'false',
      PAYMENT_PROVIDER: 'sandbox',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      // The tests register many users from one address.
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
      // Each server process takes a free GoIP port (tests run in parallel).
      GOIP_UDP_PORT: '0',
      // And a free SMPP port.
      SMPP_PORT: '0',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const watchers = new Set<(line: string) => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        for (const w of watchers) w(line);
      }
    });
  }
  const exited = new Promise<Exit>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
  let gone: Exit | undefined;
  void exited.then((e) => {
    gone = e;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const waitForLog = (match: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((done, fail) => {
      const hit = logs.find((l) => match.test(l));
      if (hit !== undefined) return done(hit);
      const timer = setTimeout(() => {
        watchers.delete(watch);
        fail(new Error(`no log line matching ${match} within ${timeoutMs} ms`));
      }, timeoutMs);
      const watch = (line: string) => {
        if (!match.test(line)) return;
        clearTimeout(timer);
        watchers.delete(watch);
        done(line);
      };
      watchers.add(watch);
    });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<Exit> => {
    if (gone) return gone;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (gone) {
      throw new Error(`server process exited (${JSON.stringify(gone)}) before ready:\n${logs.join('\n')}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`server process not ready within the time:\n${logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pid: child.pid!, port, url, logs, exited, stop, waitForLog };
}
