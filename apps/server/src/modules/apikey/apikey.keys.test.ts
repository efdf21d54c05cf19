import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_KEY_PATTERN,
  API_KEY_SCOPES,
  API_KEYS_MAX,
  type EndpointDeclaration,
  endpoints,
} from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal, sha256 } from '../../crypto.ts';
import { migrate } from '../../db/migrate.ts';
import { openTestDb, startTestServer, type TestServer, testConfig } from '../../test/harness.ts';
import { hashPassword } from '../users/index.ts';

// Keys for programs: several named keys per user, each limited to scopes (which endpoints it may
// call), allowed addresses (where it may be called from, as the server sees the caller) and an
// optional expiry. Tested through real HTTP: an IPv6 caller is a real connection to ::1, a
// forwarded address a real X-Forwarded-For header on a server started with TRUST_PROXY=true.

let s: TestServer;
/** Listens on "::": a caller on 127.0.0.1 arrives as ::ffff:127.0.0.1, one on [::1] as ::1. */
let dual: TestServer;
/** Started with TRUST_PROXY=true: the caller is the address X-Forwarded-For names. */
let proxied: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  dual = await startTestServer({ env: { HOST: '::' } });
  proxied = await startTestServer({ env: { TRUST_PROXY: 'true' } });
}, 180_000);
afterAll(async () => {
  await Promise.all([s?.close(), dual?.close(), proxied?.close()]);
});

type Srv = TestServer;
const inAnHour = (srv: Srv) => new Date(srv.clock.now().getTime() + 3600_000).toISOString();

