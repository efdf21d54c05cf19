import { DEMO_USER } from '@simdock/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, axeFindings, colorScheme, type E2E, loginWithToken, startE2E } from './harness.ts';

// An automated accessibility check (axe-core, WCAG 2 A/AA rules; serious and critical findings fail).
// Every screen of the web router is audited where it is screenshotted (e2e/screens.test.ts: each
// screen at 1280 px in light and dark with its dialogs, menus, form errors and the open chat, and the
// Dashboard, drawer and chat at 390 px). Here: the routes and roles that have no screenshot, in
// light and dark — the root redirect signed out, pages a plain User opens or is refused, a new
// User's empty states, the admin on user pages.

let e: E2E;

beforeAll(async () => {
  // The demo data with the workers on (the demo campaign is sent), as on the screenshot passes.
  e = await startE2E({ workers: true, env: { DEMO: 'true', SMS_PER_SIM_PER_MINUTE: '600' } });
}, 120_000);
afterAll(async () => {
  await e?.close();
});

const REFUSED = 'You don’t have access to this page';

describe('accessibility', () => {
  it('has no serious or critical axe findings on the routes without a screenshot, light and dark', async () => {
    const fresh = await e.createUser();
    const visits = [
      // Signed out: the root redirect.
      ['anon', '/', /.+/, '/ signed out'],
      // The demo user (seeded orders and the campaign's conversations): the landing page signed
      // in, and admin pages refused.
      ['user', '/home', /.+/, '/home as User'],
      ['user', '/settings', REFUSED, '/settings as User'],
      ['user', '/admin', REFUSED, '/admin as User'],
      // A new user: the empty states.
      ['fresh', '/ChatPage', 'Chat', '/ChatPage new user'],
      ['fresh', '/History', 'SMS History Stats', '/History new user'],
      ['fresh', '/topup', 'Top up', '/topup new user'],
      // The admin on pages the screenshots show for a User, and the admin's own dashboard.
      ['admin', '/userinfo', 'User Info', '/userinfo as admin'],
      ['admin', '/SMS_SendingPage', /^SMS Sending \(Max: /, '/SMS_SendingPage as admin'],
      ['admin', '/dashboard', 'Dashboard', '/dashboard as admin'],
    ] as const;
    const pages = {
      anon: await e.newPage(),
      user: await e.newPage(),
      fresh: await e.newPage(),
      admin: await e.newPage(),
    };
    await loginWithToken(pages.user, e, DEMO_USER);
    await loginWithToken(pages.fresh, e, fresh);
    await loginWithToken(pages.admin, e, ADMIN);
    const problems: string[] = [];
    for (const [who, path, heading, label] of visits) {
      const page = pages[who];
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await colorScheme(page, scheme);
        problems.push(...(await axeFindings(page, `${label} (${scheme})`)));
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('drops transitions for a visitor who asks for less motion, and only then', async () => {
    const transition = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await (await e.newContext({ reducedMotion })).newPage();
      await page.goto('/login');
      const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
      return signIn.evaluate((el) => {
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle(e: unknown): { transitionProperty: string; transitionDuration: string };
        };
        const style = getComputedStyle(el);
        return `${style.transitionProperty} ${style.transitionDuration}`;
      });
    };
    expect(await transition('no-preference')).toMatch(/^color, background-color.* 0\.15s$/);
    expect(await transition('reduce')).toMatch(/ 0s$/);
  });
});
