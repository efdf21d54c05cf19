import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

// Property: whatever a client sends to the public and user routes — wrong types, missing and
// extra fields, huge strings, control characters and NUL, lone surrogates, `__proto__` keys,
// injection strings, absurd numbers — the answer is never a 500 and no balance moves.

let s: TestServer;
let user: { id: string; username: string; password: string; token: string };
let adminToken: string;
let apiKey: string;
const RUNS = 120;

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
  apiKey = (await s.post('/api/user/reset-key', {}, user.token)).body.apiKey;
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

async function send(path: string, raw: string, token: string | undefined, method = 'POST') {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
  ['/api/livechat/queryConversation', [], true],
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

describe('fuzzing the public and user routes', () => {
  let before: Awaited<ReturnType<typeof money>>;
  beforeAll(async () => {
    before = await money();
  });

  it.each(routes)('%s never answers 500', async (path, keys, withToken) => {
    await fc.assert(
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
    await fc.assert(
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
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(names, param, { maxKeys: 6 }),
        fc.boolean(),
        fc.constantFrom('GET', 'POST'),
        async (params, withKey, method) => {
          const q = new URLSearchParams();
          for (const [k, v] of Object.entries(params)) q.append(k, v.split(String.fromCharCode(0)).join(''));
          if (withKey) q.set('api_key', apiKey);
          const res =
            method === 'GET'
              ? await fetch(`${s.url}/stubs/handler_api.php?${q}`)
              : await fetch(`${s.url}/stubs/handler_api.php`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/x-www-form-urlencoded' },
                  body: q.toString(),
                });
          const text = await res.text();
          if (res.status >= 500 || ![200, 204, 404, 409].includes(res.status))
            throw new Error(`handler answered ${res.status} to ${q}: ${text}`);
          if (text !== text.trimEnd()) throw new Error(`trailing whitespace after ${JSON.stringify(text)}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('GET /api/media/:fileName never answers 500 and never serves a file it does not hold', async () => {
    await fc.assert(
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
    await fc.assert(
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
    await fc.assert(
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
  it.each(adminReads)('%s never answers 500 to an admin', async (path, keys) => {
    await fc.assert(
      fc.asyncProperty(body(keys), async (raw) => {
        const res = await send(path, raw, adminToken);
        if (res.status >= 500)
          throw new Error(`${path} answered ${res.status} to ${raw.slice(0, 300)}: ${res.text}`);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('moved no money and kept the signed-in user able to sign in', async () => {
    expect(await money()).toEqual(before);
    expect(await s.login(user.username, user.password)).toBeTruthy();
    expect(s.logs.some((l) => l.includes('"level":50'))).toBe(false);
  });
});