async function createKey(
  srv: Srv,
  user: { token: string; password: string },
  body: { name?: string; scopes?: string[]; allowedIps?: string[]; expiresAt?: string } = {},
) {
  const res = await srv.api(endpoints.apikey.createKey, {
    rawBody: { name: 'script', scopes: [...API_KEY_SCOPES], ...body },
    token: user.token,
    headers: await srv.reauth(user),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { apiKey: string; key: Record<string, unknown> & { id: string } };
}

/** GET /api/v1/balance with the key: status, body and the rate-limit header. */
async function balance(base: string, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1/balance`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
  return { status: res.status, body: await res.json(), limit: res.headers.get('x-ratelimit-limit') };
}

const handler = async (srv: Srv, key: string) =>
  (await fetch(`${srv.url}/stubs/handler_api.php?action=getBalance&api_key=${key}`)).text();

describe('named keys', () => {
  it('creates, lists and deletes keys; the key itself is answered once and never listed', async () => {
    const u = await s.createUser({ balance: 2 });
    const other = await s.createUser();
    const expiresAt = inAnHour(s);
    const made = await createKey(s, u, {
      name: '  ci runner  ',
      scopes: ['rental', 'rental'],
      allowedIps: ['127.0.0.1', ' 10.1.2.3/8 ', '2001:DB8::/32', '10.0.0.0/8'],
      expiresAt,
    });
    expect(made.apiKey).toMatch(API_KEY_PATTERN);
    expect(made.key).toEqual({
      id: expect.any(String),
      name: 'ci runner',
      prefix: made.apiKey.slice(0, 10),
      scopes: ['rental'],
      allowedIps: ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'],
      expiresAt: new Date(expiresAt).toISOString(),
      createdAt: s.clock.now().toISOString(),
      lastUsedAt: null,
      isDefault: false,
      expired: false,
    });
    expect((await balance(s.url, made.apiKey)).body).toEqual({ balance: 2, currency: 'USD' });

    const list = await s.api(endpoints.apikey.keys, { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.max).toBe(API_KEYS_MAX);
    expect(list.body.keys).toHaveLength(1);
    expect(list.body.keys[0]).toMatchObject({ id: made.key.id, name: 'ci runner', prefix: made.key.prefix });
    expect(JSON.stringify(list.body)).not.toContain(made.apiKey);
    // At rest: the hash only, no sealed copy to read it back from.
    const [row] = await s.db.query<{ key_hash: string; key_enc: string | null }>(
      'SELECT key_hash, key_enc FROM api_keys WHERE id = $1',
      [made.key.id],
    );
    expect(row).toEqual({ key_hash: sha256(made.apiKey), key_enc: null });
    // The spec's call shows the default key, and there is none.
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body).toEqual({ code: 1, apiKey: null });

    // Another user neither sees nor deletes it.
    expect((await s.api(endpoints.apikey.keys, { token: other.token })).body.keys).toEqual([]);
    const foreign = await s.api(endpoints.apikey.deleteKey, {
      body: { id: made.key.id },
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    expect((await balance(s.url, made.apiKey)).status).toBe(200);

    const del = await s.api(endpoints.apikey.deleteKey, { body: { id: made.key.id }, token: u.token });
    expect(del.body).toEqual({ code: 1, msg: 'API key deleted!' });
    expect((await balance(s.url, made.apiKey)).status).toBe(401);
    expect((await s.api(endpoints.apikey.keys, { token: u.token })).body.keys).toEqual([]);
    for (const id of [made.key.id, 'not-a-uuid']) {
      const again = await s.api(endpoints.apikey.deleteKey, { body: { id }, token: u.token });
      expect(again.status).toBe(404);
      expect(again.body.error).toBe('not_found');
    }
    // Only a signed-in user manages keys; an API key is no session.
    expect((await s.api(endpoints.apikey.keys, { token: made.apiKey })).status).toBe(401);
  });

  it('refuses a key without a name or scope, with a bad address, or with an expiry not in the future', async () => {
    const u = await s.createUser();
    const bad = async (body: Record<string, unknown>) => {
      const res = await s.api(endpoints.apikey.createKey, {
        body: { name: 'x', scopes: ['rental'], ...body },
        token: u.token,
        headers: await s.reauth(u),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('bad_input');
      return res.body as { msg: string; field?: string };
    };
    expect((await bad({ name: '   ' })).msg).toBe('Enter a name for the key.');
    expect((await bad({ scopes: [] })).msg).toBe('Choose at least one scope.');
    await bad({ scopes: ['admin'] });
    expect(await bad({ allowedIps: ['127.0.0.1', 'example.com'] })).toMatchObject({
      msg: '"example.com" is not an IPv4 or IPv6 address or CIDR range.',
      field: 'allowedIps',
    });
    await bad({ allowedIps: ['10.0.0.1/33'] });
    await bad({ allowedIps: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) });
    await bad({ expiresAt: 'tomorrow' });
    // In the past by the server's clock.
    expect(await bad({ expiresAt: new Date(s.clock.now().getTime() - 1000).toISOString() })).toMatchObject({
      msg: 'The expiry must be in the future.',
      field: 'expiresAt',
    });
    expect((await s.api(endpoints.apikey.keys, { token: u.token })).body.keys).toEqual([]);
  });

  it(`keeps at most ${API_KEYS_MAX} keys per user, the default key included`, async () => {
    const u = await s.createUser();
    for (let i = 0; i < API_KEYS_MAX; i++) await createKey(s, u, { name: `k${i}` });
    const over = await s.api(endpoints.apikey.createKey, {
      body: { name: 'one more', scopes: ['rental'] },
      token: u.token,
      headers: await s.reauth(u),
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error: 'api_key_limit' });
    // No room for a default key either.
    const reset = await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) });
    expect(reset.status).toBe(409);
    expect(reset.body.error).toBe('api_key_limit');

    const keys = (await s.api(endpoints.apikey.keys, { token: u.token })).body.keys as { id: string }[];
    await s.api(endpoints.apikey.deleteKey, { body: { id: keys[0]!.id }, token: u.token });
    expect((await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).status).toBe(
      200,
    );
    // Replacing the default key needs no room.
    expect((await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).status).toBe(
      200,
    );
    expect((await s.api(endpoints.apikey.keys, { token: u.token })).body.keys).toHaveLength(API_KEYS_MAX);
    expect(
      (
        await s.api(endpoints.apikey.createKey, {
          body: { name: 'x', scopes: ['rental'] },
          token: u.token,
          headers: await s.reauth(u),
        })
      ).status,
    ).toBe(409);
  });
});

describe('scopes', () => {
  it('every API-key endpoint declares the scope it needs; the rental API needs `rental`', () => {
    const declared = Object.values(endpoints)
      .flatMap((group) => Object.values(group as Record<string, EndpointDeclaration>))
      .filter((e) => e.access === 'apikey');
    expect(declared.length).toBeGreaterThan(0);
    for (const e of declared) expect(API_KEY_SCOPES, e.path).toContain(e.scope);
    for (const e of Object.values(endpoints.rentalApi)) expect(e.scope, e.path).toBe('rental');
  });

  it('a rental key calls the rental API; a messaging-only key is refused with the reason', async () => {
    const u = await s.createUser({ balance: 1 });
    const rental = await createKey(s, u, { scopes: ['rental'] });
    const reader = await createKey(s, u, { scopes: ['messaging:read'] });
    expect((await balance(s.url, rental.apiKey)).status).toBe(200);
    expect(await handler(s, rental.apiKey)).toBe('ACCESS_BALANCE:1.00');

    const refused = await balance(s.url, reader.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 0,
      error: 'api_key_scope_missing',
      msg: 'This API key does not have the rental scope.',
    });
    const order = await fetch(`${s.url}/api/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'tg' }),
    });
    expect(order.status).toBe(403);
    // The SMS-Activate protocol has no word for it: the key is no good for this call.
    expect(await handler(s, reader.apiKey)).toBe('BAD_KEY');
  });
});

