import { AxeBuilder } from '@axe-core/playwright';
import { DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, startE2E } from './harness.ts';

// An automated accessibility check (axe-core, WCAG 2 A/AA rules) of the main screens, in light and
// dark mode. Serious and critical findings fail the test.

let e: E2E;
beforeAll(async () => {
  e = await startE2E({ env: { DEMO: 'true' } });
});
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
});
