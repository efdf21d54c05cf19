import { endpoints, ruleMessages } from '@simdock/contract';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_USER_IP: '3' } });
});
afterAll(async () => {
  await s.close();
});

const register = (body: Record<string, string>) => s.api(endpoints.auth.register, { rawBody: body });

describe('POST /api/Auth/register', () => {
  it('creates a User with balance 0, lower-casing username and email', async () => {
    const res = await register({
      username: 'Alice_1',
      email: 'Alice@Example.COM',
      passwordHash: 'secret-pass',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 1, msg: 'Registration successful. Please Login.' });
    const token = await s.login('alice_1', 'secret-pass');
    const info = await s.api(endpoints.user.info, { token });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      username: 'alice_1',
      email: 'alice@example.com',
      balance: 0,
      roles: ['User'],
    });
    const [row] = await s.db.query<{ password_hash: string; status: string }>(
      'SELECT password_hash, status FROM users WHERE username = $1',
      ['alice_1'],
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.status).toBe('Active');
  });

  it.each([
    [
      { username: '', email: 'a@b.co', passwordHash: 'longenough' },
      'username',
      ruleMessages.usernameRequired,
    ],
    [
      { username: 'ab', email: 'a@b.co', passwordHash: 'longenough' },
      'username',
      ruleMessages.usernameFormat,
    ],
    [
      { username: 'a'.repeat(17), email: 'a@b.co', passwordHash: 'longenough' },
      'username',
      ruleMessages.usernameFormat,
    ],
    [
      { username: 'bad-name', email: 'a@b.co', passwordHash: 'longenough' },
      'username',
      ruleMessages.usernameFormat,
    ],
    [{ username: 'bob', email: '', passwordHash: 'longenough' }, 'email', ruleMessages.emailRequired],
    [
      { username: 'bob', email: 'not-an-email', passwordHash: 'longenough' },
      'email',
      ruleMessages.emailInvalid,
    ],
    [{ username: 'bob', email: 'b@b.co', passwordHash: '' }, 'password', ruleMessages.passwordRequired],
    [{ username: 'bob', email: 'b@b.co', passwordHash: 'short' }, 'password', ruleMessages.passwordTooShort],
  ])('refuses %j with the spec message', async (body, field, msg) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field, msg });
  });

  it('refuses a missing field with a 400 that names it', async () => {
    const res = await register({ username: 'carol', email: 'c@c.co' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, field: 'passwordHash' });
  });

  it('refuses a taken username or email (case-insensitively) with 409', async () => {
    await register({ username: 'dave', email: 'dave@example.com', passwordHash: 'dave-pass-77' });
    const sameName = await register({
      username: 'DAVE',
      email: 'other@example.com',
      passwordHash: 'dave-pass-77',
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ field: 'username', msg: 'This username is already taken.' });
    const sameEmail = await register({
      username: 'dave2',
      email: 'Dave@Example.com',
      passwordHash: 'dave-pass-77',
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ field: 'email' });
  });
});

describe('POST /api/Auth/login', () => {
  it('returns a JWT with subject, username, role claim and expiry', async () => {
    const u = await s.createUser({ roles: ['User', 'SMS'] });
    const [, payload] = u.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: u.id, username: u.username, role: ['User', 'SMS'] });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    const admin = JSON.parse(Buffer.from((await s.adminToken()).split('.')[1]!, 'base64url').toString());
    expect(admin.role).toBe('Admin9');
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const u = await s.createUser();
    const wrong = await s.api(endpoints.auth.login, {
      body: { username: u.username, password: 'wrong-password' },
    });
    const unknown = await s.api(endpoints.auth.login, {
      body: { username: 'nobody_here', password: 'wrong-password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.msg).toBe(unknown.body.msg);
  });

  it('refuses an inactive user', async () => {
    const u = await s.createUser();
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [u.id]);
    const res = await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } });
    expect(res.status).toBe(401);
    // Its existing token stops working too.
    expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(401);
  });

  it('rate limits failures per username with 429, even for the right password, until the window passes', async () => {
    const u = await s.createUser();
    for (let i = 0; i < 3; i++) {
      expect(
        (await s.api(endpoints.auth.login, { body: { username: u.username, password: 'nope-nope' } })).status,
      ).toBe(401);
    }
    const limited = await s.api(endpoints.auth.login, {
      body: { username: u.username, password: u.password },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/Too many failed sign-in attempts/);
    s.clock.advance(16 * 60_000);
    expect(
      (await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } })).status,
    ).toBe(200);
  });
});