describe('allowed addresses', () => {
  it('IPv4: a call from an allowed address works, from another is refused with both addresses', async () => {
    const u = await s.createUser();
    const here = await createKey(s, u, { allowedIps: ['198.51.100.0/24', '127.0.0.1'] });
    const elsewhere = await createKey(s, u, { allowedIps: ['203.0.113.0/24', '10.0.0.1'] });
    const ok = await balance(s.url, here.apiKey);
    expect(ok.status).toBe(200);
    expect(ok.limit).not.toBeNull();
    const refused = await balance(s.url, elsewhere.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 0,
      error: 'api_key_ip_refused',
      msg: 'This API key may be used only from 203.0.113.0/24, 10.0.0.1; this call came from 127.0.0.1.',
    });
    expect(await handler(s, elsewhere.apiKey)).toBe('BAD_KEY');
    // Without TRUST_PROXY a forwarded address is anyone's to write: it is not believed.
    const forged = await balance(s.url, elsewhere.apiKey, { 'x-forwarded-for': '203.0.113.5' });
    expect(forged.status).toBe(403);
    expect(forged.body.msg).toMatch(/this call came from 127\.0\.0\.1\.$/);
  });

  it('IPv6: a caller on ::1 matches an IPv6 range, and is refused outside one', async () => {
    const u = await dual.createUser();
    const v6base = dual.url.replace('127.0.0.1', '[::1]');
    const loop = await createKey(dual, u, { allowedIps: ['::/120'] });
    const doc = await createKey(dual, u, { allowedIps: ['2001:db8::/32'] });
    expect((await balance(v6base, loop.apiKey)).status).toBe(200);
    const refused = await balance(v6base, doc.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe(
      'This API key may be used only from 2001:db8::/32; this call came from ::1.',
    );
    // The same IPv6 key from an IPv4 caller: no IPv6 rule matches an IPv4 address.
    expect((await balance(dual.url, loop.apiKey)).status).toBe(403);
  });

  it('an IPv4-mapped caller (::ffff:127.0.0.1 on a dual-stack listener) matches IPv4 rules', async () => {
    const u = await dual.createUser();
    const v4 = await createKey(dual, u, { allowedIps: ['127.0.0.0/8'] });
    const other = await createKey(dual, u, { allowedIps: ['192.0.2.1'] });
    expect((await balance(dual.url, v4.apiKey)).status).toBe(200);
    const refused = await balance(dual.url, other.apiKey);
    expect(refused.status).toBe(403);
    // Said as IPv4, as it was matched.
    expect(refused.body.msg).toBe(
      'This API key may be used only from 192.0.2.1; this call came from 127.0.0.1.',
    );
  });

  it('behind a trusted proxy (TRUST_PROXY=true) the forwarded address is the caller', async () => {
    const u = await proxied.createUser();
    const key = await createKey(proxied, u, { allowedIps: ['198.51.100.0/24', '2001:db8::/32'] });
    const from = (address: string) => balance(proxied.url, key.apiKey, { 'x-forwarded-for': address });
    expect((await from('198.51.100.20')).status).toBe(200);
    expect((await from('2001:db8::7')).status).toBe(200);
    // The client is the first address of the list; the proxies follow it.
    expect((await from('198.51.100.20, 10.0.0.9')).status).toBe(200);
    const v4 = await from('203.0.113.5');
    expect(v4.status).toBe(403);
    expect(v4.body.msg).toMatch(/this call came from 203\.0\.113\.5\.$/);
    const v6 = await from('2001:db9::7');
    expect(v6.status).toBe(403);
    expect(v6.body.msg).toMatch(/this call came from 2001:db9::7\.$/);
    // No header: the proxy itself (here the test) is the caller.
    expect((await balance(proxied.url, key.apiKey)).status).toBe(403);
  });
});

