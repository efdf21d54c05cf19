import {
  type EndpointDeclaration,
  endpointPath,
  endpoints,
  REAUTH_HEADER,
  REAUTH_SECONDS,
} from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import type { TestSmtp } from '../../test/smtp.ts';
import { serverWithSmtp } from '../../test/suites.ts';
import { TOTP_PERIOD, totpFor } from './second-factor.ts';

// The second factor holds against someone who has the password, and a stolen session does not
// become a foothold: wrong codes are limited per account across challenges and calls, and the calls
// that would outlive the session need a fresh re-authentication.

let smtp: TestSmtp;
let s: TestServer;
let ipSeq = 0;

serverWithSmtp(
  {
    TRUST_PROXY: 'true',
    SECOND_FACTOR_MAX_FAILURES: '5',
    SECOND_FACTOR_MAX_FAILURES_PER_IP: '8',
    SECOND_FACTOR_WINDOW_MINUTES: '60',
    // High, so that the sign-in limits are not what stops the guessing here (their own test sets them).
    LOGIN_MAX_FAILURES_PER_USER_IP: '1000',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
    LOGIN_MAX_FAILURES_PER_IP: '1000',
  },
  (t) => {
    ({ s, smtp } = t);
  },
);

type User = Awaited<ReturnType<TestServer['createUser']>>;
const nextIp = () => `198.51.100.${++ipSeq}`;
const code = (secret: string, server = s) =>
  totpFor(secret, '').generate({ timestamp: server.clock.now().getTime() });
const nextStep = (server = s) => server.clock.advance(TOTP_PERIOD * 1000);

