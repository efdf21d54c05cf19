import { DEMO_USER } from '@simdock/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type E2E,
  loginViaUi,
  loginWithToken,
  settle,
  shot,
  shownPhone,
  startE2E,
} from './harness.ts';

// Renting: the demo user rents a number on the Dashboard and the code appears without a reload.
// The server runs in demo mode: the simulated gateway, the seeded services and the demo user.

let e: E2E;
let adminToken: string;

// The demo's campaign is priced: its charge moved the demo user's balance (no job runs here, so it
// stays queued and nothing is refunded meanwhile). The test counts from the balance it left.
let start: number;

beforeAll(async () => {
  e = await startE2E({ env: { DEMO: 'true', CANCEL_MIN_SECONDS: '0' } });
  adminToken = await e.token(ADMIN.username, ADMIN.password);
  const [u] = await e.db.query<{ b: string }>('SELECT balance::text AS b FROM users WHERE username = $1', [
    DEMO_USER.username,
  ]);
  start = Math.round(Number(u!.b) * 10_000);
  expect(start).toBeLessThan(DEMO_USER.balance * 10_000);
});

/** The top bar's text for the starting balance plus `delta` dollars (exact; a balance shows four decimals). */
const balanceText = (delta: number) => {
  const units = start + Math.round(delta * 10_000);
  return `$${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
};

afterAll(async () => {
  await e?.close();
});

/** The admin's "simulate incoming SMS" control, aimed at the SIM that holds `phone`. */
async function simulateSmsTo(phone: string, text: string) {
  const settings = await e.api<{ gateways: { id: string }[] }>('/api/Admin/getSettings', {}, adminToken);
  for (const gw of settings.body.gateways) {
    const report = await e.api<{ sims: { port: string; number: string | null }[] }>(
      '/api/Admin/gatewayReport',
      { id: gw.id },
      adminToken,
    );
    const sim = report.body.sims.find((s) => s.number === phone);
    if (sim) {
      const res = await e.api(
        '/api/Admin/simulateSms',
        { gatewayId: gw.id, port: sim.port, from: 'Telegram', text },
        adminToken,
      );
      expect(res.status).toBe(200);
      return;
    }
  }
  throw new Error(`no SIM holds ${phone}`);
}

describe('OTP rental on the Dashboard', () => {
  it('rents a number and shows the code live, without a reload; cancels another with a refund', async () => {
    const page = await e.newPage();
    await loginViaUi(page, { username: DEMO_USER.username, password: DEMO_USER.password });
    await expect.poll(() => page.getByTestId('demo-badge').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(0));

    // The search filters the service list.
    await page.getByLabel('Search services').fill('tele');
    await expect.poll(() => page.getByRole('button', { name: /^Rent a .* number$/ }).count()).toBe(1);

    // One refetch per change: the rent's answer and its own live echo refresh the figures once.
    await page.waitForTimeout(500);
    // The demo's SIMs span the US, Germany and the UK: American numbers, whose format is checked below.
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await expect
      .poll(() => page.getByRole('button', { name: 'Rent a Telegram number' }).isEnabled())
      .toBe(true);
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.getByRole('button', { name: 'Rent a Telegram number' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Telegram' }).filter({ hasText: 'Waiting for code' });
    await row.waitFor();
    const phone = (await row.getByTestId('order-phone').getAttribute('data-value'))!;
    expect(phone).toMatch(/^\d{11}$/);
    // Shown as people read it; the digits stay what is stored and copied.
    expect(await row.getByTestId('order-phone').textContent()).toBe(
      `+1 ${phone.slice(1, 4)}-${phone.slice(4, 7)}-${phone.slice(7)}`,
    );
    expect(await row.textContent()).toMatch(/in (19|20) min/);
    // The new rental is pinned at the top with its countdown, and the keyboard focus moved to it.
    const cardName = `Telegram number +1 ${phone.slice(1, 4)}-${phone.slice(4, 7)}-${phone.slice(7)}`;
    const card = page.getByRole('article', { name: cardName });
    await card.waitFor();
    await expect
      .poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")'))
      .toBe(cardName);
    expect(await card.getByTestId('rental-countdown').textContent()).toMatch(/^(19:[0-5]\d|20:00)$/);
    const top = (await card.boundingBox())!.y;
    expect(top).toBeLessThan((await page.getByTestId('stat-cards').boundingBox())!.y);
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(-0.5));
    await page.waitForTimeout(1500);
    const count = (path: string) => calls.filter((c) => c === path).length;
    expect(count('/api/Order/stats')).toBe(1);
    expect(count('/api/user/info')).toBe(1);
    expect(count('/api/Order/getbyuser')).toBe(0);

    // A marker on the window proves the page is not reloaded when the code arrives.
    await page.evaluate('window.__stillHere = true');
    await simulateSmsTo(phone, 'Telegram code: 48213. Do not give this code to anyone.');
    // The code appears in the pinned card, large, in the same place (the card does not move).
    await card.getByTestId('rental-code').filter({ hasText: '48213' }).waitFor({ timeout: 4000 });
    expect((await card.boundingBox())!.y).toBe(top);
    expect(await card.getByRole('button', { name: 'Copy code' }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Finish' }).isVisible()).toBe(true);
    // Telegram sends one code per number: no "Another SMS".
    expect(await card.getByRole('button', { name: 'Another SMS' }).count()).toBe(0);
    const done = page.getByRole('row').filter({ has: page.locator(`[data-value="${phone}"]`) });
    await done.getByTestId('order-code').filter({ hasText: '48213' }).waitFor({ timeout: 4000 });
    await expect.poll(() => done.getByTestId('order-status').textContent()).toBe('Code received');
    // A code can't be missed: a toast with the code and a copy button, and the bell counts it.
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Code 48213 for Telegram' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(`Number ${shownPhone(phone)}`);
    expect(await toast.getByRole('button', { name: 'Copy Code' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('bell-count').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.getByTestId('notification-list').getByText('Code 48213 for Telegram').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('bell-count').count()).toBe(0);
    expect(await page.evaluate('window.__stillHere === true')).toBe(true);
    await shot(page, 'dashboard-code-arrived');
    // Finish closes the rental: it leaves the pinned cards.
    await card.getByRole('button', { name: 'Finish' }).click();
    await card.waitFor({ state: 'detached' });

    // Another rental, cancelled: refunded to the balance.
    await page.getByLabel('Search services').fill('');
    await page.getByRole('button', { name: 'Rent a WhatsApp number' }).click();
    const wa = page.getByRole('row').filter({ hasText: 'WhatsApp' }).filter({ hasText: 'Waiting for code' });
    await wa.waitFor();
    const waPhone = (await wa.getByTestId('order-phone').getAttribute('data-value'))!;
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(-1.3));
    // The service's SMS without a code in it: shown whole on the card, with Copy, and announced.
    const waText = 'Your WhatsApp account is being verified. We will text you again shortly.';
    await simulateSmsTo(waPhone, waText);
    const waCard = page.getByRole('article', { name: `WhatsApp number ${shownPhone(waPhone)}` });
    const waSms = waCard.getByTestId('rental-sms');
    await waSms.getByText('SMS received, no code recognised').waitFor({ timeout: 4000 });
    await waSms.getByText(waText).waitFor();
    expect(await waSms.getByRole('button', { name: 'Copy SMS' }).isVisible()).toBe(true);
    await page
      .locator('[data-sonner-toast]')
      .filter({ hasText: 'SMS for WhatsApp: no code recognised' })
      .waitFor();
    await expect.poll(() => page.getByTestId('bell-count').textContent()).toBe('1');
    await settle(page);
    await shot(page, 'dashboard-sms-no-code');
    await wa.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText(/Order cancelled; \$0\.80 was refunded/).waitFor();
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(-0.5));
    await expect.poll(() => page.getByTestId('stat-cards').textContent()).toContain('Daily Rentals2');

    // An SMS nobody waits for is kept and shown to the admin in Order Manager.
    await simulateSmsTo(waPhone, 'Promo: 50% off your next order');
    const admin = await e.newPage();
    await loginViaUi(admin, ADMIN);
    await admin.goto('/ordermanager');
    await admin.getByRole('heading', { name: 'Incoming SMS without an order' }).waitFor();
    await admin.getByRole('cell', { name: 'Promo: 50% off your next order' }).waitFor();
  });
});

describe('the Dashboard on a slow network', () => {
  // A timing bound on a shared 2-core machine: a run under heavy load may get a second try.
  it('shows the shell at once and its content after one round trip of 5 s (calls in parallel)', {
    retry: 2,
  }, async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, DEMO_USER);
    // Longer than the app's own start can take on a loaded machine (its shell ran 2.9–4.2 s after the
    // start once while other browser tests loaded both cores), so "before any answer" tests the app.
    const DELAY = 5000;
    const started: { path: string; at: number }[] = [];
    let answered = 0;
    const t0 = Date.now();
    await page.route('**/api/**', async (route) => {
      started.push({ path: new URL(route.request().url()).pathname, at: Date.now() - t0 });
      await new Promise((done) => setTimeout(done, DELAY));
      answered += 1;
      await route.continue().catch(() => {});
    });
    const begin = Date.now();
    await page.goto('/dashboard');
    // The shell (menu and page title) does not wait for the network: it shows before any answer.
    await page.getByRole('navigation', { name: 'Main navigation' }).first().waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const answeredBeforeShell = answered;
    await page.getByRole('button', { name: 'Rent a Telegram number' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('stat-cards').getByText('Daily Rentals').waitFor();
    await page.getByRole('table', { name: 'My numbers' }).getByRole('row').nth(1).waitFor();
    const contentAt = Date.now() - begin;
    const timeline = started.map((c) => `${c.at} ${c.path}`).join('\n');
    // Nothing waits for another call: the Dashboard's lists start before the user info is answered.
    const at = (path: string) => started.find((c) => c.path === path)?.at ?? Number.POSITIVE_INFINITY;
    for (const path of ['/api/Service/getall', '/api/Order/getbyuser', '/api/Order/stats'])
      expect(at(path), timeline).toBeLessThan(at('/api/user/info') + DELAY);
    expect(answeredBeforeShell, timeline).toBe(0);
    // One round trip, not two or three in a row: 5 s plus the app's own start (HTML, the entry chunk,
    // the page's chunk while the calls are out), which is 0.3 s idle and can pass 3 s while other
    // tests load both cores; two round trips in a row would take 10 s.
    expect(contentAt, `content at ${contentAt} ms\n${timeline}`).toBeLessThan(2 * DELAY);
    await page.unroute('**/api/**');
    await page.close();
  });
});
