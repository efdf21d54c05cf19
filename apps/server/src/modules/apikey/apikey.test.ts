import { API_KEY_PATTERN, endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../crypto.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';

// The API key page's spec calls: get, reset, delete, acting on the user's default key (named keys:
// apikey.keys.test.ts). Keys are long and random, stored sealed and found by hash; a reset kills the
// old key at once; an inactive account's key is refused.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const balanceWith = (key: string) =>
  fetch(`${s.url}/api/v1/balance`, { headers: { authorization: `Bearer ${key}` } });

describe('API key lifecycle', () => {
  it('starts with none, makes a long random key, shows it to its owner only', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body).toEqual({ code: 1, apiKey: null });

    const reset = await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) });
    expect(reset.status).toBe(200);
    expect(reset.body.msg).toBe('API key reset success!');
    const key: string = reset.body.apiKey;
    expect(key).toMatch(API_KEY_PATTERN);
    expect(key.length).toBeGreaterThanOrEqual(46);
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body.apiKey).toBe(key);
    expect((await s.api(endpoints.apikey.get, { token: other.token })).body.apiKey).toBeNull();
    // The user info (spec: username, email, createdTime, apiKey, balance) shows it to its owner too.
    expect((await s.api(endpoints.user.info, { token: u.token })).body.apiKey).toBe(key);
    expect((await s.api(endpoints.user.info, { token: other.token })).body.apiKey).toBeNull();

    // At rest: sealed (not the key), found by its SHA-256.
    const [row] = await s.db.query<{ key_hash: string; key_enc: string }>(
      'SELECT key_hash, key_enc FROM api_keys WHERE user_id = $1 AND is_default',
      [u.id],
    );
    expect(row!.key_hash).toBe(sha256(key));
    expect(row!.key_enc).not.toContain(key);
    expect(row!.key_enc.startsWith('v1.')).toBe(true);

    // Another user's key is another key.
    const otherKey = (
      await s.api(endpoints.apikey.reset, { token: other.token, headers: await s.reauth(other) })
    ).body.apiKey;
    expect(otherKey).not.toBe(key);
    expect((await balanceWith(key)).status).toBe(200);
  });

  it('a reset invalidates the old key at once; a delete leaves none', async () => {
    const u = await s.createUser({ balance: 3 });
    const first = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey;
    expect((await balanceWith(first)).status).toBe(200);
    const second = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey;
    expect(second).not.toBe(first);
    const old = await balanceWith(first);
    expect(old.status).toBe(401);
    expect(await old.json()).toMatchObject({ code: 0, error: 'api_key_invalid' });
    expect(await (await balanceWith(second)).json()).toEqual({ balance: 3, currency: 'USD' });

    const del = await s.api(endpoints.apikey.delete, { token: u.token });
    expect(del.body).toEqual({ code: 1, msg: 'API key deleted!' });
    expect((await balanceWith(second)).status).toBe(401);
    expect((await s.api(endpoints.apikey.get, { token: u.token })).body.apiKey).toBeNull();
    // Nothing left to delete: a clear 404, not a 500.
    const again = await s.api(endpoints.apikey.delete, { token: u.token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('not_found');
  });

  it('refuses the key of an inactive account', async () => {
    const u = await s.createUser();
    const key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey;
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [u.id]);
    const res = await balanceWith(key);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'account_inactive' });
  });

  it('refuses a missing, malformed or huge key with 401', async () => {
    const none = await fetch(`${s.url}/api/v1/balance`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'api_key_missing' });
    for (const bad of ['sd_nope', 'x'.repeat(5000), 'Basic abc']) {
      const res = await balanceWith(bad);
      expect(res.status).toBe(401);
    }
  });
});
