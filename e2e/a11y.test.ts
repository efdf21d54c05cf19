import { AxeBuilder } from '@axe-core/playwright';
import { DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, loginWithToken, startE2E } from './harness.ts';

// An automated accessibility check (axe-core, WCAG 2 A/AA rules) of every route of the web router
// (public, user and admin pages), as the roles for which a page differs, in light and dark mode,
// and of the states that matter: open dialogs and menus, the mobile drawer, empty and error states,
// a conversation open in the chat. Serious and critical findings fail the test.

let e: E2E;
/** A recipient the demo user wrote to and who answered: a conversation for the chat page. */
const PHONE = '13105559911';

beforeAll(async () => {
  // Workers on: the dispatcher sends the demo user's SMS so that a conversation exists.
  e = await startE2E({ workers: true, env: { DEMO: 'true', SMS_PER_SIM_PER_MINUTE: '600' } });
  const adminToken = await e.token(ADMIN.username, ADMIN.password);
  const userToken = await e.token(DEMO_USER.username, DEMO_USER.password);
  const sent = await e.api('/api/MassOutreach/sendMassSMS', { number: PHONE, mess: 'Hello' }, userToken);
  if (sent.status !== 200) throw new Error(`send failed: ${sent.status}`);
  const until = Date.now() + 30_000;
  let sim: { gateway_id: string | null; port: string | null } | undefined;
  while (Date.now() < until) {
    [sim] = await e.db.query<{ gateway_id: string | null; port: string | null }>(
      'SELECT gateway_id, port FROM messages WHERE recipient = $1 AND port IS NOT NULL LIMIT 1',
      [PHONE],
    );
    if (sim) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!sim?.gateway_id || !sim.port) throw new Error(`nothing was sent to ${PHONE}`);
  const res = await e.api(
    '/api/Admin/simulateSms',
    { gatewayId: sim.gateway_id, port: sim.port, from: PHONE, text: 'Hi back' },
    adminToken,
  );
  if (res.status !== 200) throw new Error(`simulateSms failed: ${res.status}`);
}, 120_000);
afterAll(async () => {
  await e?.close();
});

async function audit(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  return bad;
}

/** Waits until skeletons are gone (live pages keep a stream open, so no "networkidle"). */
async function settle(page: Page) {
  for (let i = 0; i < 50; i++) {
    if ((await page.evaluate('document.querySelectorAll(".animate-pulse").length')) === 0) break;
    await page.waitForTimeout(200);
  }
  await page.waitForTimeout(250);
}

