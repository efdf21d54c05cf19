import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, shot, startE2E } from './harness.ts';

// The connection to the server, as a browser sees it: one live stream for all the tabs of a browser
// (a browser opens at most six connections to a host over HTTP/1.1: with a stream per tab, a seventh
// tab never loaded), and an outage (a restart) that pages live through and recover from by themselves.

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(async () => {
  await e?.close();
});

const STREAM = '/api/Order/stream';

/** The live streams the context's tabs opened (all) and hold (open). */
function countStreams(ctx: BrowserContext): { all: () => number; open: () => number } {
  let all = 0;
  let ended = 0;
  const isStream = (url: string) => new URL(url).pathname === STREAM;
  ctx.on('request', (r) => {
    if (isStream(r.url())) all += 1;
  });
  const end = (r: { url(): string }) => {
    if (isStream(r.url())) ended += 1;
  };
  ctx.on('requestfinished', end);
  ctx.on('requestfailed', end);
  return { all: () => all, open: () => all - ended };
}

async function dashboardLive(page: Page) {
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-status')).toBe('live');
}

describe('one live stream per browser', () => {
  // Web Locks exist only in a secure context (HTTPS, localhost): a site served over plain HTTP elects
  // its leader with a lease in localStorage instead (apps/web/src/live/live-share.ts).
  it.each([
    ['with Web Locks', false],
    ['without Web Locks (a plain-HTTP site)', true],
  ])(
    '%s: eight tabs load and navigate; one stream feeds them all, and another tab takes it over when its tab closes',
    async (_name, noLocks) => {
      const user = await e.createUser({ balance: 5 });
      const ctx = await e.newContext();
      if (noLocks)
        await ctx.addInitScript(
          `Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined })`,
        );
      const streams = countStreams(ctx);
      const first = await ctx.newPage();
      await loginWithToken(first, e, user);
      await first.goto('/dashboard');
      await dashboardLive(first);
      expect(await first.evaluate('navigator.locks === undefined')).toBe(noLocks);

      const tabs = [first];
      for (let i = 1; i < 8; i += 1) {
        const tab = await ctx.newPage();
        await tab.goto('/dashboard');
        // Every tab shows the stream's state, though only the first follows it.
        await dashboardLive(tab);
        tabs.push(tab);
      }
      // Every tab navigates inside the app as well.
      for (const tab of tabs) {
        await tab.getByRole('link', { name: 'Top up', exact: true }).click();
        await tab.waitForURL(/\/topup$/);
        await tab.getByRole('heading', { level: 1 }).waitFor();
      }
      expect(streams.all()).toBe(1);
      expect(streams.open()).toBe(1);

      // An event reaches a tab that does not hold the stream: the top bar's balance.
      const admin = await e.token(ADMIN.username, ADMIN.password);
      const setBalance = (balance: number) =>
        e.api(
          '/api/Admin/updateUser',
          { user: { id: user.id, username: user.username, email: user.email, roles: ['User'], balance } },
          admin,
        );
      expect((await setBalance(12)).status).toBe(200);
      for (const tab of tabs)
        await expect
          .poll(async () => (await tab.getByTestId('shell-balance').textContent())?.trim())
          .toBe('$12.0000');

      // The leader (the first tab, which took the stream first) closes: another tab takes over.
      await first.close();
      // One new stream, from one of the seven (a closed tab's request never reports its end).
      await expect.poll(streams.all).toBe(2);
      await tabs[7]!.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await dashboardLive(tabs[7]!);
      expect((await setBalance(7)).status).toBe(200);
      for (const tab of tabs.slice(1))
        await expect
          .poll(async () => (await tab.getByTestId('shell-balance').textContent())?.trim())
          .toBe('$7.0000');
      expect(streams.all()).toBe(2);
    },
    150_000,
  );
});

describe('an outage', () => {
  it('keeps the shell for a page that cannot load, says "No connection" and loads it once the server is back', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, ADMIN);
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    // A second tab of the browser: it gets the stream's state from the first.
    const other = await page.context().newPage();
    await other.goto('/usermanager');
    await other.getByRole('table', { name: 'Users', exact: true }).getByRole('row').nth(1).waitFor();

    const restart = await e.stopServer();
    // Pages showing what they loaded before say it may be old, in every tab.
    const banner = page.getByTestId('connection-banner');
    for (const tab of [page, other]) {
      await tab.getByTestId('connection-banner').waitFor();
      expect(await tab.getByTestId('connection-banner').textContent()).toBe(
        'No connection to the server. What you see may be out of date; it updates by itself when the connection is back.',
      );
    }
    await shot(other, 'outage-banner-1280-light');
    // A page never opened before: its code cannot load. The shell stays, the page says why.
    await page.getByRole('link', { name: 'Audit Log', exact: true }).click();
    await page.waitForURL(/\/audit$/);
    await page.getByText('No connection', { exact: true }).waitFor();
    await page
      .getByText(
        'This page could not load: no connection to the server. It loads by itself when the connection is back.',
      )
      .waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await page.getByRole('navigation').first().waitFor();
    await shot(page, 'outage-page-unavailable-1280-light');

    await restart();
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached' });
    await other.getByTestId('connection-banner').waitFor({ state: 'detached' });
    expect(await page.getByText('No connection', { exact: true }).count()).toBe(0);
  }, 90_000);

  it('says it in Vietnamese, on a phone, in the dark', async () => {
    const ctx = await e.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await loginWithToken(page, e, ADMIN);
    await page.evaluate("localStorage.setItem('simdock.lang', 'vi')");
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const restart = await e.stopServer();
    await page
      .getByText('Không kết nối được tới máy chủ. Dữ liệu hiển thị có thể đã cũ', { exact: false })
      .waitFor();
    await shot(page, 'outage-banner-390-vi-dark');
    await page.getByRole('button', { name: 'Mở menu' }).click();
    await page.getByRole('link', { name: 'Quản lý thanh toán' }).click();
    await page.getByText('Mất kết nối', { exact: true }).waitFor();
    await page.getByText('Chưa tải được trang này', { exact: false }).waitFor();
    await shot(page, 'outage-page-unavailable-390-vi-dark');
    await restart();
    await page.getByRole('heading', { level: 1, name: 'Quản lý thanh toán' }).waitFor({ timeout: 20_000 });
  }, 90_000);

  it('Settings and History leave their failed load by themselves once the server is back', async () => {
    for (const [path, api, failed, loaded] of [
      ['/settings', '**/api/Admin/getOutreachSettings', 'Could not load the settings', 'Settings'],
      ['/History', '**/api/MassOutreach/querymsg', 'Could not load the history', 'SMS History Stats'],
    ] as const) {
      const page = await e.newPage();
      await loginWithToken(page, e, ADMIN);
      // The page's data fails to load (the server is not answering it) …
      await page.route(api, (route) => route.abort('connectionrefused'));
      await page.goto(path);
      await page.getByText(failed).first().waitFor({ timeout: 20_000 });
      // … then the server goes away and comes back: nobody presses Retry.
      const restart = await e.stopServer();
      await page.getByTestId('connection-banner').waitFor();
      await page.unroute(api);
      await restart();
      await page.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByText(failed).count(), { timeout: 20_000 }).toBe(0);
      await page.getByRole('heading', { level: 1, name: loaded }).waitFor();
      await page.close();
    }
  }, 120_000);
});
