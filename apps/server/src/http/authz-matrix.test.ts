import { ADMIN_ROLE, API_KEY_SCOPES, allEndpoints, endpointMethods, type Role } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../modules/auth/index.ts';
import { seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import type { Access } from './route.ts';

// The authorization matrix, generated from the OpenAPI document the server publishes: every
// operation × every kind of caller → the status class its declared access promises. A new route
// is in the document (or the first test fails), so it is in the matrix without anyone adding it.

/**
 * API routes left out of the OpenAPI document on purpose, as "METHOD /path". Each needs a reason.
 * (None today: the sandbox payment page lives under /sandbox, outside the API.)
 */
const HIDDEN_ON_PURPOSE: string[] = [];

/**
 * Public routes that authenticate the request themselves, by a signature over the body rather than
 * a bearer token: they may refuse with 401, but whatever bearer a caller adds changes nothing.
 */
const SELF_AUTHENTICATED = new Set(['POST /api/Payments/ipn']);

type Caller =
  | 'no token'
  | 'expired token'
  | 'tampered signature'
  | 'tampered payload'
  | 'unsigned (alg none)'
  | 'User'
  | 'Staff'
  | 'SMS'
  | 'Admin9'
  | 'inactive user'
  | 'API key'
  | "inactive user's API key";

const ACTIVE_ROLES: Caller[] = ['User', 'Staff', 'SMS', 'Admin9'];
const NOT_SIGNED_IN: Caller[] = [
  'no token',
  'expired token',
  'tampered signature',
  'tampered payload',
  'unsigned (alg none)',
  'inactive user',
  "inactive user's API key",
];

interface Operation {
  method: string;
  /** The OpenAPI path, `{param}` style. */
  path: string;
  access: Access;
  /** A session alone is refused with 403 `reauth_required`: it needs a fresh re-authentication. */
  reauth: boolean;
  security: unknown;
}

let s: TestServer;
let gateway: { id: string; secret: string };
const creds = new Map<Caller, string | undefined>();
let doc: { paths: Record<string, Record<string, { security?: unknown }>> };

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const fromB64 = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

async function tokenVersion(id: string): Promise<number> {
  const [row] = await s.db.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [
    id,
  ]);
  return row!.token_version;
}