describe('expiry and last use', () => {
  it('a key works until its expiry, then is refused with 401 api_key_expired and listed as expired', async () => {
    const u = await s.createUser();
    const key = await createKey(s, u, { expiresAt: inAnHour(s) });
    expect((await balance(s.url, key.apiKey)).status).toBe(200);
    s.clock.advance(3600_000 - 1000);
    expect((await balance(s.url, key.apiKey)).status).toBe(200);
    s.clock.advance(1000);
    const expired = await balance(s.url, key.apiKey);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      code: 0,
      error: 'api_key_expired',
      msg: `This API key expired at ${key.key.expiresAt}.`,
    });
    expect(await handler(s, key.apiKey)).toBe('BAD_KEY');
    const [listed] = (await s.api(endpoints.apikey.keys, { token: u.token })).body.keys;
    expect(listed).toMatchObject({ id: key.key.id, expired: true });
  });

  it('notes the last use, at most once a minute', async () => {
    const u = await s.createUser();
    const key = await createKey(s, u);
    const lastUsed = async () =>
      (await s.api(endpoints.apikey.keys, { token: u.token })).body.keys[0]!.lastUsedAt as string | null;
    expect(await lastUsed()).toBeNull();
    const first = s.clock.now().toISOString();
    await balance(s.url, key.apiKey);
    expect(await lastUsed()).toBe(first);
    s.clock.advance(30_000);
    await balance(s.url, key.apiKey);
    expect(await lastUsed()).toBe(first);
    s.clock.advance(31_000);
    await balance(s.url, key.apiKey);
    expect(await lastUsed()).toBe(s.clock.now().toISOString());
  });
});

describe('the default key (the spec’s calls)', () => {
  it('reset makes a default key with every scope; get shows it; delete-key deletes it alone', async () => {
    const u = await s.createUser({ balance: 1 });
    const named = await createKey(s, u, { name: 'bot', scopes: ['rental'] });
    const reset = await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) });
    expect(reset.body).toEqual({ code: 1, msg: 'API key reset success!', apiKey: expect.any(String) });
    const first: string = reset.body.apiKey;
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body).toEqual({ code: 1, apiKey: first });
    const keys = (await s.api(endpoints.apikey.keys, { token: u.token })).body.keys;
    expect(keys.map((k: { name: string }) => k.name)).toEqual(['Default', 'bot']);
    expect(keys[0]).toMatchObject({
      name: 'Default',
      prefix: first.slice(0, 10),
      scopes: [...API_KEY_SCOPES],
      allowedIps: [],
      expiresAt: null,
      isDefault: true,
      expired: false,
    });
    // The spec's get shows the default key, and only the list has the others (never in clear).
    expect(JSON.stringify(keys)).not.toContain(first);

    const second = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey;
    expect((await balance(s.url, first)).status).toBe(401);
    expect((await balance(s.url, second)).status).toBe(200);
    const after = (await s.api(endpoints.apikey.keys, { token: u.token })).body.keys;
    expect(after).toHaveLength(2);
    expect(after[0]!.id).not.toBe(keys[0]!.id);

    expect((await s.api(endpoints.apikey.delete, { token: u.token })).body).toEqual({
      code: 1,
      msg: 'API key deleted!',
    });
    expect((await balance(s.url, second)).status).toBe(401);
    expect((await balance(s.url, named.apiKey)).status).toBe(200);
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body.apiKey).toBeNull();
    expect((await s.api(endpoints.apikey.delete, { token: u.token })).status).toBe(404);
  });

  it('keeps one default key per user in the database', async () => {
    const u = await s.createUser();
    await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) });
    await expect(
      s.db.query(
        `INSERT INTO api_keys (user_id, name, key_hash, key_enc, scopes, is_default, created_at)
         VALUES ($1, 'Second', 'h', 'x', ARRAY['rental'], true, now())`,
        [u.id],
      ),
    ).rejects.toThrow(/api_keys_one_default/);
  });
});

