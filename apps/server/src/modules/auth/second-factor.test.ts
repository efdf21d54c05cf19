import { endpoints, SECOND_FACTOR_CODE_MAX } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import {
  isRecoveryCode,
  newRecoveryCodes,
  normalizeCode,
  TOTP_PERIOD,
  totpFor,
  totpStep,
} from './second-factor.ts';

const code = (secret: string, at: Date) => totpFor(secret, '').generate({ timestamp: at.getTime() });

describe('TOTP pieces', () => {
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  it('accepts the current code and ±1 step of drift, nothing further', () => {
    const now = new Date('2030-01-01T00:00:15Z');
    const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD);
    expect(totpStep(secret, code(secret, now), now)).toBe(step);
    expect(totpStep(secret, code(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStep(secret, code(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(totpStep(secret, code(secret, new Date(now.getTime() - 90_000)), now)).toBeNull();
    expect(totpStep(secret, 'abcdef', now)).toBeNull();
  });
  it('makes distinct recovery codes of the documented shape', () => {
    const codes = newRecoveryCodes(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) {
      expect(c).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
      expect(isRecoveryCode(normalizeCode(c))).toBe(true);
    }
    expect(normalizeCode(' AB12C-de34f ')).toBe('ab12cde34f');
  });
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

/** Moves the test clock one step on, so the next code is a fresh one. */
const nextStep = () => s.clock.advance(TOTP_PERIOD * 1000);

type Signed = { token: string; password: string; username: string };

async function enrol(u: Signed) {
  const { token, username } = u;
  const reauth = await s.reauth(u);
  const start = await s.api(endpoints.secondFactor.start, { token, headers: reauth });
  expect(start.status).toBe(200);
  const secret: string = start.body.secret;
  expect(start.body.uri).toContain(`otpauth://totp/SimDock:${username}`);
  expect(start.body.qr).toMatch(/^data:image\/svg\+xml;base64,/);
  const confirm = await s.api(endpoints.secondFactor.confirm, {
    body: { code: code(secret, s.clock.now()) },
    token,
    headers: reauth,
  });
  expect(confirm.status).toBe(200);
  nextStep();
  return { secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

async function challenge(username: string, password: string): Promise<string> {
  const res = await s.api(endpoints.auth.login, { body: { username, password } });
  expect(res.status).toBe(200);
  expect(res.body.token).toBeUndefined();
  expect(res.body).toMatchObject({ secondFactor: true, expiresIn: 300, attemptsLeft: 5 });
  return res.body.challenge;
}

const second = (challengeToken: string, c: string) =>
  s.api(endpoints.secondFactor.login, { body: { challenge: challengeToken, code: c } });

describe('enrolment', () => {
  it('refuses a wrong code, enables with the right one, gives 10 recovery codes, is audited', async () => {
    const u = await s.createUser();
    const reauth = await s.reauth(u);
    const start = await s.api(endpoints.secondFactor.start, { token: u.token, headers: reauth });
    const secret: string = start.body.secret;
    const wrong = await s.api(endpoints.secondFactor.confirm, {
      body: { code: '000000' },
      token: u.token,
      headers: reauth,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'second_factor_invalid', field: 'code' });
    expect((await s.api(endpoints.secondFactor.status, { token: u.token })).body.enabled).toBe(false);
    const ok = await s.api(endpoints.secondFactor.confirm, {
      body: { code: code(secret, s.clock.now()) },
      token: u.token,
      headers: reauth,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.recoveryCodes).toHaveLength(10);
    const status = await s.api(endpoints.secondFactor.status, { token: u.token });
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    const [row] = await s.db.query<{ secret_enc: string }>(
      'SELECT secret_enc FROM user_second_factors WHERE user_id = $1',
      [u.id],
    );
    expect(row!.secret_enc).toMatch(/^v1\./);
    expect(row!.secret_enc).not.toContain(secret);
    const audits = await s.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE target_id = $1', [
      u.id,
    ]);
    expect(audits.map((a) => a.kind)).toContain('user.secondFactorEnable');
    const again = await s.api(endpoints.secondFactor.start, { token: u.token, headers: reauth });
    expect(again.status).toBe(409);
    nextStep();
  });

  it('holds a code to the contract limit the forms use (SECOND_FACTOR_CODE_MAX): a clear 400 on the field', async () => {
    const u = await s.createUser();
    const reauth = await s.reauth(u);
    await s.api(endpoints.secondFactor.start, { token: u.token, headers: reauth });
    const long = '1'.repeat(SECOND_FACTOR_CODE_MAX + 1);
    const res = await s.api(endpoints.secondFactor.confirm, {
      body: { code: long },
      token: u.token,
      headers: reauth,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      field: 'code',
      msg: `Code must be at most ${SECOND_FACTOR_CODE_MAX} characters.`,
    });
    const signIn = await s.api(endpoints.secondFactor.login, { body: { challenge: 'c', code: long } });
    expect(signIn.status).toBe(400);
    expect(signIn.body).toMatchObject({ field: 'code' });
  });
});

describe('sign-in with the factor', () => {
  it('gives no token after the password; the right code gives one; the same code is not taken twice', async () => {
    const u = await s.createUser();
    const { secret } = await enrol(u);
    const c1 = await challenge(u.username, u.password);
    const now = code(secret, s.clock.now());
    const ok = await second(c1, now);
    expect(ok.status).toBe(200);
    const info = await s.api(endpoints.user.info, { token: ok.body.token });
    expect(info.body.username).toBe(u.username);
    // The challenge is used up, and the code cannot be used again on a new one.
    expect((await second(c1, now)).body.error).toBe('second_factor_challenge_invalid');
    const c2 = await challenge(u.username, u.password);
    const replay = await second(c2, now);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('second_factor_invalid');
  });

  it('counts wrong codes: 4 left … 0, then the 6th is refused even with the right code', async () => {
    const u = await s.createUser();
    const { secret } = await enrol(u);
    const c = await challenge(u.username, u.password);
    for (let left = 4; left >= 0; left--) {
      const res = await second(c, '111111');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('second_factor_invalid');
      if (left > 0) expect(res.body.msg).toContain(`${left} attempt`);
    }
    const sixth = await second(c, code(secret, s.clock.now()));
    expect(sixth.status).toBe(401);
    expect(sixth.body.error).toBe('second_factor_challenge_invalid');
  });

  it('refuses an expired challenge', async () => {
    const u = await s.createUser();
    const { secret } = await enrol(u);
    const c = await challenge(u.username, u.password);
    s.clock.advance(301_000);
    const res = await second(c, code(secret, s.clock.now()));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('second_factor_challenge_invalid');
  });

  it('keeps the spec answer for accounts without the factor', async () => {
    const u = await s.createUser();
    const res = await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).filter((k) => k !== 'deviceToken')).toEqual(['token']);
  });
});

describe('recovery codes', () => {
  it('each works once; regenerating voids the old ones', async () => {
    const u = await s.createUser();
    const { secret, recoveryCodes } = await enrol(u);
    const c1 = await challenge(u.username, u.password);
    expect((await second(c1, recoveryCodes[0]!.toUpperCase())).status).toBe(200);
    const c2 = await challenge(u.username, u.password);
    expect((await second(c2, recoveryCodes[0]!)).status).toBe(400);
    const status = await s.api(endpoints.secondFactor.status, { token: u.token });
    expect(status.body.recoveryCodesLeft).toBe(9);
    // Re-authentication takes this step's code: the call below needs the next one.
    const reauth = await s.reauth(u, code(secret, s.clock.now()));
    nextStep();
    const badRegen = await s.api(endpoints.secondFactor.regenerate, {
      body: { code: recoveryCodes[1]! },
      token: u.token,
      headers: reauth,
    });
    expect(badRegen.status).toBe(400);
    const regen = await s.api(endpoints.secondFactor.regenerate, {
      body: { code: code(secret, s.clock.now()) },
      token: u.token,
      headers: reauth,
    });
    expect(regen.status).toBe(200);
    expect(regen.body.recoveryCodes).toHaveLength(10);
    nextStep();
    const c3 = await challenge(u.username, u.password);
    expect((await second(c3, recoveryCodes[1]!)).status).toBe(400);
    expect((await second(c3, regen.body.recoveryCodes[0]!)).status).toBe(200);
  });
});

describe('disable and admin reset', () => {
  it('disables with a recovery code; sign-in is the password alone again', async () => {
    const u = await s.createUser();
    const { secret, recoveryCodes } = await enrol(u);
    const reauth = await s.reauth(u, code(secret, s.clock.now()));
    expect(
      (
        await s.api(endpoints.secondFactor.disable, {
          body: { code: '123456' },
          token: u.token,
          headers: reauth,
        })
      ).status,
    ).toBe(400);
    const off = await s.api(endpoints.secondFactor.disable, {
      body: { code: recoveryCodes[2]! },
      token: u.token,
      headers: reauth,
    });
    expect(off.status).toBe(200);
    const login = await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } });
    expect(typeof login.body.token).toBe('string');
    const audits = await s.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE target_id = $1', [
      u.id,
    ]);
    expect(audits.map((a) => a.kind)).toContain('user.secondFactorDisable');
  });

  it('lets an admin reset another user (audited) and refuses a non-admin', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    await enrol(u);
    const refused = await s.api(endpoints.secondFactor.reset, { body: { id: u.id }, token: other.token });
    expect(refused.status).toBe(403);
    const admin = await s.adminToken();
    const res = await s.api(endpoints.secondFactor.reset, { body: { id: u.id }, token: admin });
    expect(res.status).toBe(200);
    const login = await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } });
    expect(typeof login.body.token).toBe('string');
    const [a] = await s.db.query<{ actor_name: string; target_label: string }>(
      `SELECT actor_name, target_label FROM audit_log WHERE kind = 'user.secondFactorReset' AND target_id = $1`,
      [u.id],
    );
    expect(a).toMatchObject({ actor_name: 'admin', target_label: u.username });
    expect((await s.api(endpoints.secondFactor.reset, { body: { id: u.id }, token: admin })).status).toBe(
      409,
    );
  });

  it('tells User Manager who has the factor on, and refuses a reset of anyone else with a clear 409', async () => {
    const on = await s.createUser();
    const started = await s.createUser();
    const none = await s.createUser();
    await enrol(on);
    // An enrolment begun and never confirmed: not "has two-factor".
    const reauth = await s.reauth(started);
    expect(
      (await s.api(endpoints.secondFactor.start, { token: started.token, headers: reauth })).status,
    ).toBe(200);
    const admin = await s.adminToken();
    const list = await s.api(endpoints.userAdmin.getUser, { body: { pageSize: 500 }, token: admin });
    expect(list.status).toBe(200);
    const flag = (id: string) =>
      (list.body.users as { id: string; secondFactor: boolean }[]).find((x) => x.id === id)?.secondFactor;
    expect([flag(on.id), flag(started.id), flag(none.id)]).toEqual([true, false, false]);
    const [me] = await s.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    expect(flag(me!.id)).toBe(false);
    for (const u of [started, none]) {
      const res = await s.api(endpoints.secondFactor.reset, { body: { id: u.id }, token: admin });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        error: 'second_factor_state',
        msg: `${u.username} has no two-factor authentication to reset.`,
      });
    }
    const self = await s.api(endpoints.secondFactor.reset, { body: { id: me!.id }, token: admin });
    expect(self.status).toBe(409);
    // The refused reset left the begun enrolment alone.
    const [row] = await s.db.query('SELECT 1 FROM user_second_factors WHERE user_id = $1', [started.id]);
    expect(row).toBeTruthy();
  });
});

