import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { scrape } from '../../test/metrics.ts';
import { slowdownMs } from './auth.service.ts';

// The limits must stop guesses before the password is checked, and an unknown username must cost
// the same check as a known one: counted by the server's own metric of password checks.
const CHECKS = 'simdock_sign_in_password_checks_total';
async function passwordChecks(account: 'known' | 'unknown'): Promise<number> {
  return (await scrape(s)).value(CHECKS, { account }) ?? 0;
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    env: {
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES_PER_USER_IP: '5',
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      // The per-account budget has its own tests (limits.test.ts); here it would end the rounds below.
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      // The slow-down's formula is tested below; here it would only make the tests wait.
      LOGIN_SLOWDOWN_AFTER: '1000',
    },
  });
});
afterAll(async () => {
  await s.close();
});

/** A sign-in from a given client address (the server trusts X-Forwarded-For here). */
async function loginFrom(ip: string, username: string, password: string) {
  const res = await fetch(`${s.url}/api/Auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password }),
  });
  return res.status;
}

describe('sign-in limits', () => {
  it('lets at most the limit of 60 parallel wrong passwords reach the password check', async () => {
    const u = await s.createUser();
    const before = await passwordChecks('known');
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => loginFrom('198.51.100.7', u.username, `wrong-${i}-pass`)),
    );
    expect(statuses.filter((x) => x === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(55);
    expect(statuses.every((x) => x === 401 || x === 429)).toBe(true);
    const checked = (await passwordChecks('known')) - before;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBe(statuses.filter((x) => x === 401).length);
    // That address stays locked for this user, even with the right password.
    expect(await loginFrom('198.51.100.7', u.username, u.password)).toBe(429);
  });

  it('does not let a lock-out from one address stop the owner signing in from another', async () => {
    const u = await s.createUser();
    for (let i = 0; i < 8; i++) await loginFrom('203.0.113.66', u.username, `guess-${i}-guess`);
    expect(await loginFrom('203.0.113.66', u.username, u.password)).toBe(429);
    expect(await loginFrom('192.0.2.10', u.username, u.password)).toBe(200);
  });

  it('caps one address across usernames', async () => {
    const t = await startTestServer({ env: { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES_PER_IP: '4' } });
    try {
      const call = (ip: string, username: string, password: string) =>
        fetch(`${t.url}/api/Auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ username, password }),
        }).then((r) => r.status);
      const statuses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => call('198.51.100.99', `ghost${i}`, 'whatever-1')),
      );
      expect(statuses.filter((x) => x === 401).length).toBeLessThanOrEqual(4);
      expect(await call('198.51.100.99', 'admin', 'admin-password-1')).toBe(429);
      expect(await call('198.51.100.100', 'admin', 'admin-password-1')).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('slows down (never locks) a username attacked from many addresses', () => {
    const cfg = { LOGIN_SLOWDOWN_AFTER: 5, LOGIN_SLOWDOWN_MAX_MS: 5000 };
    expect([1, 5, 6, 7, 8, 12, 100].map((n) => slowdownMs(n, cfg))).toEqual([
      0, 0, 250, 500, 1000, 5000, 5000,
    ]);
    expect(slowdownMs(10_000, { LOGIN_SLOWDOWN_AFTER: 0, LOGIN_SLOWDOWN_MAX_MS: 0 })).toBe(0);
  });

  it('a success takes its attempt back: failures below the limit do not add up across sign-ins', async () => {
    const u = await s.createUser();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++)
        expect(await loginFrom('192.0.2.55', u.username, 'not-the-password')).toBe(401);
      expect(await loginFrom('192.0.2.55', u.username, u.password)).toBe(200);
    }
  });
});

describe('user enumeration', () => {
  it('checks a password for an unknown user too, as for a known one', async () => {
    const u = await s.createUser();
    const [known, unknown] = [await passwordChecks('known'), await passwordChecks('unknown')];
    expect(await loginFrom('192.0.2.77', 'nobody_at_all', 'some-password')).toBe(401);
    expect(await passwordChecks('unknown')).toBe(unknown + 1);
    expect(await loginFrom('192.0.2.77', u.username, 'some-password')).toBe(401);
    expect(await passwordChecks('known')).toBe(known + 1);
    expect(await passwordChecks('unknown')).toBe(unknown + 1);
  });
});
