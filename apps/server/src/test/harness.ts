import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type EndpointBody,
  type EndpointDeclaration,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResult,
  endpointMethods,
  endpointPath,
  endpoints,
  REAUTH_HEADER,
} from '@simdock/contract';
import pg from 'pg';
import { ManualClock } from '../clock.ts';
import { type Db, openPostgres } from '../db/db.ts';
import { credit } from '../modules/billing/index.ts';
import { hashPassword } from '../modules/users/index.ts';
import { type RunningServer, startServer } from '../server.ts';
import { type Config, loadConfig } from '../settings.ts';
import { type ApiResult, requestJson } from './request.ts';
import { forgetPgTemplate, openPgliteFromTemplate, pgTemplate } from './template.ts';

export type { ApiResult } from './request.ts';

/** Which database this test run uses: set per vitest project (see vitest.config.ts). */
export const TEST_DB = process.env.TEST_DB === 'pg' ? 'pg' : 'pglite';

export interface TestDb {
  db: Db;
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own: in PGlite, or a new database on the PostgreSQL server. Empty by
 * default (no tables, as on a first start); with `migrated`, every migration already applied, as the
 * server would leave it (copied from a template built once per migration set: see template.ts).
 */
export async function openTestDb(opts: { migrated?: boolean } = {}): Promise<TestDb> {
  const migrated = opts.migrated ?? false;
  if (TEST_DB === 'pglite') return openPgliteFromTemplate(migrated);
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for TEST_DB=pg');
  const name = `simdock_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (!migrated) {
      await admin.query(`CREATE DATABASE ${name}`);
    } else {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await pgTemplate(adminUrl)}`);
      } catch (err) {
        // 3D000: the template was dropped meanwhile (a run on another migration set replaced it).
        if ((err as { code?: string }).code !== '3D000') throw err;
        forgetPgTemplate(adminUrl);
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await pgTemplate(adminUrl)}`);
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 20);
  return {
    db,
    url: url.toString(),
    async drop() {
      // A test may have closed the pool on purpose already.
      await db.close().catch(() => {});
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    // Each test server holds a GoIP port of its own (tests run in parallel).
    GOIP_UDP_PORT: '0',
    GOIP_UDP_HOST: '127.0.0.1',
    // And an SMPP port of its own.
    SMPP_PORT: '0',
    SMPP_HOST: '127.0.0.1',
    // Request lines are at debug (failed and slow ones at info): the tests read them all, to check
    // that no secret reaches any line.
    LOG_LEVEL: 'debug',
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    ADMIN_PASSWORD: 'admin-password-1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'simdock-test-')),
    DEMO: 'false',
    // Suites register many accounts from one address; the registration limits' own tests set them.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '0',
    // Suites seed gateways and services with SQL and move the clock by seconds, then read the
    // catalogue at once; the catalogue's own tests (modules/rental/availability.test.ts) set these.
    CATALOGUE_CACHE_SECONDS: '0',
    CATALOGUE_RATE_LIMIT_PER_MINUTE: '0',
    CATALOGUE_REFUSAL_DELAY_MS: '0',
    ...env,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field and assert each one.
export type Loose = Record<string, any>;

/**
 * What a test reads from `s.api(endpoint, …)`: the declaration's successful answer, widened so the
 * same variable also reads an error body (`code`, `msg`, `error`…) after a 4xx. Typed only, never
 * parsed: a test sees exactly what the server sent, wrong shapes included.
 */
export type ApiBody<E extends EndpointDeclaration> = [EndpointResult<E>] extends [undefined]
  ? Loose
  : EndpointResult<E> & Loose;

/** How a test calls one endpoint declaration (`s.api(endpoints.order.create, { body, token })`). */
export interface ApiCall<E extends EndpointDeclaration> {
  /** The body, typed from the declaration. POST, PUT and PATCH send `{}` when it is left out, as `post` does. */
  body?: EndpointBody<E>;
  /**
   * A body sent as it is, not held to the declaration's type: for tests of the server's own
   * input checks (a wrong type, a missing field, an unknown one).
   */
  rawBody?: unknown;
  /** The path's `:name` parameters (filled in and URI-encoded by `endpointPath`). */
  params?: [EndpointParams<E>] extends [undefined] ? Record<string, string | number> : EndpointParams<E>;
  /** The query string, by name; values as a client sends them (strings, or numbers and booleans). */
  query?: [EndpointQuery<E>] extends [undefined]
    ? Record<string, string | number | boolean>
    : { [K in keyof EndpointQuery<E>]?: string | number | boolean };
  token?: string;
  headers?: Record<string, string>;
  /** For declarations that take several methods (the first is the default). */
  method?: string;
}

export interface TestServer extends RunningServer {
  db: Db;
  clock: ManualClock;
  logs: string[];
  call<T = Loose>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<ApiResult<T>>;
  post<T = Loose>(
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<ApiResult<T>>;
  /**
   * Calls an endpoint through its contract declaration: path, method, params and query come from it,
   * the body and the answer are typed from it. Raw `call`/`post` stay for tests of the paths
   * themselves (routing, 404s, fuzzing, aliases, device URLs).
   */
  api<E extends EndpointDeclaration>(endpoint: E, opts?: ApiCall<E>): Promise<ApiResult<ApiBody<E>>>;
  /**
   * Re-authenticates a signed-in user (`POST /api/Auth/reauth`: the password, and `code` when the
   * second factor is on) and answers the header the guarded calls need:
   * `s.api(endpoints.apikey.reset, { token: user.token, headers: await s.reauth(user) })`.
   */
  reauth(user: { token: string; password: string }, code?: string): Promise<Record<string, string>>;
  createUser(opts?: { username?: string; password?: string; roles?: string[]; balance?: number }): Promise<{
    id: string;
    username: string;
    password: string;
    token: string;
  }>;
  login(username: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

let userSeq = 0;

/**
 * Boots the real server on a fresh database (migrated already, unless `testDb` is given), on a
 * random port, with a controllable clock.
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; workers?: boolean; testDb?: TestDb } = {},
): Promise<TestServer> {
  const testDb = opts.testDb ?? (await openTestDb({ migrated: true }));
  const clock = new ManualClock();
  const logs: string[] = [];
  const config = testConfig(opts.env);
  const server = await startServer({
    config: { ...config, PUBLIC_URL: 'http://127.0.0.1:0' },
    db: testDb.db,
    clock,
    workers: opts.workers ?? false,
    logStream: { write: (line) => void logs.push(line) },
  });
  // Push URLs must point at the real port, known only once listening.
  server.ctx.config.PUBLIC_URL = server.url;

  const call = <T>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ) => requestJson<T>(server.url, method, path, body, token, headers);

  async function login(username: string, password: string) {
    const res = await call<{ token: string }>(
      ...apiRequest(endpoints.auth.login, { body: { username, password } }),
    );
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  }

  return {
    ...server,
    db: testDb.db,
    clock,
    logs,
    call,
    post: (path, body, token, headers) => call('POST', path, body ?? {}, token, headers),
    api: (endpoint, o = {}) => call(...apiRequest(endpoint, o)),
    async reauth(user, code) {
      const res = await call<{ reauth: string }>(
        ...apiRequest(endpoints.secondFactor.reauth, {
          body: { password: user.password, ...(code ? { code } : {}) },
          token: user.token,
        }),
      );
      if (res.status !== 200) throw new Error(`reauth failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { [REAUTH_HEADER]: res.body.reauth };
    },
    login,
    adminToken: () => login('admin', 'admin-password-1'),
    async createUser(o = {}) {
      userSeq += 1;
      const username = o.username ?? `user${process.pid % 1000}x${userSeq}`;
      const password = o.password ?? 'password-123';
      const rows = await testDb.db.query<{ id: string }>(
        `INSERT INTO users (username, email, password_hash, roles) VALUES ($1, $2, $3, $4) RETURNING id`,
        [username, `${username}@example.com`, await hashPassword(password), o.roles ?? ['User']],
      );
      const id = rows[0]!.id;
      if (o.balance) {
        const amount = o.balance;
        await testDb.db.tx((q) =>
          credit(q, { userId: id, amount, kind: 'topup', ref: null, at: clock.now() }),
        );
      }
      return { id, username, password, token: await login(username, password) };
    },
    async close() {
      await server.stop();
      await testDb.drop();
    },
  };
}

/** The arguments of `call` for one `api` call: method, path (params and query filled in), body, token, headers. */
function apiRequest<E extends EndpointDeclaration>(
  endpoint: E,
  o: ApiCall<E>,
): [string, string, unknown, string | undefined, Record<string, string> | undefined] {
  const method = o.method ?? endpointMethods(endpoint)[0]!;
  let path = endpointPath(endpoint, o.params ?? undefined);
  if (o.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(o.query)) if (v !== undefined) qs.set(k, String(v));
    if (qs.size) path += `?${qs}`;
  }
  const hasBody = 'rawBody' in o || o.body !== undefined;
  const body = hasBody
    ? 'rawBody' in o
      ? o.rawBody
      : o.body
    : ['POST', 'PUT', 'PATCH'].includes(method)
      ? {}
      : undefined;
  return [method, path, body, o.token, o.headers];
}
