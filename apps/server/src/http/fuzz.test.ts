import { allEndpoints, REAUTH_HEADER } from '@simdock/contract';
import { assertProperty } from '@simdock/contract/property-seeds';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches, seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { GIF, JPEG, PNG } from '../test/media.ts';
import { MAX_URL_LENGTH } from './framework-errors.ts';

// Property: whatever a client sends to the public and user routes — wrong types, missing and
// extra fields, huge strings, control characters and NUL, lone surrogates, `__proto__` keys,
// injection strings, absurd numbers — the answer is never a 500 and no balance moves.

let s: TestServer;
let user: { id: string; username: string; password: string; token: string };
let adminToken: string;
let apiKey: string;
/** A fresh re-authentication of `user`: the guarded calls are fuzzed past it, not stopped by it. */
let reauth: Record<string, string>;
/** Paths of the calls that need a fresh re-authentication (contract `reauth`). */
const GUARDED = new Set(
  allEndpoints()
    .filter((e) => e.reauth)
    .map((e) => e.path),
);
const RUNS = 120;
/** Seeds that found a failure once; the property that found them runs them on every run. */
const FOUND_SEEDS = [798834478];

beforeAll(async () => {
  // Limits high enough that the fuzzer reaches the password checks instead of the 429s.
  s = await startTestServer({
    env: {
      LOGIN_MAX_FAILURES_PER_IP: '100000',
      LOGIN_MAX_FAILURES_PER_USER_IP: '100000',
      API_RATE_LIMIT: '100000',
      // Webhook URLs the fuzzer might make up are never fetched: private targets are refused.
      WEBHOOK_ALLOW_PRIVATE: 'false',
    },
  });
  user = await s.createUser({ balance: 25 });
  reauth = await s.reauth(user);
  apiKey = (await s.post('/api/user/reset-key', {}, user.token, reauth)).body.apiKey;
  const admin = await s.adminToken();
  adminToken = admin;
  // Sending limits, so a fuzzed send reaches the rules and the store (no SIM: nothing leaves).
  expect(
    (await s.post('/api/Admin/updateSettings', { MaxBatchSendSms: 50, MaxMsgPerDay: 100000 }, admin)).status,
  ).toBe(200);
  // A real service, so "fuzz" reaches the rental path (no SIM: it can never charge).
  expect((await s.post('/api/service/update', { name: 'Fuzz', code: 'fuzz', price: 1 }, admin)).status).toBe(
    200,
  );
});
afterAll(async () => {
  await s.close();
});

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  maxLength: 5,
});
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  loneSurrogates,
  fc.string({ maxLength: 10 }).map((t) => `${t}\u0000${t}`),
  fc.nat(4000).map((n) => 'a'.repeat(n)),
  fc.nat(300).map((n) => `a@${'.'.repeat(n * 10)}@`),
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    "' OR '1'='1' --",
    "'; DROP TABLE users; --",
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00',
    '0x10',
    '1e308',
    '-1',
    'NaN',
    'fuzz',
    'admin',
    '9223372036854775808',
    '99999999999999999999999',
  ),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e12, 1e308, -1e308, 2 ** 31, 2 ** 63, Number.MAX_SAFE_INTEGER, -0),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nasty },
  { weight: 2, arbitrary: number },
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(nasty, nasty, { maxKeys: 3 }),
);