beforeAll(async () => {
  s = await startTestServer({ env: { API_RATE_LIMIT: '100000' } });
  const seeded = await seedGateway(s.db, { lastUpdate: s.clock.now() });
  gateway = { id: seeded.id, secret: 'secret' };

  const user = await s.createUser({ roles: ['User'] });
  creds.set('no token', undefined);
  creds.set('User', user.token);
  creds.set('Staff', (await s.createUser({ roles: ['Staff'] })).token);
  creds.set('SMS', (await s.createUser({ roles: ['SMS'] })).token);
  const admin = await s.adminToken();
  creds.set('Admin9', admin);

  // Signed with the server's own key, but by a clock a day and more in the past: expired.
  const ttlMs = (s.ctx.config.TOKEN_TTL_HOURS + 1) * 3600_000;
  const past = { ...s.ctx, clock: { now: () => new Date(s.clock.now().getTime() - ttlMs) } };
  creds.set(
    'expired token',
    await signToken(past, {
      id: user.id,
      username: user.username,
      roles: ['User'],
      tokenVersion: await tokenVersion(user.id),
    }),
  );

  // A valid token with its signature changed, and one whose payload claims the admin (same signature).
  const [head, payload, sig] = user.token.split('.') as [string, string, string];
  const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
  creds.set('tampered signature', `${head}.${payload}.${flipped}`);
  const [adminRow] = await s.db.query<{ id: string }>("SELECT id FROM users WHERE username = 'admin'");
  const claims = { ...fromB64(payload), sub: adminRow!.id, username: 'admin', role: ADMIN_ROLE };
  creds.set('tampered payload', `${head}.${b64(claims)}.${sig}`);
  creds.set('unsigned (alg none)', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`);

  // Deactivated by an admin; the token is signed afresh after, so only the status can refuse it.
  const gone = await s.createUser({ roles: ['User', 'Admin9'] });
  const goneKey = await s.post('/api/user/reset-key', {}, gone.token, await s.reauth(gone));
  expect(goneKey.status).toBe(200);
  const off = await s.post(
    '/api/Admin/updateUser',
    {
      user: {
        id: gone.id,
        username: gone.username,
        email: `${gone.username}@example.com`,
        roles: ['User', 'Admin9'],
        status: 'Inactive',
      },
    },
    admin,
  );
  expect(off.status).toBe(200);
  const roles: Role[] = ['User', 'Admin9'];
  creds.set(
    'inactive user',
    await signToken(s.ctx, {
      id: gone.id,
      username: gone.username,
      roles,
      tokenVersion: await tokenVersion(gone.id),
    }),
  );

  creds.set("inactive user's API key", goneKey.body.apiKey);

  // The API key belongs to a user of its own, so no session call in the matrix can reset it.
  const keyHolder = await s.createUser();
  keyHolderName = keyHolder.username;
  const key = await s.post('/api/user/reset-key', {}, keyHolder.token, await s.reauth(keyHolder));
  expect(key.status).toBe(200);
  creds.set('API key', key.body.apiKey);

  const res = await fetch(`${s.url}/swagger/json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as typeof doc;
});
afterAll(async () => {
  await s?.close();
});

/** SMSGate's API (`/3rdparty/…`) takes the key as Basic auth with its owner's username. */
let keyHolderName = '';
const isSmsGateDoor = (path: string) => path.startsWith('/3rdparty/');

/** The credential as the route reads it: a bearer, or Basic auth for SMSGate's API. */
function authHeader(path: string, cred: string | undefined): Record<string, string> {
  if (!cred) return {};
  return {
    authorization: isSmsGateDoor(path)
      ? `Basic ${Buffer.from(`${keyHolderName}:${cred}`).toString('base64')}`
      : `Bearer ${cred}`,
  };
}

const toOpenApi = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const declared = () => new Map(s.routes.map((r) => [`${r.method} ${toOpenApi(r.url)}`, r]));

function operations(): Operation[] {
  const byKey = declared();
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const route = byKey.get(`${method.toUpperCase()} ${path}`);
      if (!route) throw new Error(`${method.toUpperCase()} ${path} is documented but declares no access`);
      ops.push({
        method: method.toUpperCase(),
        path,
        access: route.access,
        reauth: route.reauth === true,
        security: op.security,
      });
    }
  }
  return ops;
}

/** A URL that matches the route: the seeded gateway and its push secret, or harmless values. */
function concrete(path: string): string {
  return path
    .replace('{id}/{secret}', `${gateway.id}/${gateway.secret}`)
    .replace('{fileName}', 'no-such-file.jpg')
    .replace(/\{(\w+)\}/g, '1');
}

interface Answer {
  status: number;
  text: string;
  setCookie: string | null;
  allowOrigin: string | null;
}