/** A JSON POST from a client address, with a session and headers. */
async function post(
  endpoint: EndpointDeclaration,
  body: unknown,
  opts: { ip?: string; token?: string; headers?: Record<string, string>; server?: TestServer } = {},
) {
  const res = await fetch(`${(opts.server ?? s).url}${endpointPath(endpoint)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': opts.ip ?? '192.0.2.1',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies field by field.
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

async function enrol(u: User, server = s): Promise<string> {
  const reauth = await server.reauth(u);
  const secret = (await server.api(endpoints.secondFactor.start, { token: u.token, headers: reauth })).body
    .secret as string;
  const ok = await server.api(endpoints.secondFactor.confirm, {
    body: { code: code(secret, server) },
    token: u.token,
    headers: reauth,
  });
  expect(ok.status).toBe(200);
  nextStep(server);
  return secret;
}

const login = (u: User, ip: string, server = s) =>
  post(endpoints.auth.login, { username: u.username, password: u.password }, { ip, server });

const audits = (kind: string, userId: string) =>
  s.db.query('SELECT 1 FROM audit_log WHERE kind = $1 AND target_id = $2', [kind, userId]);

describe('the second factor against someone who has the password', () => {
  it('locks the account after 5 wrong codes across challenges: no new challenge, not even the right code (429), audited and mailed once', async () => {
    const u = await s.createUser();
    const secret = await enrol(u);
    const ip = nextIp();
    const before = smtp.mails.length;
    // Five wrong codes spread over fresh challenges (a correct password each time).
    for (let i = 0; i < 5; i++) {
      const c = await login(u, ip);
      expect(c.body.secondFactor).toBe(true);
      const wrong = await post(
        endpoints.secondFactor.login,
        { challenge: c.body.challenge, code: '000000' },
        { ip },
      );
      expect(wrong.status).toBe(400);
    }
    const refused = await login(u, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(refused.body.msg).toContain(`${Math.ceil(retryAfter / 60)} minutes`);
    // Many more tries from elsewhere change nothing, and write no further audit row or mail.
    for (let i = 0; i < 10; i++) expect((await login(u, nextIp())).status).toBe(429);
    expect(await audits('user.secondFactorLimited', u.id)).toHaveLength(1);
    const mail = await smtp.waitForMail(before + 1);
    expect(mail.subject).toBe('Someone knows your SimDock password');
    expect(mail.to).toEqual([`${u.username}@example.com`]);
    expect(smtp.mails).toHaveLength(before + 1);

    // After the window the owner signs in with the right code.
    s.clock.advance(61 * 60_000);
    const c = await login(u, ip);
    const ok = await post(
      endpoints.secondFactor.login,
      { challenge: c.body.challenge, code: code(secret) },
      { ip },
    );
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
  });

  it('refuses the right code on a live challenge once the account is locked', async () => {
    const u = await s.createUser();
    const secret = await enrol(u);
    const ip = nextIp();
    const held = (await login(u, ip)).body.challenge as string;
    for (let i = 0; i < 5; i++) {
      const c = (await login(u, ip)).body.challenge as string;
      expect(
        (await post(endpoints.secondFactor.login, { challenge: c, code: '999999' }, { ip })).status,
      ).toBe(400);
    }
    const right = await post(endpoints.secondFactor.login, { challenge: held, code: code(secret) }, { ip });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    s.clock.advance(61 * 60_000);
  });

  it('limits wrong codes per client address across accounts', async () => {
    const ip = nextIp();
    const users = [await s.createUser(), await s.createUser()];
    for (const u of users) await enrol(u);
    // 4 wrong codes for each account (under the per-account 5), 8 from the address.
    for (const u of users) {
      for (let i = 0; i < 4; i++) {
        const c = (await login(u, ip)).body.challenge as string;
        expect(
          (await post(endpoints.secondFactor.login, { challenge: c, code: '123123' }, { ip })).status,
        ).toBe(400);
      }
    }
    const third = await s.createUser();
    const secret = await enrol(third);
    const c = (await login(third, ip)).body.challenge as string;
    expect(
      (await post(endpoints.secondFactor.login, { challenge: c, code: code(secret) }, { ip })).status,
    ).toBe(429);
    s.clock.advance(61 * 60_000);
  });

  it('counts turning the factor off and new recovery codes toward the same limit', async () => {
    const u = await s.createUser();
    const secret = await enrol(u);
    const reauth = await s.reauth(u, code(secret));
    nextStep();
    for (let i = 0; i < 3; i++)
      expect(
        (
          await s.api(endpoints.secondFactor.disable, {
            body: { code: '000000' },
            token: u.token,
            headers: reauth,
          })
        ).status,
      ).toBe(400);
    for (let i = 0; i < 2; i++)
      expect(
        (
          await s.api(endpoints.secondFactor.regenerate, {
            body: { code: '000000' },
            token: u.token,
            headers: reauth,
          })
        ).status,
      ).toBe(400);
    const right = await s.api(endpoints.secondFactor.disable, {
      body: { code: code(secret) },
      token: u.token,
      headers: reauth,
    });
    expect(right.status).toBe(429);
    // The sign-in is locked as well.
    expect((await login(u, nextIp())).status).toBe(429);
    s.clock.advance(61 * 60_000);
  });
});

describe('sign-in counters with the factor on', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES_PER_USER_IP: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a right password alone does not clear them: only the right code does', async () => {
    const u = await t.createUser();
    const secret = await enrol(u, t);
    const ip = '203.0.113.5';
    for (let i = 0; i < 3; i++) expect((await login(u, ip, t)).body.secondFactor).toBe(true);
    const fourth = await login(u, ip, t);
    expect(fourth.status).toBe(429);
    t.clock.advance(16 * 60_000);
    const c = (await login(u, ip, t)).body.challenge as string;
    const ok = await post(
      endpoints.secondFactor.login,
      { challenge: c, code: code(secret, t) },
      { ip, server: t },
    );
    expect(ok.status).toBe(200);
    // The success cleared the pair's count: three more sign-ins are allowed again.
    for (let i = 0; i < 3; i++) expect((await login(u, ip, t)).status).toBe(200);
  });

  it('counts wrong re-authentication passwords like wrong old passwords (LOGIN_MAX_FAILURES_PER_USER_IP, here 3)', async () => {
    const u = await t.createUser();
    for (let i = 0; i < 3; i++) {
      const res = await t.api(endpoints.secondFactor.reauth, {
        body: { password: `guess-${i}-xx` },
        token: u.token,
      });
      expect(res).toMatchObject({ status: 400, body: { field: 'password' } });
    }
    const limited = await t.api(endpoints.secondFactor.reauth, {
      body: { password: u.password },
      token: u.token,
    });
    expect(limited.status).toBe(429);
    // The password change shares the budget.
    expect(
      (
        await t.api(endpoints.account.changePass, {
          body: { oldPass: u.password, newPass: 'another-pass-5' },
          token: u.token,
        })
      ).status,
    ).toBe(429);
  });
});

describe('re-authentication before the calls that outlive a session', () => {
  const guarded: [EndpointDeclaration, unknown][] = [
    [endpoints.apikey.reset, {}],
    [endpoints.apikey.createKey, { name: 'thief', scopes: ['rental'] }],
    [endpoints.webhooks.add, { url: 'https://hooks.example.com/x' }],
    [endpoints.webhooks.events, { id: '1', events: ['message.sent'] }],
    [endpoints.secondFactor.start, {}],
    [endpoints.secondFactor.confirm, { code: '123456' }],
    [endpoints.secondFactor.disable, { code: '123456' }],
    [endpoints.secondFactor.regenerate, { code: '123456' }],
  ];

  it('refuses each guarded call with a session alone (403 reauth_required), whatever the body', async () => {
    const u = await s.createUser();
    for (const [endpoint, body] of guarded) {
      const res = await s.api(endpoint, { rawBody: body, token: u.token });
      expect(res.status, endpoint.path).toBe(403);
      expect(res.body.error, endpoint.path).toBe('reauth_required');
    }
    expect((await s.api(endpoints.apikey.keys, { token: u.token })).body.keys).toEqual([]);
  });

  it('lets a fresh proof through, for its own user only, for REAUTH_SECONDS, and not past a password change', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const proof = await s.reauth(u);
    expect((await s.api(endpoints.apikey.reset, { token: u.token, headers: proof })).status).toBe(200);
    // Another user's proof, a made-up one, a session token as proof: refused.
    expect((await s.api(endpoints.apikey.reset, { token: other.token, headers: proof })).body.error).toBe(
      'reauth_required',
    );
    expect(
      (await s.api(endpoints.apikey.reset, { token: u.token, headers: { [REAUTH_HEADER]: 'x.y.z' } })).status,
    ).toBe(403);
    expect(
      (await s.api(endpoints.apikey.reset, { token: u.token, headers: { [REAUTH_HEADER]: u.token } })).status,
    ).toBe(403);
    s.clock.advance((REAUTH_SECONDS + 1) * 1000);
    expect((await s.api(endpoints.apikey.reset, { token: u.token, headers: proof })).body.error).toBe(
      'reauth_required',
    );
    const fresh = await s.reauth(u);
    const changed = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'changed-pass-77' },
      token: u.token,
    });
    expect(changed.status).toBe(200);
    expect(
      (await s.api(endpoints.apikey.reset, { token: changed.body.token, headers: fresh })).body.error,
    ).toBe('reauth_required');
  });

  it('asks for the code too when the factor is on', async () => {
    const u = await s.createUser();
    const secret = await enrol(u);
    const noCode = await s.api(endpoints.secondFactor.reauth, {
      body: { password: u.password },
      token: u.token,
    });
    expect(noCode).toMatchObject({ status: 400, body: { field: 'code' } });
    const wrong = await s.api(endpoints.secondFactor.reauth, {
      body: { password: u.password, code: '000000' },
      token: u.token,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'second_factor_invalid', field: 'code' } });
    const ok = await s.api(endpoints.secondFactor.reauth, {
      body: { password: u.password, code: code(secret) },
      token: u.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.expiresIn).toBe(REAUTH_SECONDS);
  });

  it('a password change offers to delete every API key, voids older challenges, and mails the owner', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    const key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey as string;
    expect((await smtp.waitForMail(before + 1)).subject).toBe('A new SimDock API key was made');
    const balance = async () =>
      String((await s.call('GET', `/stubs/handler_api.php?api_key=${key}&action=getBalance`)).body);
    // Without the option the keys stay.
    const kept = await s.api(endpoints.account.changePass, {
      body: { oldPass: u.password, newPass: 'second-pass-88' },
      token: u.token,
    });
    expect(kept.status).toBe(200);
    expect(await balance()).toMatch(/^ACCESS_BALANCE/);
    expect((await smtp.waitForMail(before + 2)).subject).toBe('Your SimDock password was changed');
    const revoked = await s.api(endpoints.account.changePass, {
      body: { oldPass: 'second-pass-88', newPass: 'third-pass-99', revokeKeys: true },
      token: kept.body.token,
    });
    expect(revoked.status).toBe(200);
    expect(await balance()).toBe('BAD_KEY');

    // A challenge issued before a password change no longer works.
    const v = await s.createUser();
    const secret = await enrol(v);
    const c = (await login(v, nextIp())).body.challenge as string;
    expect(
      (
        await s.api(endpoints.account.changePass, {
          body: { oldPass: v.password, newPass: 'v-new-pass-11' },
          token: v.token,
        })
      ).status,
    ).toBe(200);
    const late = await post(endpoints.secondFactor.login, { challenge: c, code: code(secret) });
    expect(late.status).toBe(401);
    expect(late.body.error).toBe('second_factor_challenge_invalid');
  });

  it('mails the owner when the factor is turned on and off', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    // Made while the factor was off: it checked no code.
    const early = await s.reauth(u);
    const secret = await enrol(u);
    expect((await smtp.waitForMail(before + 1)).subject).toBe('Two-factor authentication is on');
    const noCode = await s.api(endpoints.secondFactor.disable, {
      body: { code: '' },
      token: u.token,
      headers: early,
    });
    expect(noCode).toMatchObject({ status: 400, body: { error: 'second_factor_invalid', field: 'code' } });
    // A re-authentication with a code covers the call: the person is not asked for a second code.
    const reauth = await s.reauth(u, code(secret));
    expect(
      (await s.api(endpoints.secondFactor.disable, { body: { code: '' }, token: u.token, headers: reauth }))
        .status,
    ).toBe(200);
    expect((await smtp.waitForMail(before + 2)).subject).toBe('Two-factor authentication is off');
  });
});
