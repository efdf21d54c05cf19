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

describe('accessibility', () => {
  it('has no serious or critical axe findings on the main screens', async () => {
    const problems: string[] = [];
    const anon = await e.newPage();
    for (const path of ['/login', '/register', '/home', '/terms']) {
      await anon.goto(path);
      await anon.getByRole('heading', { level: 1 }).first().waitFor();
      problems.push(...(await audit(anon, path)));
    }

    const user = await e.newPage();
    await loginViaUi(user, { username: DEMO_USER.username, password: DEMO_USER.password });
    await user.getByRole('button', { name: 'Rent a Telegram number' }).waitFor();
    problems.push(...(await audit(user, '/dashboard')));

    const admin = await e.newPage();
    await loginViaUi(admin, ADMIN);
    for (const [path, heading] of [
      ['/gatewaymanager', 'Gateway Manager'],
      ['/servicemanager', 'Service Manager'],
      ['/ordermanager', 'Order Manager'],
      ['/userinfo', 'User Info'],
    ] as const) {
      await admin.goto(path);
      await admin.getByRole('heading', { level: 1, name: heading }).waitFor();
      await admin.waitForLoadState('networkidle');
      problems.push(...(await audit(admin, path)));
    }
    await admin.emulateMedia({ colorScheme: 'dark' });
    await admin.goto('/gatewaymanager');
    await admin.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
    problems.push(...(await audit(admin, '/gatewaymanager (dark)')));

    expect(problems).toEqual([]);
  });
});