describe('rate limit per IP', () => {
  it('limits many usernames from one address', async () => {
    const t = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_IP: '4' } });
    try {
      // A forged X-Forwarded-For does not make each attempt a new address (TRUST_PROXY is off).
      for (let i = 0; i < 4; i++) {
        await fetch(`${t.url}/api/Auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${i}` },
          body: JSON.stringify({ username: `ghost${i}`, password: 'whatever1' }),
        });
      }
      const res = await t.api(endpoints.auth.login, {
        body: { username: 'admin', password: 'admin-password-1' },
      });
      expect(res.status).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('user info and change password', () => {
  it('changes the password only with the right old one', async () => {
    const u = await s.createUser();
    const bad = await s.api(endpoints.account.changePass, {
      body: { oldPass: 'not-it-at-all', newPass: 'new-password-1' },
      token: u.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 0, field: 'oldPass' });
    const short = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'short' },
      token: u.token,
    });
    expect(short.body).toMatchObject({ code: 0, msg: ruleMessages.passwordTooShort });
    const ok = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'new-password-1' },
      token: u.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(1);
    expect(
      (await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } })).status,
    ).toBe(401);
    expect(await s.login(u.username, 'new-password-1')).toBeTruthy();
  });

  it('ends the other sessions on a password change; the changing browser gets a new token', async () => {
    const u = await s.createUser();
    const otherDevice = await s.login(u.username, u.password);
    const res = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'another-pass-9' },
      token: u.token,
    });
    expect(res.body).toMatchObject({ code: 1, token: expect.any(String) });
    for (const old of [u.token, otherDevice]) {
      const refused = await s.api(endpoints.user.info, { token: old });
      expect(refused.status).toBe(401);
      expect(refused.body.msg).toMatch(/session has ended/);
    }
    expect((await s.api(endpoints.user.info, { token: res.body.token })).status).toBe(200);
  });

  it('returns the user info fields (docs/product.md#entities)', async () => {
    const u = await s.createUser({ balance: 12.5 });
    const info = await s.api(endpoints.user.info, { token: u.token });
    expect(Object.keys(info.body).sort()).toEqual([
      'apiKey',
      'balance',
      'createdTime',
      'email',
      'roles',
      'username',
    ]);
    expect(info.body.balance).toBe(12.5);
  });
});

describe('tokens', () => {
  it('refuses a missing, tampered, foreign-signed or expired token', async () => {
    const u = await s.createUser();
    expect((await s.api(endpoints.user.info)).status).toBe(401);
    const [h, p, sig] = u.token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'Admin9' })).toString('base64url');
    expect((await s.api(endpoints.user.info, { token: `${h}.${forged}.${sig}` })).status).toBe(401);
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-another-secret-12345'));
    expect((await s.api(endpoints.user.info, { token: foreign })).status).toBe(401);
    s.clock.advance(25 * 3600_000);
    const expired = await s.api(endpoints.user.info, { token: u.token });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toMatch(/expired/);
    s.clock.advance(-25 * 3600_000);
  });

  it('ends a token in use at its expiry to the second, and a password change ends it at once', async () => {
    const u = await s.createUser();
    const { exp, iat } = JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString());
    // Used again and again (a verified token is not verified twice): still checked on every request.
    for (let i = 0; i < 3; i++)
      expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(200);
    const start = s.clock.now().getTime();
    s.clock.set(new Date(exp * 1000 - 1000));
    expect((await s.api(endpoints.user.info, { token: u.token })).status).toBe(200);
    s.clock.set(new Date(exp * 1000));
    const expired = await s.api(endpoints.user.info, { token: u.token });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toMatch(/expired/);
    s.clock.set(new Date(start));
    expect(iat).toBeLessThan(exp);

    const v = await s.createUser();
    expect((await s.api(endpoints.user.info, { token: v.token })).status).toBe(200);
    const changed = await s.api(endpoints.account.changePass, {
      body: { oldPass: v.password, newPass: 'another-pass-123' },
      token: v.token,
    });
    expect(changed.status).toBe(200);
    expect((await s.api(endpoints.user.info, { token: v.token })).status).toBe(401);
  });

  it('gives a User 403 on an admin route and the admin 200', async () => {
    const u = await s.createUser();
    const res = await s.api(endpoints.order.adminOrders, { query: { page: 1 }, token: u.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 0, error: 'forbidden' });
    expect(
      (await s.api(endpoints.order.adminOrders, { query: { page: 1 }, token: await s.adminToken() })).status,
    ).toBe(200);
  });
});

describe('http basics', () => {
  it('matches routes case-insensitively and answers unknown routes with a JSON 404', async () => {
    const u = await s.createUser();
    expect((await s.post('/API/USER/INFO', {}, u.token)).status).toBe(200);
    const missing = await s.post('/api/nope', {});
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 0, error: 'not_found' });
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const res = await fetch(`${s.url}/api/Auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 0 });
  });

  it('serves health, readiness and the OpenAPI document', async () => {
    expect((await s.call('GET', '/healthz')).status).toBe(200);
    expect((await s.call('GET', '/readyz')).status).toBe(200);
    const doc = await s.call<{ paths: Record<string, unknown> }>('GET', '/swagger/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain('/api/Auth/login');
  });

  it('never logs passwords or tokens', async () => {
    await s.api(endpoints.auth.register, {
      body: {
        username: 'logcheck',
        email: 'l@c.co',
        passwordHash: 'Sup3rSecretPw',
      },
    });
    const token = await s.login('logcheck', 'Sup3rSecretPw');
    await s.api(endpoints.user.info, { token });
    const all = s.logs.join('\n');
    expect(all).toContain('"reqId"');
    expect(all).not.toContain('Sup3rSecretPw');
    expect(all).not.toContain(token);
  });
});

describe('first start', () => {
  it('creates the admin with a random password handed to the start banner, never to a log line', async () => {
    const t = await startTestServer({ env: { ADMIN_PASSWORD: '' } });
    try {
      const password = t.generatedAdminPassword;
      expect(password).toMatch(/^[\w-]{16}$/);
      const token = await t.login('admin', password!);
      expect((await t.api(endpoints.user.info, { token })).body.roles).toEqual(['Admin9']);
      // The log says an admin was created, and says where the password is, without it.
      expect(t.logs.some((l) => l.includes('Created admin account'))).toBe(true);
      expect(t.logs.filter((l) => l.includes(password!))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