describe('REQUIRE_ADMIN_2FA', () => {
  let r: TestServer;
  beforeAll(async () => {
    r = await startTestServer({ env: { REQUIRE_ADMIN_2FA: 'true' } });
  });
  afterAll(async () => {
    await r.close();
  });

  it('limits an admin without the factor to enrolment and User Info until enrolled', async () => {
    const login = await r.api(endpoints.auth.login, {
      body: { username: 'admin', password: 'admin-password-1' },
    });
    expect(login.body.secondFactorSetup).toBe(true);
    const token: string = login.body.token;
    const blocked = await r.api(endpoints.userAdmin.getUser, { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toBe('second_factor_required');
    expect((await r.api(endpoints.user.info, { token })).status).toBe(200);
    const status = await r.api(endpoints.secondFactor.status, { token });
    expect(status.body.required).toBe(true);
    // Enrolment needs a fresh re-authentication, which such a session may also reach.
    const reauth = await r.reauth({ token, password: 'admin-password-1' });
    const start = await r.api(endpoints.secondFactor.start, { token, headers: reauth });
    const ok = await r.api(endpoints.secondFactor.confirm, {
      body: { code: code(start.body.secret, r.clock.now()) },
      token,
      headers: reauth,
    });
    expect(ok.status).toBe(200);
    // The same session now reaches everything.
    expect((await r.api(endpoints.userAdmin.getUser, { token })).status).toBe(200);
  });

  it('does not touch plain users or API key calls', async () => {
    const u = await r.createUser();
    expect((await r.api(endpoints.user.info, { token: u.token })).status).toBe(200);
    const key = await r.api(endpoints.apikey.reset, { token: u.token, headers: await r.reauth(u) });
    const apiKey: string = key.body.apiKey;
    expect(apiKey).toBeTruthy();
    const bal = await r.call('GET', `/stubs/handler_api.php?api_key=${apiKey}&action=getBalance`);
    expect(bal.status).toBe(200);
    expect(String(bal.body)).toMatch(/^ACCESS_BALANCE/);
  });
});
