import { endpoints, FORGOT_NEUTRAL_MESSAGE, RESET_LINK_INVALID, ruleMessages } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { loadConfig } from '../../settings.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import type { TestSmtp } from '../../test/smtp.ts';
import { serverWithSmtp } from '../../test/suites.ts';
import { recoveryIdle } from './index.ts';
import { FORGOT_PER_ACCOUNT_PER_HOUR, FORGOT_PER_IP_PER_HOUR } from './recovery.service.ts';
import { totpFor } from './second-factor.ts';

// Password recovery through a real SMTP server listening on 127.0.0.1: the test reads the mail it
// received and follows its link as a person would.

let smtp: TestSmtp;
let s: TestServer;
let ipSeq = 0;

serverWithSmtp(
  {
    MAIL_FROM: 'SimDock <no-reply@simdock.test>',
    TRUST_PROXY: 'true',
  },
  (t) => {
    ({ s, smtp } = t);
  },
);

/** Each test its own client address, so the per-address limit is tested where it is meant to be. */
const nextIp = () => `198.51.100.${++ipSeq}`;

async function forgot(login: string, ip: string, server = s) {
  const res = await fetch(`${server.url}/api/Auth/forgot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ login }),
  });
  return { status: res.status, body: await res.json() };
}

const reset = (token: string, password: string) => s.api(endpoints.auth.reset, { body: { token, password } });

/** The token of the reset link in a mail's text (the link is `${PUBLIC_URL}/reset-password?token=…`). */
function tokenIn(text: string, server = s): string {
  const m = /(\S+)\/reset-password\?token=([\w%-]+)/.exec(text);
  if (!m) throw new Error(`no reset link in: ${text}`);
  expect(m[1]).toBe(server.ctx.config.PUBLIC_URL);
  return decodeURIComponent(m[2]!);
}

describe('POST /api/Auth/forgot and /api/Auth/reset', () => {
  it('mails a single-use link to an existing user: it sets the password, ends every session and is audited', async () => {
    const u = await s.createUser();
    const otherDevice = await s.login(u.username, u.password);
    const before = smtp.mails.length;
    const res = await forgot(`${u.username}@EXAMPLE.com`, nextIp());
    expect(res).toEqual({
      status: 200,
      body: {
        code: 1,
        msg: FORGOT_NEUTRAL_MESSAGE,
        mailEnabled: true,
        mailMode: 'smtp',
        supportContact: 'Ask your administrator to reset your password.',
      },
    });
    const mail = await smtp.waitForMail(before + 1);
    expect(mail.to).toEqual([`${u.username}@example.com`]);
    expect(mail.from).toContain('no-reply@simdock.test');
    expect(mail.subject).toBe('Reset your SimDock password');
    expect(mail.text).toContain('30 minutes');
    const token = tokenIn(mail.text);
    expect(mail.html).toContain(`token=${token}`);
    // Only a hash is stored.
    const stored = await s.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM password_resets WHERE user_id = $1',
      [u.id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);

    const ok = await reset(token, 'brand-new-pass-1');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ code: 1 });
    for (const old of [u.token, otherDevice]) {
      const refused = await s.api(endpoints.user.info, { token: old });
      expect(refused.status).toBe(401);
      expect(refused.body.msg).toMatch(/session has ended/);
    }
    expect(
      (await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } })).status,
    ).toBe(401);
    expect(await s.login(u.username, 'brand-new-pass-1')).toBeTruthy();

    const again = await reset(token, 'another-pass-22');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 0, msg: RESET_LINK_INVALID });
    expect(await s.login(u.username, 'brand-new-pass-1')).toBeTruthy();

    const audit = await s.db.query<{ actor_id: string; kind: string; target_label: string }>(
      `SELECT actor_id, kind, target_label FROM audit_log WHERE kind = 'user.passwordReset' AND target_id = $1`,
      [u.id],
    );
    expect(audit).toEqual([{ actor_id: u.id, kind: 'user.passwordReset', target_label: u.username }]);
  });

  it('answers an unknown login, an inactive account and a username alike, and mails only the active one', async () => {
    const active = await s.createUser();
    const inactive = await s.createUser();
    await s.db.query(`UPDATE users SET status = 'Inactive' WHERE id = $1`, [inactive.id]);
    const before = smtp.mails.length;
    const answers = [
      await forgot('nobody_here', nextIp()),
      await forgot('nobody@example.com', nextIp()),
      await forgot(inactive.username, nextIp()),
      await forgot(active.username, nextIp()),
    ];
    for (const a of answers) expect(a).toEqual(answers[3]);
    await recoveryIdle(s.ctx);
    const mail = await smtp.waitForMail(before + 1);
    expect(mail.to).toEqual([`${active.username}@example.com`]);
    expect(smtp.mails).toHaveLength(before + 1);
  });

  it('refuses an expired link with the clear message', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    await forgot(u.username, nextIp());
    const token = tokenIn((await smtp.waitForMail(before + 1)).text);
    s.clock.advance(30 * 60_000 + 1000);
    try {
      const res = await reset(token, 'too-late-pass-1');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 0, msg: RESET_LINK_INVALID, field: 'token' });
    } finally {
      s.clock.advance(-(30 * 60_000 + 1000));
    }
    expect(await s.login(u.username, u.password)).toBeTruthy();
  });

  it('works up to its 30th minute', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    await forgot(u.username, nextIp());
    const token = tokenIn((await smtp.waitForMail(before + 1)).text);
    s.clock.advance(29 * 60_000);
    try {
      expect((await reset(token, 'just-in-time-1')).status).toBe(200);
    } finally {
      s.clock.advance(-29 * 60_000);
    }
  });

  it('refuses an unknown token and keeps the link when the new password breaks the rule', async () => {
    expect((await reset('not-a-real-token', 'whatever-pass-1')).body).toMatchObject({
      code: 0,
      msg: RESET_LINK_INVALID,
    });
    const u = await s.createUser();
    const before = smtp.mails.length;
    await forgot(u.username, nextIp());
    const token = tokenIn((await smtp.waitForMail(before + 1)).text);
    const short = await reset(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 0, msg: ruleMessages.passwordTooShort, field: 'password' });
    expect((await reset(token, 'long-enough-1')).status).toBe(200);
  });

  it('checks a link without using it: a live one answers 200, a dead one 400 on token', async () => {
    const check = (token: string) => s.api(endpoints.auth.resetCheck, { body: { token } });
    const dead = { code: 0, msg: RESET_LINK_INVALID, field: 'token' };
    const unknown = await check('not-a-real-token');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject(dead);
    const u = await s.createUser();
    const before = smtp.mails.length;
    const ip = nextIp();
    await forgot(u.username, ip);
    const first = tokenIn((await smtp.waitForMail(before + 1)).text);
    // Checked twice: still unused, the reset takes it.
    expect((await check(first)).status).toBe(200);
    expect((await check(first)).status).toBe(200);
    // Superseded by a newer link.
    await forgot(u.username, ip);
    const second = tokenIn((await smtp.waitForMail(before + 2)).text);
    expect((await check(first)).body).toMatchObject(dead);
    expect((await check(second)).status).toBe(200);
    // Expired.
    s.clock.advance(31 * 60_000);
    try {
      expect((await check(second)).body).toMatchObject(dead);
    } finally {
      s.clock.advance(-31 * 60_000);
    }
    // Used.
    expect((await reset(second, 'checked-then-used-1')).status).toBe(200);
    expect((await check(second)).body).toMatchObject(dead);
  });

  it('lets only the newest link work (a new request supersedes the older ones)', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    const ip = nextIp();
    await forgot(u.username, ip);
    const first = tokenIn((await smtp.waitForMail(before + 1)).text);
    await forgot(u.username, ip);
    const second = tokenIn((await smtp.waitForMail(before + 2)).text);
    expect(second).not.toBe(first);
    expect((await reset(first, 'first-link-pass')).body).toMatchObject({ code: 0, msg: RESET_LINK_INVALID });
    expect((await reset(second, 'second-link-pass')).status).toBe(200);
    expect(await s.login(u.username, 'second-link-pass')).toBeTruthy();
  });

  it(`mails one account at most ${FORGOT_PER_ACCOUNT_PER_HOUR} times an hour, with the same answer past it`, async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    const answers = [];
    // From different addresses: the per-account limit is what stops a mail bomb.
    for (let i = 0; i < FORGOT_PER_ACCOUNT_PER_HOUR + 3; i++)
      answers.push(await forgot(u.username, nextIp()));
    for (const a of answers) expect(a).toEqual(answers[0]);
    await recoveryIdle(s.ctx);
    await smtp.waitForMail(before + FORGOT_PER_ACCOUNT_PER_HOUR);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length - before).toBe(FORGOT_PER_ACCOUNT_PER_HOUR);
    // An hour later the account can be mailed again.
    s.clock.advance(61 * 60_000);
    try {
      await forgot(u.username, nextIp());
      await smtp.waitForMail(before + FORGOT_PER_ACCOUNT_PER_HOUR + 1);
    } finally {
      s.clock.advance(-61 * 60_000);
    }
  });

  it(`answers 429 past ${FORGOT_PER_IP_PER_HOUR} requests an hour from one address`, async () => {
    const ip = nextIp();
    for (let i = 0; i < FORGOT_PER_IP_PER_HOUR; i++) expect((await forgot(`ghost${i}`, ip)).status).toBe(200);
    const limited = await forgot('ghost-last', ip);
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/Too many password reset requests/);
    expect((await forgot('ghost-last', nextIp())).status).toBe(200);
    await recoveryIdle(s.ctx);
  });

  it('says the same wait in the 429 as in Retry-After, and counts IPv6 clients by their /64', async () => {
    const net = `2001:db8:${++ipSeq}:7`;
    for (let i = 0; i < FORGOT_PER_IP_PER_HOUR; i++)
      expect((await forgot(`ghost${i}`, `${net}::${i + 1}`)).status).toBe(200);
    // Another address of the same /64: the same client.
    const limited = await fetch(`${s.url}/api/Auth/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `${net}:ffff::1` },
      body: JSON.stringify({ login: 'ghost-last' }),
    });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(((await limited.json()) as { msg: string }).msg).toContain(
      `in ${Math.ceil(retryAfter / 60)} minutes`,
    );
    await recoveryIdle(s.ctx);
  });

  it('limits password resets per address (429 with Retry-After) and looks at the link before the password', async () => {
    const ip = nextIp();
    const resetFrom = (token: string, password: string) =>
      fetch(`${s.url}/api/Auth/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ token, password }),
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));
    // An unknown link is answered as such before the password is judged (or hashed).
    const first = await resetFrom('no-such-link', 'short');
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ field: 'token', msg: RESET_LINK_INVALID });
    for (let i = 1; i < s.ctx.config.RESETS_PER_ADDRESS_PER_HOUR; i++)
      expect((await resetFrom(`guess-${i}`, 'a-long-pass-12')).status).toBe(400);
    const limited = await resetFrom('guess-last', 'a-long-pass-12');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
    // Another address is not held back.
    expect((await reset('guess-elsewhere', 'a-long-pass-12')).status).toBe(400);
  });

  it('a reset deletes every API key and voids a pending sign-in challenge; the owner is mailed', async () => {
    const u = await s.createUser();
    const key = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) })).body
      .apiKey as string;
    const balance = async () =>
      String((await s.call('GET', `/stubs/handler_api.php?api_key=${key}&action=getBalance`)).body);
    expect(await balance()).toMatch(/^ACCESS_BALANCE/);
    // A second factor, and a challenge someone holds with the old password.
    const reauth = await s.reauth(u);
    const secret = (await s.api(endpoints.secondFactor.start, { token: u.token, headers: reauth })).body
      .secret as string;
    const totp = () => totpFor(secret, '').generate({ timestamp: s.clock.now().getTime() });
    expect(
      (
        await s.api(endpoints.secondFactor.confirm, {
          body: { code: totp() },
          token: u.token,
          headers: reauth,
        })
      ).status,
    ).toBe(200);
    s.clock.advance(30_000);
    const challenge = (
      await s.api(endpoints.auth.login, { body: { username: u.username, password: u.password } })
    ).body.challenge as string;
    expect(challenge).toBeTruthy();

    const before = smtp.mails.length;
    await forgot(u.username, nextIp());
    const token = tokenIn((await smtp.waitForMail(before + 1)).text);
    expect((await reset(token, 'after-reset-pass-9')).status).toBe(200);
    expect(await balance()).toBe('BAD_KEY');
    expect(
      (await s.api(endpoints.secondFactor.login, { body: { challenge, code: totp() } })).body.error,
    ).toBe('second_factor_challenge_invalid');
    const notice = await smtp.waitForMail(before + 2);
    expect(notice.subject).toBe('Your SimDock password was reset');
    expect(notice.text).not.toContain(token);
    const audit = await s.db.query<{ kind: string }>(
      `SELECT kind FROM audit_log WHERE kind = 'apikey.delete' AND actor_id = $1`,
      [u.id],
    );
    expect(audit).toHaveLength(1);
  });

  it('never logs the link or the token', async () => {
    const u = await s.createUser();
    const before = smtp.mails.length;
    await forgot(u.username, nextIp());
    const token = tokenIn((await smtp.waitForMail(before + 1)).text);
    await recoveryIdle(s.ctx);
    expect(s.logs.join('\n')).toContain('Mail sent');
    expect(s.logs.join('\n')).not.toContain(token);
  });
});

describe('without SMTP', () => {
  it('sends nothing and tells the page (mailEnabled: false, the support contact)', async () => {
    const t = await startTestServer({ env: { SUPPORT_CONTACT: 'Write to ops@example.com.' } });
    try {
      const u = await t.createUser();
      const res = await forgot(u.username, '127.0.0.1', t);
      expect(res).toEqual({
        status: 200,
        body: {
          code: 1,
          msg: FORGOT_NEUTRAL_MESSAGE,
          mailEnabled: false,
          mailMode: 'off',
          supportContact: 'Write to ops@example.com.',
        },
      });
      await recoveryIdle(t.ctx);
      expect(await t.db.query('SELECT 1 FROM password_resets')).toEqual([]);
      const box = await t.api(endpoints.auth.mailOutbox, { token: await t.adminToken() });
      expect(box.body).toEqual({ code: 1, mode: 'off', mails: [] });
    } finally {
      await t.close();
    }
  });

  it('keeps mails in the admin-only outbox on a development machine', async () => {
    const t = await startTestServer({ env: { NODE_ENV: 'development' } });
    try {
      const u = await t.createUser();
      const res = await forgot(u.username, '127.0.0.1', t);
      // The page can say what really happens: no mail went out; the link waits in the outbox.
      expect(res.body).toMatchObject({ mailEnabled: true, mailMode: 'outbox' });
      await recoveryIdle(t.ctx);
      expect((await t.api(endpoints.auth.mailOutbox, { token: u.token })).status).toBe(403);
      const box = await t.api(endpoints.auth.mailOutbox, { token: await t.adminToken() });
      expect(box.body).toMatchObject({
        code: 1,
        mode: 'outbox',
        mails: [{ to: `${u.username}@example.com`, subject: 'Reset your SimDock password' }],
      });
      const token = tokenIn(box.body.mails[0]!.text, t);
      // The log says a mail was kept, never the link or its token (at any level).
      const log = t.logs.join('\n');
      expect(log).toContain('Mail kept in the outbox');
      expect(log).not.toContain(token);
      expect(log).not.toContain('reset-password?token=');
      expect(
        (await t.api(endpoints.auth.reset, { body: { token, password: 'from-the-outbox-1' } })).status,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('mail settings', () => {
  const base = { NODE_ENV: 'test', APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/simdock-mail-config' };
  it.each(['http://mail.example.com', 'mail.example.com:587', 'smtp://', 'not a url'])(
    'stops the start on SMTP_URL=%s with a readable message',
    (SMTP_URL) => {
      expect(() => loadConfig({ ...base, SMTP_URL })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, SMTP_URL })).toThrow(/SMTP_URL: must be a URL such as smtp:\/\//);
    },
  );
  it('never repeats the value (it may hold the SMTP password)', () => {
    expect(() => loadConfig({ ...base, SMTP_URL: 'ftp://u:Secret123@h' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('Secret123') }),
    );
  });
  it('accepts smtp:// and smtps:// and checks MAIL_FROM', () => {
    expect(loadConfig({ ...base, SMTP_URL: 'smtps://u:p@mail.example.com:465' }).SMTP_URL).toBe(
      'smtps://u:p@mail.example.com:465',
    );
    expect(loadConfig(base).MAIL_FROM).toBe('SimDock <no-reply@simdock.local>');
    expect(() => loadConfig({ ...base, MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM: must be an address/);
  });
});
