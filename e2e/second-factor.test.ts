import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  answerReauth,
  type E2E,
  loginWithToken,
  settle,
  shot,
  startE2E,
  watchErrors,
} from './harness.ts';

// Two-factor authentication in the browser: a user enrols on User Info by typing the key shown
// there into an "app" (this test computes the codes with the same TOTP maths), keeps the recovery
// codes, then signs in with the password and a code; a wrong code says how many attempts are left,
// and a recovery code works once. An admin resets a user's factor from User Manager.

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const PERIOD = 30;

/** The code of a 30 s time step, as an authenticator app holding `secret` shows it then. */
function codeAt(secret: string, step: number): string {
  return new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  }).generate({
    timestamp: step * PERIOD * 1000,
  });
}

const stepNow = () => Math.floor(Date.now() / 1000 / PERIOD);

/** Screenshots at 1280 and 390 px wide of the page as it is now, back at 1280 after. */
async function shotsAt(page: Page, name: string) {
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await settle(page);
    await shot(page, `${name}-${width}`);
  }
}

async function passwordStep(page: Page, user: { username: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
}

async function signOut(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('button', { name: 'Logout' })
    .click();
  await page.waitForURL('**/login');
}

const onDashboard = async (page: Page) => {
  await page.waitForURL(/\/dashboard$/);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
};

describe('two-factor authentication', () => {
  it('enrols on User Info, then signs in with a code, and once with a recovery code', async () => {
    const user = await e.createUser();
    const page = await e.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);

    // Without the factor the password alone signs in.
    await page.goto('/login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await onDashboard(page);

    // Enrol: the QR code and the key to type by hand.
    await page.goto('/userinfo');
    const section = page.getByTestId('second-factor');
    await section.getByText('Off', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Turn on' }).click();
    // A session alone does not reach it: the shared dialog asks for the password first.
    await answerReauth(page, user.password);
    const enrol = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
    await enrol.getByRole('img', { name: 'QR code for the authenticator app' }).waitFor();
    const secret = ((await enrol.getByTestId('manual-key').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await enrol.getByLabel('6-digit code').fill(codeAt(secret, stepNow()));
    await shotsAt(page, 'second-factor-enrol');

    // Confirm: the recovery codes, shown once.
    let used = stepNow();
    await enrol.getByLabel('6-digit code').fill(codeAt(secret, used));
    await enrol.getByRole('button', { name: 'Confirm' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    const recovery = await codesDialog.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    await shotsAt(page, 'second-factor-recovery-codes');
    await codesDialog.getByRole('button', { name: 'Done' }).click();
    await codesDialog.waitFor({ state: 'detached' });
    await section.getByText(/^On since /).waitFor();
    await section.getByText('Recovery codes left: 10').waitFor();

    // Sign out; the password now leads to the second step, not to the dashboard.
    await signOut(page);
    await passwordStep(page, user);
    expect(await page.evaluate("localStorage.getItem('jwtToken')")).toBeNull();

    // A wrong code: the error and the attempts left.
    const wrong = codeAt(secret, used) === '000000' ? '111111' : '000000';
    await page.getByLabel('Code', { exact: true }).fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    // One sentence with the count (the page's, not also the server's own words).
    await page.getByText('The code is not correct. Attempts left: 4').waitFor();
    expect(await page.getByText('The code is not correct. 4 attempts left.').count()).toBe(0);
    await shotsAt(page, 'second-factor-step-wrong');

    // The code of the next time step: a code works once, and the server allows one step of drift.
    used += 1;
    await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, used));
    await page.getByRole('button', { name: 'Verify' }).click();
    await onDashboard(page);

    // A recovery code signs in once.
    await signOut(page);
    await passwordStep(page, user);
    await shotsAt(page, 'second-factor-step');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0]!.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await onDashboard(page);

    await signOut(page);
    await passwordStep(page, user);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not correct. Attempts left: 4').waitFor();
    expect(page.url()).toMatch(/\/login$/);

    // Another recovery code still works, and User Info counts what is left.
    await page.getByLabel('Recovery code').fill(recovery[1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await onDashboard(page);
    await page.goto('/userinfo');
    await section.getByText('Recovery codes left: 8').waitFor();

    // Turning it off: the re-authentication dialog asks for the password and a code, once.
    await section.getByRole('button', { name: 'Turn off' }).click();
    const off = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
    await off.getByRole('button', { name: 'Turn off' }).click();
    const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
    await reauth.getByLabel('Code from the app, or a recovery code').waitFor();
    // A wrong password is said in the dialog, which stays open.
    await reauth.getByLabel('Password', { exact: true }).fill('not-my-password');
    // A code counts once and within one step of the server's clock: the sign-in took the step after
    // the enrolment's, so the next one is good only once the clock has reached that step.
    while (stepNow() < used) await page.waitForTimeout(250);
    used = Math.max(used + 1, stepNow());
    await reauth.getByLabel('Code from the app, or a recovery code').fill(codeAt(secret, used));
    await reauth.getByRole('button', { name: 'Confirm' }).click();
    await reauth.getByText('The password is not correct.').waitFor();
    await reauth.getByLabel('Password', { exact: true }).fill(user.password);
    await shotsAt(page, 'reauth-dialog');
    await reauth.getByRole('button', { name: 'Confirm' }).click();
    await reauth.waitFor({ state: 'detached' });
    await section.getByText('Off', { exact: true }).waitFor();

    expect(errors).toEqual([]);
  }, 120_000);

  it("an admin resets a user's factor in User Manager; the password alone signs in again", async () => {
    // Enrol through the API, as the page does.
    const enrolled = async () => {
      const u = await e.createUser();
      const token = await e.token(u.username, u.password);
      const reauth = await e.reauth(token, u.password);
      const { body: setup } = await e.api<{ secret: string }>(
        '/api/user/secondFactor/start',
        {},
        token,
        reauth,
      );
      const confirmed = await e.api(
        '/api/user/secondFactor/confirm',
        { code: codeAt(setup.secret, stepNow()) },
        token,
        reauth,
      );
      expect(confirmed.status).toBe(200);
      return u;
    };
    const user = await enrolled();
    const other = await enrolled();
    const login = await e.api<{ secondFactor?: boolean }>('/api/Auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(login.body.secondFactor).toBe(true);

    const page = await e.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, ADMIN);
    await page.goto('/usermanager');
    await page.getByLabel('Search users').fill(user.username);
    const table = page.getByRole('table', { name: 'Users', exact: true });
    const row = table.getByRole('row').filter({ has: page.getByText(user.username, { exact: true }) });
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Reset two-factor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset two-factor' });
    await dialog
      .getByText(
        `Turn off two-factor authentication for ${user.username}? They will sign in with the password alone.`,
      )
      .waitFor();
    await shotsAt(page, 'second-factor-admin-reset');
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await page.getByText('Two-factor authentication was reset.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The server's answer for a user without the factor shows in the dialog: another user's factor,
    // reset (by another admin, here the API) while this dialog is open.
    await page.getByLabel('Search users').fill(other.username);
    const otherRow = table.getByRole('row').filter({ has: page.getByText(other.username, { exact: true }) });
    await otherRow.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Reset two-factor' }).click();
    await dialog
      .getByText(`Turn off two-factor authentication for ${other.username}?`, { exact: false })
      .waitFor();
    const adminToken = await e.token(ADMIN.username, ADMIN.password);
    const behind = await e.api('/api/Admin/resetSecondFactor', { id: other.id }, adminToken);
    expect(behind.status).toBe(200);
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/no two-factor authentication/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const after = await e.api<{ token?: string }>('/api/Auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(typeof after.body.token).toBe('string');
    const [audit] = await e.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE kind = 'user.secondFactorReset' AND target_id = $1",
      [user.id],
    );
    expect(audit?.n).toBe(1);
    expect(errors).toEqual([]);
  }, 60_000);
});
