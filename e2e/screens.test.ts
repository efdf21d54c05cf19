import { readFileSync } from 'node:fs';
import { DEMO_GATEWAY, DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, shot, startE2E, watchErrors } from './harness.ts';

// Issues 14 and 13: every page of the web router (public, user and admin) at desktop (1280×800) and
// phone (390×844) widths, light and dark — never a sideways scroll — with a screenshot of each in
// test-results/screens/ (see README); a failed list load shows the error with Retry and never the empty
// text; statuses read as words in Vietnamese.

let e: E2E;
let zeroUser: { username: string; password: string };

beforeAll(async () => {
  e = await startE2E({ env: { DEMO: 'true', CANCEL_MIN_SECONDS: '0' } });
  // The demo user gets a waiting rental and a cancelled one, so the Dashboard shows statuses.
  const token = await e.token(DEMO_USER.username, DEMO_USER.password);
  const rented = await e.api<{ data: { id: string } }>('/api/Order/create', { serviceCode: 'wa' }, token);
  await e.api('/api/Order/cancel', { orderId: rented.body.data.id }, token);
  await e.api('/api/Order/create', { serviceCode: 'tg' }, token);
  zeroUser = await e.createUser();
});
afterAll(async () => {
  await e?.close();
});

const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 800 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;
const THEMES = ['light', 'dark'] as const;
const MAC = DEMO_GATEWAY.mac.replace(/-/g, ':');

/** Waits until skeletons are gone and the page is still for a moment. */
async function settle(page: Page) {
  await expect
    .poll(() => page.evaluate('document.querySelectorAll(".animate-pulse").length'), { timeout: 10_000 })
    .toBe(0);
  await page.waitForTimeout(250);
}

const sideways = (page: Page) =>
  page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  ) as Promise<number>;