describe('audit', () => {
  it('records creation, reset and deletion by their owner, never the key', async () => {
    const u = await s.createUser();
    const made = await createKey(s, u, {
      name: 'audited',
      scopes: ['rental'],
      allowedIps: ['10.0.0.0/8'],
    });
    const reset = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey as string;
    await s.api(endpoints.apikey.deleteKey, { body: { id: made.key.id }, token: u.token });
    await s.api(endpoints.apikey.delete, { token: u.token });
    const rows = await s.db.query<{
      kind: string;
      actor_name: string;
      target_id: string;
      target_label: string;
      before: unknown;
      after: unknown;
    }>(
      `SELECT kind, actor_name, target_id, target_label, before, after FROM audit_log
        WHERE actor_id = $1 ORDER BY id`,
      [u.id],
    );
    expect(rows.map((r) => [r.kind, r.actor_name, r.target_label])).toEqual([
      ['apikey.create', u.username, 'audited'],
      ['apikey.reset', u.username, 'Default'],
      ['apikey.delete', u.username, 'audited'],
      ['apikey.delete', u.username, 'Default'],
    ]);
    expect(rows[0]!.target_id).toBe(made.key.id);
    expect(rows[0]!.after).toEqual({
      name: 'audited',
      prefix: made.key.prefix,
      scopes: ['rental'],
      allowedIps: ['10.0.0.0/8'],
      expiresAt: null,
    });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(made.apiKey);
    expect(text).not.toContain(reset);
    // The admin's audit page filters by these kinds.
    const admin = await s.adminToken();
    const listed = await s.api(endpoints.audit.list, {
      body: { kind: 'apikey.reset', actor: u.username },
      token: admin,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.entries).toHaveLength(1);
  });
});

describe('migration 019_api_key_scopes', () => {
  it('makes an existing key its user’s default key: every scope, any address, no expiry, still working', async () => {
    const all = join(dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
    const before = mkdtempSync(join(tmpdir(), 'simdock-019-'));
    for (const f of readdirSync(all).filter((f) => f.endsWith('.sql') && f < '019_'))
      copyFileSync(join(all, f), join(before, f));
    const t = await openTestDb();
    let m: TestServer | undefined;
    try {
      await migrate(t.db, before);
      const [u] = await t.db.query<{ id: string }>(
        `INSERT INTO users (username, email, password_hash) VALUES ('m019', 'm019@example.com', $1) RETURNING id`,
        [await hashPassword('password-123')],
      );
      const key = `sd_${'A'.repeat(43)}`;
      const createdAt = new Date('2030-01-02T03:04:05Z');
      await t.db.query(
        'INSERT INTO api_keys (user_id, key_hash, key_enc, created_at) VALUES ($1, $2, $3, $4)',
        [u!.id, sha256(key), seal(testConfig().APP_SECRET, key), createdAt],
      );
      expect(await migrate(t.db, all)).toContain('019_api_key_scopes.sql');
      const rows = await t.db.query('SELECT * FROM api_keys');
      expect(rows).toEqual([
        expect.objectContaining({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          user_id: u!.id,
          name: 'Default',
          key_hash: sha256(key),
          prefix: null,
          scopes: ['rental', 'messaging:send', 'messaging:read'],
          allowed_ips: [],
          expires_at: null,
          is_default: true,
          created_at: createdAt,
          last_used_at: null,
        }),
      ]);

      // The server on the migrated database: the key still works, shows, and is listed.
      m = await startTestServer({ testDb: t });
      const token = await m.login('m019', 'password-123');
      expect((await m.api(endpoints.apikey.get, { token })).body.apiKey).toBe(key);
      expect((await balance(m.url, key)).status).toBe(200);
      const [listed] = (await m.api(endpoints.apikey.keys, { token })).body.keys;
      expect(listed).toMatchObject({
        name: 'Default',
        prefix: key.slice(0, 10),
        isDefault: true,
        createdAt: createdAt.toISOString(),
      });
    } finally {
      // Closing the server drops its database.
      if (m) await m.close();
      else await t.drop();
    }
  });
});
