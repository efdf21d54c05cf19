import { type EndpointDeclaration, endpointPath, endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords.ts';
import { clientGroup, secondsLeft } from './limits.ts';

/** A JSON POST from a given client address (the servers here trust X-Forwarded-For). */
async function postFrom(
  s: TestServer,
  ip: string,
  endpoint: EndpointDeclaration,
  body: unknown,
  token?: string,
) {
  const res = await fetch(`${s.url}${endpointPath(endpoint)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': ip,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field.
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

const count = (statuses: number[], status: number) => statuses.filter((x) => x === status).length;

describe('pure rules', () => {
  it('groups IPv6 clients by /64, keeps IPv4, reads IPv4-mapped addresses as IPv4', () => {
    expect(clientGroup('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:2:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(clientGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientGroup('not an address')).toBe('not an address');
  });

  it('computes the wait until a window ends, at least one second', () => {
    const start = new Date('2030-01-01T00:00:00Z');
    expect(secondsLeft(start, 900_000, new Date('2030-01-01T00:10:00Z'))).toBe(300);
    expect(secondsLeft(start, 900_000, new Date('2030-01-01T00:20:00Z'))).toBe(1);
  });

  it('knows the most common passwords and one-character passwords', () => {
    for (const p of ['12345678', 'password', 'PassWord', '        ', 'aaaaaaaaaa', 'qwertyuiop', 'iloveyou'])
      expect(isCommonPassword(p), p).toBe(true);
    for (const p of ['dave-pass-77', 'correct horse battery', 'Sup3rSecretPw'])
      expect(isCommonPassword(p), p).toBe(false);
  });
});

describe('per-account sign-in budget and device tokens', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: {
        TRUST_PROXY: 'true',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '10',
        LOGIN_MAX_FAILURES_PER_USER_IP: '5',
        LOGIN_MAX_FAILURES_PER_IP: '1000',
        LOGIN_SLOWDOWN_AFTER: '1000',
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('lets exactly the budget of 40 parallel guesses from 40 addresses be checked, then refuses even the right password; the owner signs in with the device token', async () => {
    const u = await s.createUser();
    const first = await postFrom(s, '192.0.2.1', endpoints.auth.login, {
      username: u.username,
      password: u.password,
    });
    expect(first.status).toBe(200);
    expect(first.body.deviceToken).toMatch(/^[\w-]{43}$/);
    expect(first.headers.get('cache-control')).toBe('no-store');

    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postFrom(s, `198.51.100.${i + 1}`, endpoints.auth.login, {
          username: u.username,
          password: `guess-${i}-guess`,
        }).then((r) => r.status),
      ),
    );
    expect(count(statuses, 401)).toBe(10);
    expect(count(statuses, 429)).toBe(30);

    const refused = await postFrom(s, '203.0.113.200', endpoints.auth.login, {
      username: u.username,
      password: u.password,
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 0, error: 'too_many_requests' });
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);

    // The owner's browser: its device token skips the per-account budget.
    const owner = await postFrom(s, '203.0.113.200', endpoints.auth.login, {
      username: u.username,
      password: u.password,
      deviceToken: first.body.deviceToken,
    });
    expect(owner.status).toBe(200);
    expect(owner.body.deviceToken).toBe(first.body.deviceToken);
    // Stored hashed: the token itself is nowhere in the table.
    const [row] = await s.db.query<{ mine: number; plain: number }>(
      `SELECT count(*)::int AS mine, count(*) FILTER (WHERE token_hash = $2)::int AS plain
       FROM device_tokens WHERE user_id = $1`,
      [u.id, first.body.deviceToken],
    );
    expect(row).toEqual({ mine: 2, plain: 0 });

    // Another account's device token, or a made-up one, exempts nothing.
    const other = await s.createUser();
    const otherDevice = await postFrom(s, '192.0.2.2', endpoints.auth.login, {
      username: other.username,
      password: other.password,
    });
    for (const deviceToken of [otherDevice.body.deviceToken, 'x'.repeat(43)]) {
      const res = await postFrom(s, '203.0.113.201', endpoints.auth.login, {
        username: u.username,
        password: u.password,
        deviceToken,
      });
      expect(res.status).toBe(429);
    }

    // The window passes: the budget is back.
    s.clock.advance(16 * 60_000);
    expect(
      (
        await postFrom(s, '203.0.113.202', endpoints.auth.login, {
          username: u.username,
          password: u.password,
        })
      ).status,
    ).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    const u = await s.createUser();
    for (let i = 1; i <= 5; i++) {
      const res = await postFrom(s, `2001:db8:77:1::${i}`, endpoints.auth.login, {
        username: u.username,
        password: 'wrong-pass-here',
      });
      expect(res.status).toBe(401);
    }
    const sameNet = await postFrom(s, '2001:db8:77:1:abcd::9', endpoints.auth.login, {
      username: u.username,
      password: u.password,
    });
    expect(sameNet.status).toBe(429);
    const otherNet = await postFrom(s, '2001:db8:77:2::1', endpoints.auth.login, {
      username: u.username,
      password: u.password,
    });
    expect(otherNet.status).toBe(200);
  });
});

describe('refusals do not count against the address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: {
        TRUST_PROXY: 'true',
        LOGIN_MAX_FAILURES_PER_USER_IP: '3',
        LOGIN_MAX_FAILURES_PER_IP: '5',
        LOGIN_SLOWDOWN_AFTER: '1000',
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('a burst of 30 against one account leaves the other users at that address able to sign in', async () => {
    const target = await s.createUser();
    const neighbour = await s.createUser();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postFrom(s, '198.51.100.50', endpoints.auth.login, {
          username: target.username,
          password: `nope-${i}-nope`,
        }).then((r) => r.status),
      ),
    );
    expect(count(statuses, 401)).toBe(3);
    expect(count(statuses, 429)).toBe(27);
    const res = await postFrom(s, '198.51.100.50', endpoints.auth.login, {
      username: neighbour.username,
      password: neighbour.password,
    });
    expect(res.status).toBe(200);
    // Checked failures still count: two more on other usernames reach the address limit of 5.
    for (const name of ['ghost_a', 'ghost_b']) {
      const r = await postFrom(s, '198.51.100.50', endpoints.auth.login, {
        username: name,
        password: 'whatever-1',
      });
      expect(r.status).toBe(401);
    }
    const over = await postFrom(s, '198.51.100.50', endpoints.auth.login, {
      username: neighbour.username,
      password: neighbour.password,
    });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('password change limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOGIN_MAX_FAILURES_PER_USER_IP: '5' } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('checks at most 5 of 40 parallel wrong old passwords, then answers 429 (audited) until the window passes', async () => {
    const u = await s.createUser();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        s
          .api(endpoints.account.changePass, {
            body: { oldPass: `old-guess-${i}`, newPass: 'fresh-pass-42' },
            token: u.token,
          })
          .then((r) => r.status),
      ),
    );
    expect(count(statuses, 400)).toBe(5);
    expect(count(statuses, 429)).toBe(35);
    const right = await fetch(`${s.url}/api/user/changepass`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
      body: JSON.stringify({ oldPass: u.password, newPass: 'fresh-pass-42' }),
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    const audit = await s.db.query<{ actor_id: string }>(
      `SELECT actor_id FROM audit_log WHERE kind = 'user.passwordChangeLimited' AND target_id = $1`,
      [u.id],
    );
    // Audited once for the window, however many refusals: a caller cannot flood the admin log.
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBe(u.id);
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await s.api(endpoints.account.changePass, {
            body: { oldPass: 'x-guess-1', newPass: 'fresh-pass-42' },
            token: u.token,
          })
        ).status,
      ).toBe(429);
    }
    expect(
      await s.db.query(
        `SELECT 1 FROM audit_log WHERE kind = 'user.passwordChangeLimited' AND target_id = $1`,
        [u.id],
      ),
    ).toHaveLength(1);
    s.clock.advance(16 * 60_000);
    const later = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'fresh-pass-42' },
      token: u.token,
    });
    expect(later.status).toBe(200);
  });

  it('refuses a common new password with the clear message, without counting it', async () => {
    const u = await s.createUser();
    for (const newPass of [
      '12345678',
      'password',
      '        ',
      'password',
      'password',
      'password',
      'password',
    ]) {
      const res = await s.api(endpoints.account.changePass, {
        body: { oldPass: u.password, newPass },
        token: u.token,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'newPass', msg: COMMON_PASSWORD_MESSAGE });
    }
    const ok = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'a-fine-pass-7' },
      token: u.token,
    });
    expect(ok.status).toBe(200);
  });
});

describe('registration limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { TRUST_PROXY: 'true', REGISTRATIONS_PER_ADDRESS_PER_HOUR: '3', REGISTRATIONS_PER_HOUR: '5' },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  const reg = (ip: string, name: string, password = 'reg-pass-123') =>
    postFrom(s, ip, endpoints.auth.register, {
      username: name,
      email: `${name}@example.com`,
      passwordHash: password,
    });

  it('refuses common passwords with the clear message', async () => {
    for (const password of ['12345678', 'password', '        ']) {
      const res = await reg('192.0.2.90', 'weakling', password);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'password', msg: COMMON_PASSWORD_MESSAGE });
    }
    // The spec's length rule and message stay first.
    expect((await reg('192.0.2.90', 'weakling', 'short')).body.msg).toBe(
      'Password must be at least 8 characters',
    );
  });

  it('lets exactly 3 of 8 parallel registrations from one address through, then caps all addresses at 5 an hour', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reg('198.51.100.9', `burst_${i}`)));
    const statuses = results.map((r) => r.status);
    expect(count(statuses, 200)).toBe(3);
    expect(count(statuses, 429)).toBe(5);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ error: 'too_many_requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // A taken name uses budget like an account (4 of 5), or usernames could be probed freely.
    const taken = `burst_${statuses.indexOf(200)}`;
    expect((await reg('198.51.100.10', taken)).status).toBe(409);
    expect((await reg('198.51.100.10', 'other_1')).status).toBe(200);
    // Global ceiling of 5 reached: a new address is refused too.
    expect((await reg('2001:db8:6::1', 'other_3')).status).toBe(429);
    s.clock.advance(61 * 60_000);
    expect((await reg('2001:db8:6::1', 'other_3')).status).toBe(200);
  });

  it('counts a refused registration (name taken): probing usernames from one address stops at the limit', async () => {
    s.clock.advance(61 * 60_000);
    expect((await reg('192.0.2.200', 'probed_name')).status).toBe(200);
    const ip = '203.0.113.77';
    for (let i = 0; i < 3; i++) expect((await reg(ip, 'probed_name')).status).toBe(409);
    const probe = await reg(ip, 'burst_1');
    expect(probe.status).toBe(429);
    expect(probe.body.msg).not.toMatch(/taken/);
    expect(Number(probe.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('tokens and keys are never cached', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('sends Cache-Control: no-store on sign-in, register, user info and the API key page', async () => {
    const u = await s.createUser();
    const check = async (endpoint: EndpointDeclaration, body: unknown, token?: string) => {
      const res = await fetch(`${s.url}${endpointPath(endpoint)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      expect(res.headers.get('cache-control'), endpoint.path).toBe('no-store');
      return res.status;
    };
    expect(await check(endpoints.auth.login, { username: u.username, password: u.password })).toBe(200);
    expect(
      await check(endpoints.auth.register, {
        username: 'nocache',
        email: 'n@c.co',
        passwordHash: 'nocache-pass-1',
      }),
    ).toBe(200);
    expect(await check(endpoints.user.info, {}, u.token)).toBe(200);
    expect(await check(endpoints.apikey.get, {}, u.token)).toBe(200);
  });
});