async function call(op: Operation, caller: Caller): Promise<Answer> {
  const cred = creds.get(caller);
  let url = s.url + concrete(op.path);
  const keyInParam = op.access === 'apikey' && op.path.startsWith('/stubs/');
  if (keyInParam) {
    const q = new URLSearchParams({ action: 'getBalance', ...(cred ? { api_key: cred } : {}) });
    url += `?${q}`;
  }
  const res = await fetch(url, {
    method: op.method,
    headers: {
      // Every call is cross-origin: CORS is closed, so no Access-Control-Allow-Origin may come back.
      origin: 'https://evil.example',
      ...(op.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...authHeader(op.path, cred),
    },
    body: op.method === 'POST' ? '{}' : undefined,
  });
  // The live stream never ends: its status and headers are all the matrix needs.
  const stream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const text = stream ? '' : await res.text();
  if (stream) await res.body?.cancel();
  return {
    status: res.status,
    text,
    setCookie: res.headers.get('set-cookie'),
    allowOrigin: res.headers.get('access-control-allow-origin'),
  };
}

const allowed = (status: number) => status !== 401 && status !== 403;

/** A refusal says why, in JSON, with an error code that matches its status. */
function refusalProblem(a: Answer): string | undefined {
  if (a.status !== 401 && a.status !== 403) return undefined;
  let body: { error?: unknown; msg?: unknown; message?: unknown; code?: unknown };
  try {
    body = JSON.parse(a.text);
  } catch {
    return `refused with a body that is not JSON: ${a.text.slice(0, 80)}`;
  }
  // SMSGate's API answers SMSGate's error body: {message, code}.
  if (typeof body.message === 'string' && body.message)
    return body.code === 'bad_input' ? 'refused as bad_input' : undefined;
  if (typeof body.msg !== 'string' || !body.msg) return 'refused without a message';
  if (body.error === 'bad_input') return `refused with ${a.status} but error "bad_input"`;
  return undefined;
}

/** What the declared access promises this caller; undefined when the caller is let in. */
function problem(op: Operation, caller: Caller, a: Answer): string | undefined {
  if (a.status >= 500) return `answered ${a.status}`;
  if (op.access === 'public') {
    return allowed(a.status) || SELF_AUTHENTICATED.has(`${op.method} ${op.path}`)
      ? undefined
      : `a public route answered ${a.status}`;
  }
  if (op.access === 'apikey' && op.path.startsWith('/stubs/')) {
    // The SMS-Activate protocol: HTTP 200 and a plain-text token; the key goes in `api_key`.
    const refused = ['NO_KEY', 'BAD_KEY', 'ACCOUNT_INACTIVE'].includes(a.text);
    if (caller === 'API key') return !refused && a.status === 200 ? undefined : `key refused: ${a.text}`;
    return refused ? undefined : `let in with ${a.status} ${a.text.slice(0, 80)}`;
  }
  if (op.access === 'apikey') {
    if (caller === 'API key') return allowed(a.status) ? undefined : `the key got ${a.status}`;
    return a.status === 401 ? undefined : `expected 401, got ${a.status}`;
  }
  if (NOT_SIGNED_IN.includes(caller) || caller === 'API key') {
    return a.status === 401 ? undefined : `expected 401, got ${a.status}`;
  }
  if (op.access === 'admin' && caller !== 'Admin9') {
    return a.status === 403 ? undefined : `expected 403, got ${a.status}`;
  }
  if (!ACTIVE_ROLES.includes(caller)) return `no expectation for ${caller}`;
  if (op.reauth) {
    // A session alone, however privileged, does not reach these: a fresh re-authentication does
    // (the next test).
    const error = (() => {
      try {
        return (JSON.parse(a.text) as { error?: string }).error;
      } catch {
        return undefined;
      }
    })();
    return a.status === 403 && error === 'reauth_required'
      ? undefined
      : `a session without re-authentication got ${a.status} ${a.text.slice(0, 80)}`;
  }
  return allowed(a.status) ? undefined : `an active ${caller} got ${a.status}`;
}

describe('the authorization matrix, from the OpenAPI document', () => {
  it('documents every API route, and documents no route the server does not have', () => {
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const registered = [...declared().keys()];
    const undocumented = registered.filter((k) => !documented.has(k) && !HIDDEN_ON_PURPOSE.includes(k));
    const phantom = [...documented].filter((k) => !declared().has(k));
    expect(undocumented).toEqual([]);
    expect(phantom).toEqual([]);
    expect(registered.length).toBeGreaterThan(60);
  });

  it('refuses each crafted token for the reason it stands for (so the matrix tests what it says)', async () => {
    const why = async (caller: Caller) =>
      (await s.post('/api/user/info', {}, creds.get(caller))).body as { error: string; msg: string };
    expect(await why('expired token')).toMatchObject({
      error: 'unauthorized',
      msg: expect.stringMatching(/expired/),
    });
    expect((await why('tampered signature')).msg).toMatch(/not valid/);
    expect((await why('tampered payload')).msg).toMatch(/not valid/);
    expect((await why('unsigned (alg none)')).msg).toMatch(/not valid/);
    // Signed right, with the current token version: only the Inactive status refuses it.
    expect((await why('inactive user')).msg).toMatch(/not available/);
    expect((await s.post('/api/user/info', {}, creds.get('User'))).status).toBe(200);
  });

  it('marks each documented operation with the security scheme of its declared access', () => {
    const wrong: string[] = [];
    for (const op of operations()) {
      const want =
        op.access === 'public'
          ? undefined
          : op.access === 'apikey'
            ? [
                {
                  [op.path.startsWith('/stubs/')
                    ? 'apiKeyParam'
                    : isSmsGateDoor(op.path)
                      ? 'apiKeyBasic'
                      : 'apiKey']: [],
                },
              ]
            : [{ bearer: [] }];
      if (JSON.stringify(op.security) !== JSON.stringify(want)) {
        wrong.push(`${op.method} ${op.path} (${op.access}): ${JSON.stringify(op.security)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('gives every caller of every operation what its access promises, sets no cookie, allows no other origin', async () => {
    const ops = operations();
    const kinds = new Set(ops.map((o) => o.access));
    expect(kinds).toEqual(new Set(['public', 'user', 'admin', 'apikey']));
    const failures: string[] = [];
    for (const op of ops) {
      // The callers of one operation go together (they are independent), the operations in turn.
      const callers = [...creds.keys()];
      const answers = new Map<Caller, Answer>(
        await Promise.all(callers.map(async (c) => [c, await call(op, c)] as const)),
      );
      for (const [caller, a] of answers) {
        const why = problem(op, caller, a) ?? refusalProblem(a);
        if (why) failures.push(`${op.method} ${op.path} [${op.access}] as ${caller}: ${why}`);
        if (a.setCookie) failures.push(`${op.method} ${op.path} as ${caller}: set-cookie ${a.setCookie}`);
        if (a.allowOrigin)
          failures.push(`${op.method} ${op.path} as ${caller}: allow-origin ${a.allowOrigin}`);
      }
      if (op.access === 'public') {
        // A public route ignores whatever bearer comes along: the same answer for everyone.
        const statuses = new Set([...answers.values()].map((a) => a.status));
        if (statuses.size !== 1) {
          failures.push(
            `${op.method} ${op.path} [public] depends on the caller: ${[...answers].map(([c, a]) => `${c}=${a.status}`).join(', ')}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('gives a key each apikey operation exactly when it holds the declared scope; every write needs a write scope', async () => {
    const declarations = allEndpoints().filter((e) => e.access === 'apikey');
    const failures: string[] = [];
    // Reading is `messaging:read`; anything that changes state (a send, a rental, a webhook) needs
    // `rental` or `messaging:send`, so a read-only key can never act.
    for (const e of declarations) {
      for (const method of endpointMethods(e)) {
        if (!e.scope) failures.push(`${method} ${e.path} declares no scope`);
        else if (method !== 'GET' && e.scope === 'messaging:read' && !e.path.startsWith('/stubs/'))
          failures.push(`${method} ${e.path} writes with the read scope`);
      }
    }
    const holder = await s.createUser();
    const proof = await s.reauth(holder);
    const keyOf = new Map<string, string>();
    for (const scope of API_KEY_SCOPES) {
      const made = await s.post(
        '/api/user/apikeys/create',
        { name: `only ${scope}`, scopes: [scope] },
        holder.token,
        proof,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      keyOf.set(scope, made.body.apiKey);
    }
    for (const e of declarations) {
      const path = toOpenApi(e.path);
      for (const method of endpointMethods(e).filter((m) => m !== 'HEAD')) {
        for (const scope of API_KEY_SCOPES) {
          const key = keyOf.get(scope)!;
          let url = s.url + concrete(path);
          if (path.startsWith('/stubs/'))
            url += `?${new URLSearchParams({ action: 'getBalance', api_key: key })}`;
          const res = await fetch(url, {
            method,
            headers: {
              ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
              ...(path.startsWith('/stubs/')
                ? {}
                : {
                    authorization: isSmsGateDoor(path)
                      ? `Basic ${Buffer.from(`${holder.username}:${key}`).toString('base64')}`
                      : `Bearer ${key}`,
                  }),
            },
            body: method === 'POST' ? '{}' : undefined,
          });
          const text = await res.text();
          const refused = path.startsWith('/stubs/')
            ? text === 'BAD_KEY'
            : // SMSGate's error body has no code: its message names the scope.
              res.status === 403 && /api_key_scope_missing|does not have the [\w:]+ scope/.test(text);
          if (refused !== (scope !== e.scope))
            failures.push(
              `${method} ${path} (${e.scope}) with a ${scope} key: ${res.status} ${text.slice(0, 80)}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a fresh re-authentication through each guarded operation, for its own user only', async () => {
    const guarded = operations().filter((o) => o.reauth);
    expect(guarded.map((o) => o.path).sort()).toEqual(
      [
        '/api/user/apikeys/create',
        '/api/user/apikeys/smppPassword',
        '/api/user/reset-key',
        '/api/user/secondFactor/confirm',
        '/api/user/secondFactor/disable',
        '/api/user/secondFactor/recoveryCodes',
        '/api/user/secondFactor/start',
        '/api/user/webhooks/add',
        '/api/user/webhooks/events',
      ].sort(),
    );
    const owner = await s.createUser();
    const other = await s.createUser();
    const proof = await s.reauth(owner);
    const failures: string[] = [];
    for (const op of guarded) {
      const send = (token: string) =>
        fetch(s.url + concrete(op.path), {
          method: op.method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...proof },
          body: '{}',
        }).then(async (r) => ({ status: r.status, text: await r.text() }));
      const fresh = await send(owner.token);
      if (!allowed(fresh.status) || fresh.status >= 500)
        failures.push(
          `${op.method} ${op.path} with a fresh re-authentication: ${fresh.status} ${fresh.text}`,
        );
      // Another user's proof is no proof.
      const borrowed = await send(other.token);
      if (borrowed.status !== 403)
        failures.push(`${op.method} ${op.path} with another user's proof: ${borrowed.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('guards the HEAD twin of every GET route like the GET', async () => {
    const failures: string[] = [];
    for (const op of operations().filter((o) => o.method === 'GET' && o.access !== 'public')) {
      for (const caller of ['no token', 'User', 'API key'] as Caller[]) {
        const cred = creds.get(caller);
        // A HEAD that never answers (a stream held open for nobody) fails here, not as a timeout.
        const res = await fetch(s.url + concrete(op.path), {
          method: 'HEAD',
          headers: authHeader(op.path, cred),
          signal: AbortSignal.timeout(10_000),
        }).catch((err: Error) => err);
        if (res instanceof Error) {
          failures.push(`HEAD ${op.path} as ${caller}: ${res.message}`);
          continue;
        }
        await res.arrayBuffer();
        const head: Answer = { status: res.status, text: '', setCookie: null, allowOrigin: null };
        const get = await call(op, caller);
        if (head.status !== get.status)
          failures.push(`HEAD ${op.path} as ${caller}: ${head.status}, GET ${get.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers no cross-origin preflight with CORS headers', async () => {
    const failures: string[] = [];
    for (const op of operations()) {
      const res = await fetch(s.url + concrete(op.path), {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': op.method,
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      await res.arrayBuffer();
      const cors: string[] = [];
      res.headers.forEach((_v, h) => {
        if (h.startsWith('access-control-')) cors.push(h);
      });
      if (cors.length) failures.push(`OPTIONS ${op.path}: ${cors.join(', ')}`);
      if (res.status >= 500) failures.push(`OPTIONS ${op.path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});