type Screen = readonly [path: string, heading: RegExp | string, who: 'anon' | 'user' | 'zero' | 'admin'];
const SCREENS: Screen[] = [
  ['/login', 'Sign in to SimDock', 'anon'],
  ['/register', 'Create your account', 'anon'],
  ['/home', 'Receive SMS one-time codes without a personal SIM', 'anon'],
  ['/terms', 'Terms of Service', 'anon'],
  ['/privacy', 'Privacy Policy', 'anon'],
  ['/dashboard', 'Dashboard', 'user'],
  ['/dashboard', 'Dashboard', 'zero'],
  ['/userinfo', 'User Info', 'user'],
  ['/topup', 'Top up', 'user'],
  ['/apikey', 'API Key Management', 'user'],
  ['/gatewaymanager', 'You don’t have access to this page', 'user'],
  ['/admin', 'Overview', 'admin'],
  ['/servicemanager', 'Service Manager', 'admin'],
  ['/gatewaymanager', 'Gateway Manager', 'admin'],
  [`/details/${MAC}`, /^Device Statistics/, 'admin'],
  ['/details/00:00:00:00:00:01', 'Device Statistics', 'admin'],
  ['/ordermanager', 'Order Manager', 'admin'],
  ['/usermanager', 'User Manager', 'admin'],
  ['/audit', 'Audit Log', 'admin'],
  ['/paymentmanager', 'Payment Manager', 'admin'],
  ['/SMS_SendingPage', /^SMS Sending \(Max: /, 'user'],
  ['/History', 'SMS History Stats', 'user'],
  ['/History', 'SMS History Stats', 'admin'],
  ['/ChatPage', 'Chat', 'user'],
  ['/ChatPage', 'Chat', 'admin'],
  ['/settings', 'Settings', 'admin'],
  ['/unauthorized', 'You don’t have access to this page', 'anon'],
  ['/no-such-page', 'Page not found', 'anon'],
];

describe('the screen list', () => {
  it('has every route of the web router (a new page cannot miss its screenshots)', () => {
    const router = readFileSync(new URL('../apps/web/src/app/router.tsx', import.meta.url), 'utf8');
    const paths = [...router.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(20);
    const covered = SCREENS.map(([path]) => path.toLowerCase());
    const missing = paths.filter((route) => {
      if (route === '*') return !covered.includes('/no-such-page');
      const fixed = `/${route.toLowerCase().replace(/:[a-z]+$/, '')}`;
      return !covered.some((p) => (fixed.endsWith('/') ? p.startsWith(fixed) : p === fixed));
    });
    expect(missing).toEqual([]);
  });
});

function shotName(path: string, who: string, width: string, theme: string) {
  const slug = path.replace(/^\//, '').replace(/[^a-zA-Z0-9]+/g, '-') || 'root';
  return `${slug}${who === 'zero' ? '-new-user' : who === 'user' && path === '/gatewaymanager' ? '-unauthorized' : ''}-${width}-${theme}`;
}

describe('every built screen, both widths and themes', () => {
  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      it(`never scrolls sideways at ${width.name} px (${theme}), and is screenshotted`, async () => {
        const problems: string[] = [];
        const pages: Record<string, Page> = {};
        for (const who of ['anon', 'user', 'zero', 'admin'] as const) {
          const page = await e.newPage({ viewport: width.viewport });
          await page.emulateMedia({ colorScheme: theme });
          if (who === 'user') await loginWithToken(page, e, DEMO_USER);
          if (who === 'zero') await loginWithToken(page, e, zeroUser);
          if (who === 'admin') await loginWithToken(page, e, ADMIN);
          pages[who] = page;
        }
        for (const [path, heading, who] of SCREENS) {
          const page = pages[who]!;
          const errors = watchErrors(page);
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await settle(page);
          const over = await sideways(page);
          if (over > 0) problems.push(`${path} (${who}): ${over}px sideways`);
          await shot(page, shotName(path, who, width.name, theme));
          if (errors.length) problems.push(`${path}: ${errors.join('; ')}`);
        }
        for (const p of Object.values(pages)) await p.context().close();
        expect(problems).toEqual([]);
      }, 180_000);
    }
  }
});

describe('failure is never an empty state', () => {
  it('Gateway Manager without a connection: plain words and Retry, no empty text, then the list', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, ADMIN);
    await page.route('**/api/Admin/getSettings', (route) => route.abort('failed'));
    await page.goto('/gatewaymanager');
    const alert = page.getByTestId('error-state');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Load failed');
    expect(await alert.textContent()).toContain(
      'No connection to the server. Check your connection and try again.',
    );
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    expect(await page.getByText('No gateways found. Please add one.').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Gateway Manager');
    await shot(page, 'gatewaymanager-failed-1280-light');

    await page.unroute('**/api/Admin/getSettings');
    await alert.getByRole('button', { name: 'Try Again' }).click();
    await page.getByRole('row', { name: new RegExp(DEMO_GATEWAY.name.replace(/[()]/g, '\\$&')) }).waitFor();
    expect(await page.getByTestId('error-state').count()).toBe(0);
  });
});

describe('live status and offline', () => {
  it('the Live mark turns off and says why when the event stream is down; offline shows a banner', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, DEMO_USER);
    await page.route('**/api/Order/stream', (route) => route.abort('failed'));
    await page.goto('/dashboard');
    const live = page.getByTestId('live-indicator');
    await expect.poll(() => live.getAttribute('data-status'), { timeout: 10_000 }).toBe('down');
    expect(await live.textContent()).toContain('Live updates off');
    await page
      .getByText('Live updates are paused: no connection to the server. Checking every 5 s instead.', {
        exact: true,
      })
      .waitFor();
    await page.context().setOffline(true);
    await page.getByText('You are offline. What you see may be out of date.').waitFor();
    await shot(page, 'dashboard-offline-1280-light');
    await page.context().setOffline(false);
  });
});

describe('words, not codes', () => {
  it('shows order statuses by name in Vietnamese, in the badges and the chat label', async () => {
    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    await loginWithToken(page, e, DEMO_USER);
    await page.evaluate("localStorage.setItem('simdock.lang', 'vi')");
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Bảng điều khiển' }).waitFor();
    await page.getByText('Đang chờ mã').first().waitFor();
    await page.getByText('Đã hủy').first().waitFor();
    expect(await page.getByText('WAIT_CODE', { exact: true }).count()).toBe(0);
    expect(await sideways(page)).toBe(0);
    await shot(page, 'dashboard-vi-390-light');
  });
});