/** A JSON body as raw text: the route's own keys (each maybe missing), extras, `__proto__`, or no object at all. */
function body(keys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : nasty },
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'balance', 'roles'),
    nasty,
  );
  const object = fc
    .array(fc.tuple(key, value), { maxLength: keys.length + 3 })
    .map(
      (entries) =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`,
    );
  // Right keys, string values: gets past the types to the rules and the database.
  const wellTyped = fc.record(Object.fromEntries(keys.map((k) => [k, nasty]))).map((o) => JSON.stringify(o));
  const other = value.map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof({ weight: 4, arbitrary: object }, { weight: 4, arbitrary: wellTyped }, other);
}

const tokens = (own = () => user.token) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(own()) },
    fc.constant(undefined),
    nasty.map((t) => t.replace(/[^\x21-\x7e]/g, '')),
    fc.constant(`${user.token.slice(0, -3)}abc`),
  );

async function send(
  path: string,
  raw: string,
  token: string | undefined,
  method = 'POST',
  headers: Record<string, string> = token === user.token && GUARDED.has(path) ? reauth : {},
) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: method === 'GET' ? undefined : raw,
  });
  const text = await res.text();
  return { status: res.status, text };
}

async function money() {
  const [u] = await s.db.query<{ balance: string }>(
    'SELECT balance::text AS balance FROM users WHERE id = $1',
    [user.id],
  );
  const [l] = await s.db.query<{ total: string; n: number }>(
    'SELECT coalesce(sum(amount), 0)::text AS total, count(*)::int AS n FROM ledger',
  );
  return { balance: u!.balance, ledger: l!.total, rows: l!.n };
}

const routes: [string, string[], boolean][] = [
  ['/api/Auth/register', ['username', 'email', 'passwordHash'], false],
  ['/api/Auth/login', ['username', 'password'], false],
  // Account recovery: public, limited per address (a 429 is an answer too, never a 500).
  ['/api/Auth/forgot', ['login'], false],
  ['/api/Auth/resetCheck', ['token'], false],
  ['/api/Auth/reset', ['token', 'password'], false],
  ['/api/user/info', [], true],
  ['/api/user/changepass', ['oldPass', 'newPass'], true],
  ['/api/Order/create', ['serviceCode'], true],
  ['/api/Order/cancel', ['orderId'], true],
  ['/api/Order/getbyuser', [], true],
  ['/api/Service/getall', [], false],
  ['/api/MassOutreach/getSettings', [], true],
  ['/api/MassOutreach/sendMassSMS', ['number', 'mess'], true],
  ['/api/MassOutreach/campaign', ['campaignId'], true],
  ['/api/MassOutreach/cancel', ['campaignId'], true],
  ['/api/MassOutreach/querymsg', ['current', 'size', 'params'], true],
  ['/api/MassOutreach/dailyStats', ['strTime', 'endTime'], true],
  ['/api/MassOutreach/exportmsg', ['params'], true],
  ['/api/livechat/queryConversation', ['filter'], true],
  ['/api/livechat/unreadCount', [], true],
  ['/api/user/balanceHistory', ['page', 'pageSize'], true],
  ['/api/livechat/queryConversationDetail', ['conversationId'], true],
  ['/api/livechat/updateConversation', ['conversationId', 'contactName', 'note'], true],
  [
    '/api/LiveChat/reply',
    ['conversationId', 'sms', 'toNumber', 'simNo', 'mmsType', 'mmsTitle', 'mmsFile'],
    true,
  ],
  ['/api/LiveChat/mmsUpload', [], true],
  ['/api/user/apikey', [], true],
  ['/api/user/webhooks', [], true],
  ['/api/user/webhooks/add', ['url'], true],
  ['/api/user/webhooks/events', ['id', 'events'], true],
  ['/api/user/apikeys/create', ['name', 'scopes', 'allowedIps', 'expiresAt'], true],
  ['/api/user/secondFactor/disable', ['code'], true],
  ['/api/user/secondFactor/recoveryCodes', ['code'], true],
  ['/api/Auth/reauth', ['password', 'code'], true],
  ['/api/user/webhooks/delete', ['id'], true],
  ['/api/user/webhooks/test', ['id'], true],
  ['/api/user/webhooks/deliveries', [], true],
  ['/api/Payments/create', ['amount'], true],
  // The providers' webhook: public, verified on the raw body (forged or malformed → 4xx).
  ['/api/Payments/ipn', ['payment_id', 'invoice_id', 'order_id', 'payment_status', 'actually_paid'], false],
];

/** The rental API for programs, with the API key as bearer. */
const keyRoutes: [string, string[]][] = [
  ['/api/v1/orders', ['service', 'maxPrice']],
  ['/api/v1/orders/1/cancel', []],
  ['/api/v1/orders/abc/finish', []],
  ['/api/v1/orders/99999999999999999999/another-sms', []],
];

// The admin reads (lists, filters, figures) get the same treatment with an admin token. Admin
// writes are left out here: a generated body may legitimately create a user with a balance.
const adminReads: [string, string[]][] = [
  ['/api/Admin/getUser', ['search', 'sort', 'dir', 'page', 'pageSize']],
  ['/api/Admin/audit', ['actor', 'kind', 'from', 'to', 'page', 'pageSize']],
  ['/api/Admin/overview', []],
  ['/api/Admin/deviceStats', ['mac']],
  ['/api/Admin/gatewayReport', ['id']],
  ['/api/Admin/getOutreachSettings', []],
  ['/api/MassOutreach/querymsg', ['current', 'size', 'params']],
];

describe('fuzzing the public and user routes', () => {
  let before: Awaited<ReturnType<typeof money>>;
  beforeAll(async () => {
    before = await money();
  });

  it.each(routes)('%s never answers 500', async (path, keys, withToken) => {
    await assertProperty(
      fc.asyncProperty(body(keys), withToken ? tokens() : fc.constant(undefined), async (raw, token) => {
        const logged = s.logs.length;
        const res = await send(path, raw, token);
        if (res.status >= 500)
          throw new Error(`${path} answered ${res.status} to ${raw.slice(0, 300)}: ${res.text}`);
        // The 400 safety net for database data errors must not be what saved us: the contract refuses first.
        const net = s.logs.slice(logged).find((l) => l.includes('database refused a value'));
        if (net) throw new Error(`${path}: the database refused ${raw.slice(0, 300)}: ${net}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(keyRoutes)('%s never answers 500 (API key)', async (path, keys) => {
    await assertProperty(
      fc.asyncProperty(
        body(keys),
        tokens(() => apiKey),
        async (raw, token) => {
          const res = await send(path, raw, token);
          if (res.status >= 500)
            throw new Error(`${path} answered ${res.status} to ${raw.slice(0, 300)}: ${res.text}`);
        },
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it('the SMS-Activate handler never answers 500, whatever its parameters', async () => {
    const param = fc.oneof(
      { weight: 3, arbitrary: nasty },
      fc.constantFrom(
        'getNumber',
        'setStatus',
        'getStatus',
        'getHistory',
        'getActiveActivations',
        'fuzz',
        '1',
        '-1',
        '8',
      ),
    );
    const names = fc.constantFrom(
      'action',
      'service',
      'id',
      'status',
      'country',
      'maxPrice',
      'start',
      'limit',
      'size',
      'end',
      'offset',
      'freePrice',
      'api_key',
    );
    await assertProperty(
      fc.asyncProperty(
        fc.dictionary(names, param, { maxKeys: 6 }),
        fc.boolean(),
        fc.constantFrom('GET', 'POST'),
        async (params, withKey, method) => {
          const q = new URLSearchParams();
          for (const [k, v] of Object.entries(params)) q.append(k, v.split(String.fromCharCode(0)).join(''));
          if (withKey) q.set('api_key', apiKey);
          const path = `/stubs/handler_api.php?${q}`;
          const res =
            method === 'GET'
              ? await fetch(`${s.url}${path}`)
              : await fetch(`${s.url}/stubs/handler_api.php`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  body: q.toString(),
                });
          const text = await res.text();
          // A GET whose address is over the limit is refused as such (414, the app's error body).
          const tooLong = method === 'GET' && path.length > MAX_URL_LENGTH;
          if (res.status >= 500 || !(tooLong ? [414] : [200, 204, 404, 409]).includes(res.status))
            throw new Error(`handler answered ${res.status} to ${q}: ${text}`);
          if (text !== text.trimEnd()) throw new Error(`trailing whitespace after ${JSON.stringify(text)}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the SMSGate-compatible API (/3rdparty/v1) never answers 500, whatever its ids, paths and bodies', async () => {
    // A caller of its own with no money: a send that passes every rule is refused for the balance,
    // so nothing this test sends can move money.
    const gate = await s.createUser({ balance: 0 });
    const gateKey = (await s.post('/api/user/reset-key', {}, gate.token)).body.apiKey as string;
    const basic = (name: string, key: string) => `Basic ${Buffer.from(`${name}:${key}`).toString('base64')}`;
    const auth = fc.oneof(
      { weight: 4, arbitrary: fc.constant(basic(gate.username, gateKey)) },
      fc.constant(undefined),
      nasty.map((t) => basic(t, gateKey)),
      nasty.map((t) => basic(gate.username, t)),
    );
    const clean = (x: string) => encodeURIComponent(x.replace(/[\ud800-\udfff]/g, '?'));
    const sendKeys = ['id', 'message', 'textMessage', 'phoneNumbers', 'simNumber', 'deviceId', 'isEncrypted'];
    const hookKeys = ['id', 'url', 'event', 'deviceId'];
    const request = fc.oneof(
      fc
        .tuple(fc.constantFrom('/3rdparty/v1/message', '/3rdparty/v1/messages'), body(sendKeys))
        .map(([path, raw]) => ({ method: 'POST', path, raw })),
      fc
        .tuple(fc.constantFrom('/3rdparty/v1/message/', '/3rdparty/v1/messages/'), nasty)
        .map(([path, id]) => ({ method: 'GET', path: `${path}${clean(id)}`, raw: '' })),
      body(hookKeys).map((raw) => ({ method: 'POST', path: '/3rdparty/v1/webhooks', raw })),
      fc.constant({ method: 'GET', path: '/3rdparty/v1/webhooks', raw: '' }),
      nasty.map((id) => ({ method: 'DELETE', path: `/3rdparty/v1/webhooks/${clean(id)}`, raw: '' })),
      fc
        .tuple(fc.constantFrom('GET', 'POST', 'DELETE'), nasty)
        .map(([method, tail]) => ({ method, path: `/3rdparty/v1/${clean(tail)}`, raw: '{}' })),
    );
    await assertProperty(
      fc.asyncProperty(request, auth, async (r, authorization) => {
        const logged = s.logs.length;
        const res = await fetch(`${s.url}${r.path}`, {
          method: r.method,
          headers: {
            ...(r.method === 'POST' ? { 'content-type': 'application/json' } : {}),
            ...(authorization ? { authorization } : {}),
          },
          body: r.method === 'POST' ? r.raw : undefined,
        });
        const text = await res.text();
        const what = `${r.method} ${r.path} ${r.raw.slice(0, 300)}`;
        const tooLong = r.path.length > MAX_URL_LENGTH;
        if (res.status >= 500 || (tooLong && res.status !== 414))
          throw new Error(`${what}: ${res.status} ${text}`);
        if (res.status >= 400) {
          // SMSGate's error body ({message}); a path no route matches gets the app's 404 ({msg}).
          const b = JSON.parse(text) as { message?: unknown; msg?: unknown };
          if (typeof (b.message ?? b.msg) !== 'string')
            throw new Error(`${what}: ${res.status} without a message`);
        }
        const net = s.logs.slice(logged).find((l) => l.includes('database refused a value'));
        if (net) throw new Error(`${what}: the database refused it: ${net}`);
      }),
      { numRuns: RUNS * 2 },
    );
    expect(
      (
        await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger WHERE user_id = $1', [gate.id])
      )[0]!.n,
    ).toBe(0);
  });

  it('GET /api/media/:fileName never answers 500 and never serves a file it does not hold', async () => {
    await assertProperty(
      fc.asyncProperty(nasty, tokens(), async (name, token) => {
        const res = await fetch(
          `${s.url}/api/media/${encodeURIComponent(name.replace(/[\ud800-\udfff]/g, '?'))}`,
          {
            headers: token ? { authorization: `Bearer ${token}` } : {},
          },
        );
        await res.arrayBuffer();
        if (![401, 404, 414].includes(res.status))
          throw new Error(`media ${JSON.stringify(name)} answered ${res.status}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('the GET routes with a query (payment history, options, the sandbox page) never answer 500', async () => {
    const paths = fc.constantFrom('/api/Payments/history', '/api/Payments/options', '/api/Admin/payments');
    await assertProperty(
      fc.asyncProperty(paths, nasty, nasty, tokens(), async (path, page, size, token) => {
        const q = new URLSearchParams({
          page: page.replace(/[\ud800-\udfff]/g, '?'),
          pageSize: size.replace(/[\ud800-\udfff]/g, '?'),
        });
        const auth = path.startsWith('/api/Admin') ? adminToken : token;
        const res = await send(`${path}?${q}`, '', auth, 'GET');
        if (res.status >= 500) throw new Error(`${path}?${q} answered ${res.status}: ${res.text}`);
      }),
      { numRuns: RUNS },
    );
    await assertProperty(
      fc.asyncProperty(nasty, nasty, async (id, form) => {
        const clean = (x: string) => encodeURIComponent(x.replace(/[\ud800-\udfff]/g, '?'));
        const res = await fetch(`${s.url}/sandbox/pay/${clean(id)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `outcome=${clean(form)}&amount=${clean(form)}`,
          redirect: 'manual',
        });
        await res.text();
        if (res.status >= 500) throw new Error(`sandbox page ${JSON.stringify(id)} answered ${res.status}`);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it.each(adminReads)('%s never answers 500 to an admin', async (path, keys) => {
    await assertProperty(
      fc.asyncProperty(body(keys), async (raw) => {
        const res = await send(path, raw, adminToken);
        if (res.status >= 500)
          throw new Error(`${path} answered ${res.status} to ${raw.slice(0, 300)}: ${res.text}`);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('refuses every guarded call without a fresh re-authentication, whatever X-Reauth holds (403, never 500)', async () => {
    const guarded = [...GUARDED];
    await assertProperty(
      fc.asyncProperty(
        fc.constantFrom(...guarded),
        nasty.map((t) => t.replace(/[^\x21-\x7e]/g, '')),
        fc.boolean(),
        async (path, proof, withHeader) => {
          const res = await send(
            path,
            '{}',
            user.token,
            'POST',
            withHeader && proof ? { [REAUTH_HEADER]: proof } : {},
          );
          if (res.status !== 403 || JSON.parse(res.text).error !== 'reauth_required')
            throw new Error(
              `${path} with X-Reauth ${JSON.stringify(proof)} answered ${res.status}: ${res.text}`,
            );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('moved no money and kept the signed-in user able to sign in', async () => {
    expect(await money()).toEqual(before);
    expect(await s.login(user.username, user.password)).toBeTruthy();
    expect(s.logs.some((l) => l.includes('"level":50'))).toBe(false);
  });
});

// ---- every admin write, generated from the route list --------------------------------------------

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}
interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        parameters?: { in: string; name: string }[];
      }
    >
  >;
}

/** The admin reads fuzzed above; every other admin POST is a write and is fuzzed below. */
const ADMIN_READS = new Set(adminReads.map(([path]) => path.toLowerCase()));
/**
 * Admin writes NOT fuzzed, each with its reason. (None: with the workers off nothing a generated
 * body stores reaches a device or the outside; gateway URLs point at refused local ports.)
 */
const UNSAFE_TO_FUZZ = new Set<string>([]);

/** A request body's keys, and the keys of its nested objects (`{ user: { … } }`). */
function shapeOf(schema: JsonSchema | undefined): { keys: string[]; nested: Record<string, string[]> } {
  const props = schema?.properties ?? {};
  const nested: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(props)) {
    const inner = [v, ...(v.anyOf ?? [])].find((x) => x.properties);
    if (inner?.properties) nested[k] = Object.keys(inner.properties);
  }
  return { keys: Object.keys(props), nested };
}

describe('fuzzing every admin write and every query', () => {
  let doc: OpenApiDoc;
  let victimId: string;
  let gatewayId: string;
  let serviceId: string;

  async function totals() {
    const [r] = await s.db.query<{ balances: string; ledger: string; rows: number }>(
      `SELECT (SELECT coalesce(sum(balance), 0)::text FROM users) AS balances,
              (SELECT coalesce(sum(amount), 0)::text FROM ledger) AS ledger,
              (SELECT count(*)::int FROM ledger) AS rows`,
    );
    return r!;
  }

  beforeAll(async () => {
    doc = (await (await fetch(`${s.url}/swagger/json`)).json()) as OpenApiDoc;
    victimId = (await s.createUser({ balance: 7 })).id;
    gatewayId = (await seedGateway(s.db, { lastUpdate: s.clock.now(), sims: 2 })).id;
    const [svc] = await s.db.query<{ id: string }>("SELECT id FROM services WHERE code = 'fuzz'");
    serviceId = svc!.id;
  });

  /** Real ids and plausible values mixed in, so generated bodies also reach the rules and the rows. */
  const adminValue = () =>
    fc.oneof(
      { weight: 3, arbitrary: value },
      fc.constantFrom(
        victimId,
        gatewayId,
        serviceId,
        'fuzz',
        '1.01',
        '15551234567',
        'x@example.com',
        'Admin9',
        'Inactive',
        'http://127.0.0.1:9',
        '00:11:22:33:44:55',
      ),
      fc.constant(['Admin9']),
      fc.constant({ id: serviceId }),
      fc.constantFrom(0.01, 1e9, -5, '12.345', '1e400', 'Infinity'),
    );

  function adminBody(shape: { keys: string[]; nested: Record<string, string[]> }): fc.Arbitrary<string> {
    const v = adminValue();
    const record = (
      keys: string[],
      inner?: Record<string, string[]>,
    ): fc.Arbitrary<Record<string, unknown>> =>
      fc.record(
        Object.fromEntries(keys.map((k) => [k, inner?.[k] ? fc.oneof(record(inner[k]!), v) : v])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
        { requiredKeys: [] },
      );
    const plausible = record(shape.keys, shape.nested).map((o) => JSON.stringify(o));
    // Prototype pollution at the top and inside each nested object, as raw JSON text.
    const proto = fc
      .constantFrom(...(Object.keys(shape.nested).length ? Object.keys(shape.nested) : ['']), '')
      .chain((outer) =>
        record(outer ? (shape.nested[outer] ?? []) : shape.keys).map((o) => {
          const polluted = `{"__proto__":{"roles":["Admin9"],"isAdmin":true},"constructor":{"prototype":{"polluted":1}},${JSON.stringify(o).slice(1)}`;
          const inner = polluted.endsWith(',}') ? `${polluted.slice(0, -2)}}` : polluted;
          return outer ? `{${JSON.stringify(outer)}:${inner}}` : inner;
        }),
      );
    const allKeys = [...shape.keys, ...Object.values(shape.nested).flat()];
    return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: body(allKeys) }, proto);
  }

  /**
   * A valid body of the known admin writes, so that one hostile change (a field replaced, removed
   * or added) gets past the rest of the rules to the code and the rows. A route missing here (a new
   * one) is still fuzzed by `adminBody` from its schema.
   */
  const validBodies = (): Record<string, Record<string, unknown>> => ({
    '/api/Admin/updateUser': {
      user: {
        username: `fz${Math.random().toString(36).slice(2, 8)}`,
        email: 'fz@example.com',
        password: 'password-123',
        roles: ['User'],
        status: 'Active',
        balance: 5,
      },
    },
    '/api/Admin/deleteUser': { id: '00000000-0000-4000-8000-000000000000' },
    '/api/Admin/updateGateway': {
      gateway: {
        name: 'fz',
        url: 'http://127.0.0.1:9',
        mac: '00:11:22:33:44:55',
        userName: 'root',
        password: 'x',
      },
    },
    '/api/Admin/deleteGateway': { id: '00000000-0000-4000-8000-000000000000' },
    '/api/Admin/gatewayScan': { id: gatewayId },
    '/api/Admin/setSimNumber': { gatewayId, port: '1.01', number: '15551230000' },
    '/api/Admin/simulateSms': { gatewayId, port: '1.01', from: '15550001111', text: 'Your code is 1234' },
    '/api/Admin/simUssd': { gatewayId, port: '1.01', code: '*100#' },
    '/api/Admin/setSimOrigin': { gatewayId, port: '1.01', country: 'DE', operator: 'Vodafone' },
    '/api/service/update': {
      name: 'Fz',
      code: 'fz2',
      price: 2,
      stock: 10,
      rentTimeMinutes: 20,
      pattern: '\\d{4}',
      textContains: 'fz',
      isRepeatable: false,
    },
    '/api/service/delete': { service: 'no-such-service' },
    '/api/Admin/updateSettings': { MaxBatchSendSms: 50, MaxMsgPerDay: 100000 },
  });

  /** The valid body with one change: a (nested) field replaced by a hostile value, dropped, or an extra one. */
  function mutated(base: Record<string, unknown>): fc.Arbitrary<string> {
    const paths: string[][] = [];
    for (const [k, v] of Object.entries(base)) {
      paths.push([k]);
      if (v && typeof v === 'object' && !Array.isArray(v))
        for (const kk of Object.keys(v)) paths.push([k, kk]);
    }
    return fc
      .tuple(
        fc.constantFrom(...paths),
        fc.constantFrom('replace', 'replace', 'replace', 'drop', 'extra'),
        adminValue(),
        fc.constantFrom('__proto__', 'constructor', 'balance', 'roles', 'id', 'isAdmin', 'extra'),
      )
      .map(([path, how, v, extraKey]) => {
        const copy = structuredClone(base) as Record<string, unknown>;
        const parent = (path.length === 2 ? copy[path[0]!] : copy) as Record<string, unknown>;
        const key = path[path.length - 1]!;
        if (how === 'replace') parent[key] = v;
        else if (how === 'drop') delete parent[key];
        const text = JSON.stringify(copy);
        // An extra key as raw text, so `__proto__` is a real own key of the JSON sent.
        return how === 'extra'
          ? `{${JSON.stringify(extraKey)}:${JSON.stringify(v) ?? 'null'},${text.slice(1)}`
          : text;
      });
  }

  /**
   * Routes that call the device: the seeded gateway's URL is a closed local port, so 503
   * `gateway_unreachable` (with its message) is their correct answer.
   */
  const DEVICE_CALLS = new Set(['/api/Admin/gatewayScan', '/api/Admin/simUssd']);

  /** 4xx with a JSON message, or a success; never 5xx; a refusal moves no money. */
  async function check(what: string, res: { status: number; text: string }, before: unknown, after: unknown) {
    const unreachable = res.status === 503 && res.text.includes('"error":"gateway_unreachable"');
    if (res.status >= 500 && !(unreachable && DEVICE_CALLS.has(what.split(' ')[0]!)))
      throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
    if (res.status >= 400) {
      let msg: unknown;
      try {
        // SMSGate's API (`/3rdparty/…`) answers SMSGate's error body, `{message}`.
        const body = JSON.parse(res.text) as { msg?: unknown; message?: unknown };
        msg = what.startsWith('/3rdparty/') ? body.message : body.msg;
      } catch {
        throw new Error(`${what} refused with a body that is not JSON: ${res.text.slice(0, 200)}`);
      }
      if (typeof msg !== 'string' || !msg) throw new Error(`${what} refused without a message: ${res.text}`);
      expect(after, `${what} refused (${res.status}) but moved money`).toEqual(before);
    }
  }

  it('an empty service id is refused by the contract (400), never reaching the database', async () => {
    const logged = s.logs.length;
    const res = await s.post(
      '/api/service/update',
      { id: '', name: 'Empty', code: 'empty', price: 1 },
      adminToken,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field: 'id' });
    expect(s.logs.slice(logged).some((l) => l.includes('database refused a value'))).toBe(false);
  });

  it('covers each admin write of the route list', () => {
    const writes = s.routes.filter(
      (r) => r.access === 'admin' && r.method === 'POST' && !ADMIN_READS.has(r.url.toLowerCase()),
    );
    expect(writes.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/api/Admin/updateUser', '/api/service/update']),
    );
  });

  it('every admin write answers a clear 4xx or a success, never 500, and a refusal moves no money', async () => {
    const writes = s.routes.filter(
      (r) =>
        r.access === 'admin' &&
        r.method === 'POST' &&
        !ADMIN_READS.has(r.url.toLowerCase()) &&
        !UNSAFE_TO_FUZZ.has(r.url),
    );
    for (const r of writes) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.post;
      const shape = shapeOf(op?.requestBody?.content?.['application/json']?.schema);
      const valid = validBodies()[r.url];
      const bodies = valid
        ? fc.oneof({ weight: 2, arbitrary: mutated(valid) }, adminBody(shape))
        : adminBody(shape);
      await assertProperty(
        fc.asyncProperty(bodies, async (raw) => {
          const logged = s.logs.length;
          const before = await totals();
          const res = await send(r.url, raw, adminToken);
          await check(`${r.url} with ${raw.slice(0, 300)}`, res, before, await totals());
          const net = s.logs.slice(logged).find((l) => l.includes('database refused a value'));
          if (net) throw new Error(`${r.url}: the database refused ${raw.slice(0, 300)}: ${net}`);
        }),
        { numRuns: RUNS / 3 },
        // Seeds that once found a failure stay: 798834478 sent /api/service/update an empty id.
        r.url === '/api/service/update' ? FOUND_SEEDS : [],
      );
    }
    // Nothing leaked onto Object.prototype of this process (the server runs in it).
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).roles).toBeUndefined();
    expect(await ledgerMismatches(s.db)).toEqual([]);
    // The admin is still the admin.
    expect((await s.post('/api/Admin/overview', {}, adminToken)).status).toBe(200);
    // Every admin write gets its runs, so the time grows with the routes: a minute.
  }, 60_000);

  it('every POST route answers an odd content type or encoding with a clear 4xx or a success, never 500', async () => {
    const odd: [string, string | Uint8Array<ArrayBuffer>][] = [
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'a=1&__proto__[x]=1'],
      ['application/xml', '<?xml version="1.0"?><a/>'],
      ['application/json; charset=utf-16', '{}'],
      ['application/json', new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
      ['application/json', '{"a":1}garbage'],
      ['application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
      ['application/json', '"just a string"'],
      ['application/json', 'null'],
      ['multipart/form-data; boundary=x', '--x--'],
    ];
    const failures: string[] = [];
    for (const r of s.routes.filter((x) => x.method === 'POST' && !x.url.includes(':'))) {
      const token = r.access === 'admin' ? adminToken : r.access === 'apikey' ? apiKey : user.token;
      for (const [type, payload] of odd) {
        const before = await totals();
        const res = await fetch(`${s.url}${r.url}`, {
          method: 'POST',
          headers: { 'content-type': type, authorization: `Bearer ${token}` },
          body: payload,
        });
        const text = await res.text();
        if (r.url.startsWith('/stubs/')) {
          if (res.status >= 500) failures.push(`${r.url} ${type}: ${res.status} ${text.slice(0, 100)}`);
          continue;
        }
        try {
          await check(`${r.url} as ${type}`, { status: res.status, text }, before, await totals());
        } catch (err) {
          failures.push(`${r.url} ${type} ${String(payload).slice(0, 30)}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('a gateway whose stored password cannot be read (APP_SECRET changed) gets a clear 503, not a 500', async () => {
    // A gateway of its own (the fuzzer may have deleted the other): its stored password was never
    // sealed with this server's secret.
    const gw = await seedGateway(s.db, { lastUpdate: s.clock.now(), sims: 1 });
    const res = await send('/api/Admin/gatewayScan', JSON.stringify({ id: gw.id }), adminToken);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'gateway_unreachable' });
    expect(res.text).toMatch(/password of this gateway cannot be read/);
  });

  it('every GET query (from the OpenAPI document) never answers 500', async () => {
    const tokenFor = (path: string) => {
      const r = s.routes.find((x) => x.method === 'GET' && x.url.toLowerCase() === path.toLowerCase());
      return r?.access === 'admin' ? adminToken : r?.access === 'apikey' ? apiKey : user.token;
    };
    const targets = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/stubs/')) // the handler has its own test above
      .flatMap(([path, ops]) =>
        ops.get?.parameters?.some((p) => p.in === 'query')
          ? [{ path, names: ops.get.parameters.filter((p) => p.in === 'query').map((p) => p.name) }]
          : [],
      );
    expect(targets.length).toBeGreaterThanOrEqual(5);
    const clean = (x: string) => x.replace(/[\ud800-\udfff]/g, '?');
    const param = fc.oneof(
      nasty,
      number.map(String),
      fc.constantFrom('1', '0', '-1', '1.5', 'true', 'WAIT_CODE'),
    );
    for (const t of targets) {
      await assertProperty(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...t.names) }, nasty), param), {
            maxLength: 5,
          }),
          async (pairs) => {
            const q = new URLSearchParams(pairs.map(([k, v]) => [clean(k), clean(v)]));
            const res = await send(`${t.path}?${q}`, '', tokenFor(t.path), 'GET');
            if (res.status >= 500) throw new Error(`${t.path}?${q} answered ${res.status}: ${res.text}`);
            if (res.status >= 400 && !/"msg":"[^"]/.test(res.text))
              throw new Error(`${t.path}?${q}: ${res.status} without a message: ${res.text}`);
          },
        ),
        { numRuns: RUNS / 4 },
      );
    }
  });
});

// ---- uploads: the MMS upload (multipart/form-data) and the device's MMS push (multipart/related) ----

const VALID_FILES = [PNG, GIF, JPEG];
const MAGICS = [PNG.subarray(0, 8), GIF.subarray(0, 6), JPEG.subarray(0, 4), Buffer.from('RIFF\0\0\0\0WEBP')];

/** A multipart/form-data body written by hand, so its framing can be broken on purpose. */
function formData(
  boundary: string,
  file: Buffer | null,
  opts: { name?: string; type?: string; fields?: [string, string][]; files?: number } = {},
): Buffer {
  const chunks: Buffer[] = [];
  for (const [k, v] of opts.fields ?? []) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (let i = 0; i < (file ? (opts.files ?? 1) : 0); i++) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.name ?? 'a.png'}"\r\nContent-Type: ${opts.type ?? 'image/png'}\r\n\r\n`,
      ),
      file!,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe('fuzzing the uploads', () => {
  const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';
  let pushUrl: string;

  async function upload(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
    const res = await fetch(`${s.url}/api/LiveChat/mmsUpload`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: `Bearer ${user.token}` },
      body: new Uint8Array(body),
    });
    return { status: res.status, text: await res.text() };
  }

  /** A clear 4xx (JSON, with a message), or a 200 whose stored file is exactly what was sent. */
  async function expectClear(what: string, res: { status: number; text: string }, sent?: Buffer) {
    if (res.status >= 500 || res.status < 200)
      throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
    let body: { msg?: unknown; fileName?: unknown };
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new Error(`${what}: ${res.status} with a body that is not JSON: ${res.text.slice(0, 200)}`);
    }
    if (res.status >= 400) {
      if (typeof body.msg !== 'string' || !body.msg)
        throw new Error(`${what}: ${res.status} without a message`);
      return;
    }
    if (!sent || typeof body.fileName !== 'string') throw new Error(`${what}: accepted ${res.text}`);
    const back = await fetch(`${s.url}/api/media/${body.fileName}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const data = Buffer.from(await back.arrayBuffer());
    if (back.status !== 200 || Buffer.compare(data, sent) !== 0)
      throw new Error(`${what}: stored something else`);
  }

  beforeAll(async () => {
    const gw = await seedGateway(s.db, { lastUpdate: s.clock.now(), sims: 1 });
    pushUrl = `${s.url}/api/gw/${gw.id}/secret/mms`;
  });

  it('a file of the wrong type, a cut-off image or random bytes behind a real header: 4xx, never stored', async () => {
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
      // Every strict prefix of a real image is an incomplete file.
      fc
        .constantFrom(...VALID_FILES)
        .chain((f) =>
          fc.integer({ min: 1, max: f.length - 1 }).map((n) => ({ cut: true, data: f.subarray(0, n) })),
        ),
      fc
        .tuple(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 500 }))
        .map(([m, tail]) => Buffer.concat([m, Buffer.from(tail)])),
      fc
        .constantFrom(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          '<html><script>alert(1)</script></html>',
          '%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF',
          'MZ\x90\x00\x03',
          "'; DROP TABLE messaging_media; --",
        )
        .map((t) => Buffer.from(t, 'latin1')),
    );
    const fileName = fc.oneof(
      fc.constantFrom('a.png', 'a.jpg', '../../etc/passwd', 'a.svg', 'a.php', '', 'x'.repeat(300)),
      nasty.map((n) => n.replace(/["\r\n\\]/g, '_')),
    );
    const type = fc.constantFrom(
      'image/png',
      'image/jpeg',
      'image/svg+xml',
      'text/html',
      'application/x-msdownload',
      '',
    );
    await assertProperty(
      fc.asyncProperty(content, fileName, type, async (c, name, t) => {
        const data = Buffer.isBuffer(c) ? c : c.data;
        const res = await upload(formData(BOUNDARY, data, { name, type: t }));
        await expectClear(`upload of ${data.length} bytes as ${JSON.stringify(name)} (${t})`, res, data);
        if (!Buffer.isBuffer(c) && res.status !== 415)
          throw new Error(`a cut-off image answered ${res.status}`);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('broken multipart framing, two files, stray fields, wrong or missing boundary: a clear 4xx', async () => {
    const shape = fc.record({
      cut: fc.option(fc.nat(400), { nil: undefined }),
      files: fc.integer({ min: 1, max: 3 }),
      fields: fc.array(
        fc
          .tuple(nasty, nasty)
          .map(([k, v]) => [k.replace(/["\r\n\\]/g, '_'), v.replace(/\r?\n/g, ' ')] as [string, string]),
        {
          maxLength: 8,
        },
      ),
      contentType: fc.constantFrom(
        `multipart/form-data; boundary=${BOUNDARY}`,
        `multipart/form-data; boundary=${BOUNDARY}`,
        'multipart/form-data; boundary=other',
        'multipart/form-data',
        'multipart/mixed; boundary=x',
        'application/octet-stream',
        'image/png',
        'text/plain',
      ),
    });
    await assertProperty(
      fc.asyncProperty(shape, async (o) => {
        const full = formData(BOUNDARY, PNG, { files: o.files, fields: o.fields });
        const body = o.cut === undefined ? full : full.subarray(0, Math.min(o.cut, full.length - 1));
        const res = await upload(body, o.contentType);
        await expectClear(
          `${o.contentType}, ${body.length} of ${full.length} bytes, ${o.files} file(s)`,
          res,
          PNG,
        );
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('refuses oversized bodies with 413 and a message: an upload past its limit, JSON past the API limit', async () => {
    const big = formData(BOUNDARY, Buffer.alloc(6 * 1024 * 1024, 0x41), { name: 'big.png' });
    const up = await upload(big);
    expect(up.status).toBe(413);
    expect(JSON.parse(up.text).msg).toBeTruthy();
    const json = await send(
      '/api/Order/create',
      JSON.stringify({ serviceCode: 'x'.repeat(3 * 1024 * 1024) }),
      user.token,
    );
    expect(json.status).toBe(413);
    expect(JSON.parse(json.text)).toMatchObject({ error: 'body_too_large', msg: expect.any(String) });
    const plain = await fetch(`${s.url}/api/Order/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-yaml', authorization: `Bearer ${user.token}` },
      body: 'serviceCode: tg',
    });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ error: 'unsupported_media_type', msg: expect.any(String) });
    const [{ n }] = (await s.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messaging_media WHERE size > 5 * 1024 * 1024',
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it("the device's MMS push never answers 500, whatever its parts, headers and cuts", async () => {
    const part = fc.record({
      type: fc.constantFrom(
        'text/plain',
        'application/smil',
        'image/png',
        'image/jpeg',
        'video/mp4',
        '',
        'x/y',
      ),
      base64: fc.boolean(),
      data: fc.oneof(
        fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
        fc.constantFrom(PNG, GIF, JPEG),
        nasty.map((t) => Buffer.from(t)),
      ),
    });
    await assertProperty(
      fc.asyncProperty(
        fc.array(part, { maxLength: 4 }),
        fc.option(fc.nat(600), { nil: undefined }),
        fc.oneof(
          fc.constant(Buffer.from('+15551234567').toString('base64')),
          nasty.map((t) => t.replace(/[^\x20-\x7e]/g, '')),
        ),
        fc.constantFrom(
          'multipart/related; boundary=mmsb',
          'multipart/related',
          'multipart/related; boundary=other',
        ),
        async (parts, cut, from, contentType) => {
          const chunks = parts.map((p) =>
            Buffer.concat([
              Buffer.from(
                `--mmsb\r\nContent-Type: ${p.type}\r\n${p.base64 ? 'Content-Transfer-Encoding: base64\r\n' : ''}\r\n`,
              ),
              p.base64 ? Buffer.from(p.data.toString('base64')) : p.data,
              Buffer.from('\r\n'),
            ]),
          );
          const full = Buffer.concat([...chunks, Buffer.from('--mmsb--\r\n')]);
          const body = cut === undefined ? full : full.subarray(0, Math.min(cut, full.length));
          const res = await fetch(pushUrl, {
            method: 'POST',
            headers: { 'content-type': contentType, 'emms-from': from, 'emms-to': from },
            body: new Uint8Array(body),
          });
          const text = await res.text();
          if (res.status >= 500) throw new Error(`MMS push answered ${res.status}: ${text.slice(0, 200)}`);
        },
      ),
      { numRuns: RUNS / 2 },
    );
  });
});
