import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, shot, startE2E, watchErrors } from './harness.ts';

/** The Dashboard's stat labels whose text is cut off (wider than their box). */
const clippedStatLabels = (page: Page) =>
  page.evaluate(
    `[...document.querySelectorAll('[data-testid="stat-cards"] dt')].filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)`,
  );

// The foundation: register → login → shell → user info → change password → logout, the guards,
// and signing out from another tab, in Chromium against the built app served by the real server.

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
});

afterAll(async () => {
  await e?.close();
});

const path = (page: Page) => new URL(page.url()).pathname;

describe('foundation in the browser', () => {
  it('register → login → shell → user info → change password → logout → login with the new password', async () => {
    const page = await e.newPage();
    const errors = watchErrors(page);
    const username = `alice${Date.now() % 100000}`;
    const email = `${username}@example.com`;

    // Register (username and email are lower-cased as typed).
    await page.goto('/register');
    await page.getByLabel('Username').fill(username.toUpperCase());
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
    await page.getByLabel('Confirm password').fill('first-pass-1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    // On to sign in, the new username filled in.
    await page.waitForURL('**/login');
    await page.getByText('Registration successful. Please Login.').waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    const [row] = await e.db.query<{ username: string; email: string }>(
      'SELECT username, email FROM users WHERE username = $1',
      [username],
    );
    expect(row).toEqual({ username, email });

    // A balance to see the shell's format.
    await e.db.query('UPDATE users SET balance = 1234.5 WHERE username = $1', [username]);

    // Sign in on the page registration led to.
    await loginViaUi(page, { username, password: 'first-pass-1' });

    // Shell: username, avatar initial, balance with $ and separators, the user's items only.
    await expect.poll(() => page.getByTestId('shell-username').textContent()).toBe(username);
    expect(await page.getByTestId('shell-balance').textContent()).toBe('$1,234.5000');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const item of [
      'User Info',
      'Dashboard',
      'SMS Sending',
      'Chat',
      'History',
      'Top up',
      'API Key',
      'Logout',
    ]) {
      expect(await nav.getByText(item, { exact: true }).isVisible()).toBe(true);
    }
    expect(await nav.getByText('Gateway Manager').count()).toBe(0);
    await page.getByTestId('dashboard-clock').waitFor();

    // User info.
    await nav.getByRole('link', { name: 'User Info' }).click();
    await page.waitForURL('**/userinfo');
    const details = page.getByTestId('user-details');
    await details.getByText(email).waitFor();
    expect(await details.getByText(username, { exact: true }).isVisible()).toBe(true);
    expect(await details.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/).isVisible()).toBe(true);

    // Change password: mismatch, wrong old password, then success.
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Old password').fill('first-pass-1');
    await form.getByLabel('New password', { exact: true }).fill('second-pass-2');
    await form.getByLabel('Confirm new password').fill('second-pass-X');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await form.getByText('New passwords do not match.').waitFor();

    await form.getByLabel('Old password').fill('not-my-password');
    await form.getByLabel('Confirm new password').fill('second-pass-2');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await form.getByRole('alert').getByText('The old password is not correct.').waitFor();

    await form.getByLabel('Old password').fill('first-pass-1');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await form.getByText('Password changed successfully!').waitFor();
    expect(await form.getByLabel('Old password').inputValue()).toBe('');
    await shot(page, 'foundation-userinfo');

    // Logout: the token is gone and / leads to /login.
    await nav.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate("localStorage.getItem('jwtToken')")).toBeNull();

    // The old password no longer works; the new one does.
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const failure = page.getByRole('alert');
    await failure.getByText('Login failed').waitFor();
    expect((await failure.textContent())?.length).toBeGreaterThan('Login failed'.length + 1);
    expect(path(page)).toBe('/login');
    await loginViaUi(page, { username, password: 'second-pass-2' });
    expect(errors).toEqual([]);
  });

  it('a signed-out visit to /userinfo lands on /login', async () => {
    const page = await e.newPage();
    await page.goto('/userinfo');
    await page.waitForURL('**/login?next=%2Fuserinfo');
    await page.getByRole('heading', { name: 'Sign in to SimDock' }).waitFor();
    await page.goto('/');
    await page.waitForURL('**/login');
  });

  it('a User visiting /gatewaymanager lands on /unauthorized', async () => {
    const user = await e.createUser();
    const page = await e.newPage();
    await loginViaUi(page, user);
    await page.goto('/gatewaymanager');
    await page.waitForURL('**/unauthorized');
    await page.getByRole('heading', { name: 'You don’t have access to this page' }).waitFor();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.waitForURL('**/dashboard');
  });

  it('an Admin9 sees the admin sidebar items and reaches the admin pages', async () => {
    const page = await e.newPage();
    await loginViaUi(page, ADMIN);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const item of [
      'User Manager',
      'Service Manager',
      'Gateway Manager',
      'Order Manager',
      'Payment Manager',
      'Settings',
    ]) {
      expect(await nav.getByRole('link', { name: new RegExp(`^${item}`) }).isVisible()).toBe(true);
    }
    await nav.getByRole('link', { name: 'Gateway Manager' }).click();
    await page.waitForURL('**/gatewaymanager');
    await page.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
  });

  it('removing the token in another tab signs this tab out', async () => {
    const user = await e.createUser();
    const context = await e.newContext();
    const tab1 = await context.newPage();
    await loginViaUi(tab1, user);
    await tab1.goto('/userinfo');
    await tab1.getByRole('heading', { level: 1, name: 'User Info' }).waitFor();

    const tab2 = await context.newPage();
    await tab2.goto('/home');
    await tab2.evaluate("localStorage.removeItem('jwtToken')");

    // Signed out from elsewhere: back to this page after signing in again.
    await tab1.waitForURL('**/login?next=%2Fuserinfo');
    await tab1.getByRole('heading', { name: 'Sign in to SimDock' }).waitFor();
  });

  it('on a 390 px screen the sidebar is a drawer; the language switch is kept after a reload', async () => {
    const user = await e.createUser({ balance: 12.3 });
    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    // An uptime in the Dashboard's stats, so its narrowest layout (three columns) shows.
    await page.route('**/api/Order/stats', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ status: res.status(), json: { ...(await res.json()), uptime: 99.5 } });
    });
    await loginViaUi(page, user);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    // The stat labels wrap rather than clip (Vietnamese checked below).
    await page.getByTestId('stat-cards').getByText('99.5%').waitFor();
    expect(await clippedStatLabels(page)).toEqual([]);
    await shot(page, 'foundation-mobile-dashboard-en');
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe('$12.3000');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Main navigation' });
    // Top up and API Key are in the drawer too.
    await drawer.getByRole('link', { name: 'API Key' }).click();
    await page.waitForURL('**/apikey');
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await drawer.getByRole('link', { name: 'Top up' }).isVisible()).toBe(true);
    await drawer.getByRole('link', { name: 'User Info' }).click();
    await page.waitForURL('**/userinfo');
    await drawer.waitFor({ state: 'detached' });
    await shot(page, 'foundation-mobile-userinfo');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('combobox', { name: /^Language/ }).selectOption('vi');
    await page.getByRole('heading', { level: 1, name: 'Thông tin tài khoản' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Thông tin tài khoản' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('vi');
    await page.goto('/dashboard');
    await page.getByTestId('stat-cards').getByText('99,5%').waitFor();
    expect(await clippedStatLabels(page)).toEqual([]);
    await shot(page, 'foundation-mobile-dashboard-vi');
  });

  it('a signed-out visit to a deep link signs in and returns there', async () => {
    const user = await e.createUser();
    const page = await e.newPage();
    await page.goto('/History');
    await page.waitForURL(/\/login\?next=%2FHistory$/);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/History$/);
    // Another site is never a destination: /login?next=//evil.example leads home.
    await page
      .getByRole('button', { name: /^Logout$/ })
      .first()
      .click();
    await page.goto('/login?next=%2F%2Fevil.example%2Fx');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(/\/dashboard$/);
  });
});