describe('accessibility', () => {
  it('has no serious or critical axe findings on every built screen, light and dark', async () => {
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const anon = await e.newPage();
      await anon.emulateMedia({ colorScheme: scheme });
      for (const path of ['/login', '/register', '/home', '/terms', '/privacy']) {
        await anon.goto(path);
        await anon.getByRole('heading', { level: 1 }).first().waitFor();
        await settle(anon);
        problems.push(...(await audit(anon, `${path} (${scheme})`)));
      }

      const user = await e.newPage();
      await user.emulateMedia({ colorScheme: scheme });
      await loginViaUi(user, { username: DEMO_USER.username, password: DEMO_USER.password });
      await user.getByRole('button', { name: 'Rent a Telegram number' }).waitFor();
      await settle(user);
      problems.push(...(await audit(user, `/dashboard (${scheme})`)));
      await user.goto('/gatewaymanager');
      await user.getByRole('heading', { level: 1, name: 'You don’t have access to this page' }).waitFor();
      problems.push(...(await audit(user, `/unauthorized (${scheme})`)));
      await user.goto('/topup');
      await user.getByRole('heading', { level: 1, name: 'Top up' }).waitFor();
      await user.getByRole('link', { name: /Pay invoice .* now/ }).waitFor();
      await settle(user);
      problems.push(...(await audit(user, `/topup (${scheme})`)));
      await user.goto('/apikey');
      await user.getByRole('heading', { level: 1, name: 'API Key Management' }).waitFor();
      await user.getByText('No Apikey').waitFor();
      await settle(user);
      problems.push(...(await audit(user, `/apikey (${scheme})`)));
      // Chat: the demo user's conversations (list, thread, send form), or the empty state.
      await user.goto('/ChatPage');
      await user.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
      await user.locator('[data-testid="conversation"], [data-testid="empty-state"]').first().waitFor();
      await settle(user);
      problems.push(...(await audit(user, `/ChatPage (${scheme})`)));

      const admin = await e.newPage();
      await admin.emulateMedia({ colorScheme: scheme });
      await loginViaUi(admin, ADMIN);
      for (const [path, heading] of [
        ['/admin', 'Overview'],
        ['/gatewaymanager', 'Gateway Manager'],
        ['/servicemanager', 'Service Manager'],
        ['/ordermanager', 'Order Manager'],
        ['/usermanager', 'User Manager'],
        ['/audit', 'Audit Log'],
        ['/paymentmanager', 'Payment Manager'],
        ['/userinfo', 'User Info'],
        ['/details/00:30:f1:de:e0:01', /^Device Statistics/],
        ['/SMS_SendingPage', /^SMS Sending \(Max: /],
        ['/History', 'SMS History Stats'],
        ['/ChatPage', 'Chat'],
        ['/settings', 'Settings'],
      ] as const) {
        await admin.goto(path);
        await admin.getByRole('heading', { level: 1, name: heading }).waitFor();
        await settle(admin);
        problems.push(...(await audit(admin, `${path} (${scheme})`)));
      }
      // The bell's panel and a row's action menu, open.
      await admin.goto('/gatewaymanager');
      await admin
        .getByRole('button', { name: /^More actions/ })
        .first()
        .click();
      await admin.getByRole('menu').waitFor();
      problems.push(...(await audit(admin, `/gatewaymanager menu (${scheme})`)));
      await admin.keyboard.press('Escape');
      await admin.getByRole('button', { name: /^Notifications/ }).click();
      problems.push(...(await audit(admin, `bell (${scheme})`)));
      for (const p of [anon, user, admin]) await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 360_000);

  it('has none on the other routes and states: signed out, a plain User, a new User, errors', async () => {
    const problems: string[] = [];
    const fresh = await e.createUser();
    for (const scheme of ['light', 'dark'] as const) {
      // Signed out: the root redirect, /unauthorized without the shell, an unknown path, the login
      // form's error, the register form's validation errors.
      const anon = await e.newPage();
      await anon.emulateMedia({ colorScheme: scheme });
      for (const [path, heading] of [
        ['/', /.+/],
        ['/unauthorized', 'You don’t have access to this page'],
        ['/no-such-page', /.+/],
      ] as const) {
        await anon.goto(path);
        await anon.getByRole('heading', { level: 1, name: heading }).first().waitFor();
        await settle(anon);
        problems.push(...(await audit(anon, `${path} signed out (${scheme})`)));
      }
      await anon.goto('/login');
      await anon.getByLabel('Username').fill('nobody');
      await anon.getByLabel('Password', { exact: true }).fill('wrong-password-1');
      await anon.getByRole('button', { name: 'Sign In', exact: true }).click();
      await anon.getByRole('alert').first().waitFor();
      problems.push(...(await audit(anon, `/login error (${scheme})`)));
      await anon.goto('/register');
      await anon.getByRole('heading', { level: 1 }).first().waitFor();
      await anon.locator('main button[type="submit"]').click();
      await anon.locator('[aria-invalid="true"]').first().waitFor();
      problems.push(...(await audit(anon, `/register errors (${scheme})`)));

      // The demo user (seeded orders and a conversation) on every page a User can open.
      const user = await e.newPage();
      await user.emulateMedia({ colorScheme: scheme });
      await loginWithToken(user, e, DEMO_USER);
      for (const [path, heading] of [
        ['/home', /.+/],
        ['/userinfo', 'User Info'],
        ['/SMS_SendingPage', /^SMS Sending \(Max: /],
        ['/History', 'SMS History Stats'],
        ['/settings', 'You don’t have access to this page'],
        ['/admin', 'You don’t have access to this page'],
      ] as const) {
        await user.goto(path);
        await user.getByRole('heading', { level: 1, name: heading }).first().waitFor();
        await settle(user);
        problems.push(...(await audit(user, `${path} as User (${scheme})`)));
      }
      await user.goto('/ChatPage');
      await user.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
      await user
        .getByTestId('conversation')
        .filter({ hasText: PHONE.slice(-4) })
        .first()
        .click();
      await user.getByRole('log').getByText('Hi back').waitFor();
      await settle(user);
      problems.push(...(await audit(user, `/ChatPage conversation open (${scheme})`)));
      // Its contact dialog.
      await user.getByRole('button', { name: 'Edit contact' }).click();
      await user.getByRole('dialog').waitFor();
      problems.push(...(await audit(user, `/ChatPage contact dialog (${scheme})`)));
      await user.keyboard.press('Escape');

      // A new user: the empty states.
      const empty = await e.newPage();
      await empty.emulateMedia({ colorScheme: scheme });
      await loginWithToken(empty, e, fresh);
      for (const [path, heading] of [
        ['/dashboard', 'Dashboard'],
        ['/ChatPage', 'Chat'],
        ['/History', 'SMS History Stats'],
        ['/topup', 'Top up'],
      ] as const) {
        await empty.goto(path);
        await empty.getByRole('heading', { level: 1, name: heading }).waitFor();
        await settle(empty);
        problems.push(...(await audit(empty, `${path} new user (${scheme})`)));
      }

      // Admin: an unknown device (error state) and the admin's own dashboard.
      const admin = await e.newPage();
      await admin.emulateMedia({ colorScheme: scheme });
      await loginWithToken(admin, e, ADMIN);
      await admin.goto('/details/00:00:00:00:00:00');
      await admin.locator('[data-testid="error-state"], [data-testid="empty-state"]').first().waitFor();
      await settle(admin);
      problems.push(...(await audit(admin, `/details unknown (${scheme})`)));
      await admin.goto('/dashboard');
      await admin.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await settle(admin);
      problems.push(...(await audit(admin, `/dashboard as admin (${scheme})`)));
      for (const p of [anon, user, empty, admin]) await p.context().close();
    }
    expect(problems).toEqual([]);
  }, 360_000);

  it('has none with dialogs open and in the mobile drawer at 390 px', async () => {
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const admin = await e.newPage();
      await admin.emulateMedia({ colorScheme: scheme });
      await loginWithToken(admin, e, ADMIN);
      for (const [path, heading, opener, dialog] of [
        ['/usermanager', 'User Manager', 'Add User', 'Add User'],
        ['/gatewaymanager', 'Gateway Manager', 'Add Gateway', 'Add gateway'],
        ['/servicemanager', 'Service Manager', /Add Service/, 'Add Service'],
        ['/servicemanager', 'Service Manager', /^Spent numbers of/, /^Spent numbers —/],
      ] as const) {
        await admin.goto(path);
        await admin.getByRole('heading', { level: 1, name: heading }).waitFor();
        await settle(admin);
        await admin.getByRole('button', { name: opener }).first().click();
        await admin.getByRole('dialog', { name: dialog }).waitFor();
        // The form's validation messages too.
        const submit = admin.getByRole('dialog').locator('button[type="submit"]');
        if ((await submit.count()) && (await submit.isEnabled())) await submit.click();
        await admin.waitForTimeout(300);
        problems.push(...(await audit(admin, `${path} dialog (${scheme})`)));
        await admin.keyboard.press('Escape');
      }
      // An edit dialog and a delete confirmation.
      await admin.goto('/usermanager');
      const table = admin.getByRole('table', { name: 'Users', exact: true });
      const row = table
        .getByRole('row')
        .filter({ has: admin.getByText(DEMO_USER.username, { exact: true }) });
      await row.getByRole('button', { name: 'Edit' }).click();
      await admin.getByRole('dialog', { name: 'Edit User' }).waitFor();
      problems.push(...(await audit(admin, `/usermanager edit (${scheme})`)));
      await admin.keyboard.press('Escape');
      await row.getByRole('button', { name: 'Delete' }).click();
      await admin.getByRole('dialog', { name: 'Delete user' }).waitFor();
      problems.push(...(await audit(admin, `/usermanager delete confirm (${scheme})`)));
      await admin.keyboard.press('Escape');
      // A gateway's SIM panel open, and its "Set number" and "Simulate SMS" dialogs.
      await admin.goto('/gatewaymanager');
      await admin.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
      await admin.getByRole('button', { name: 'SIMs' }).first().click();
      await admin.getByRole('button', { name: 'Set Number' }).first().waitFor();
      await settle(admin);
      problems.push(...(await audit(admin, `/gatewaymanager SIM panel (${scheme})`)));
      for (const [button, dialog] of [
        ['Set Number', /^Set number for port/],
        ['Simulate SMS', /^Simulate an incoming SMS/],
      ] as const) {
        await admin.getByRole('button', { name: button }).first().click();
        await admin.getByRole('dialog', { name: dialog }).waitFor();
        problems.push(...(await audit(admin, `/gatewaymanager ${button} dialog (${scheme})`)));
        await admin.keyboard.press('Escape');
        await admin.getByRole('dialog').waitFor({ state: 'detached' });
      }
      // Order Manager with a filter that finds nothing (its empty state).
      await admin.goto('/ordermanager?phone=0000000000');
      await admin.getByRole('heading', { level: 1, name: 'Order Manager' }).waitFor();
      await settle(admin);
      problems.push(...(await audit(admin, `/ordermanager filtered (${scheme})`)));
      await admin.context().close();

      // Phone width: the drawer open, and the chat's conversation list.
      const phone = await e.newPage({ viewport: { width: 390, height: 844 } });
      await phone.emulateMedia({ colorScheme: scheme });
      await loginWithToken(phone, e, DEMO_USER);
      await phone.goto('/dashboard');
      await phone.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await settle(phone);
      problems.push(...(await audit(phone, `/dashboard 390px (${scheme})`)));
      await phone.getByRole('button', { name: 'Open menu' }).click();
      await phone.getByRole('dialog', { name: 'Main navigation' }).waitFor();
      problems.push(...(await audit(phone, `drawer 390px (${scheme})`)));
      await phone.keyboard.press('Escape');
      await phone.goto('/ChatPage');
      await phone.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
      await settle(phone);
      problems.push(...(await audit(phone, `/ChatPage 390px (${scheme})`)));
      await phone.context().close();
    }
    expect(problems).toEqual([]);
  }, 360_000);
});
