import { amountText } from '@simdock/contract';
import { DEMO_USER } from '@simdock/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, shot, startE2E } from './harness.ts';

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

/** The top bar's text for the starting balance plus `delta` dollars (exact, in ten-thousandths). */
const balanceText = (delta: number) => {
  const units = start + Math.round(delta * 10_000);
  return `$${amountText(`${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`)}`;
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
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.getByRole('button', { name: 'Rent a Telegram number' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Telegram' }).filter({ hasText: 'Waiting for code' });
    await row.waitFor();
    const phone = (await row.getByTestId('order-phone').textContent())!.trim();
    expect(phone).toMatch(/^\d{11}$/);
    expect(await row.textContent()).toMatch(/in (19|20) min/);
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(-0.5));
    await page.waitForTimeout(1500);
    const count = (path: string) => calls.filter((c) => c === path).length;
    expect(count('/api/Order/stats')).toBe(1);
    expect(count('/api/user/info')).toBe(1);
    expect(count('/api/Order/getbyuser')).toBe(0);

    // A marker on the window proves the page is not reloaded when the code arrives.
    await page.evaluate('window.__stillHere = true');
    await simulateSmsTo(phone, 'Telegram code: 48213. Do not give this code to anyone.');
    const done = page.getByRole('row').filter({ hasText: phone });
    await done.getByTestId('order-code').filter({ hasText: '48213' }).waitFor({ timeout: 4000 });
    await expect.poll(() => done.getByTestId('order-status').textContent()).toBe('Code received');
    // A code can't be missed: a toast with the code and a copy button, and the bell counts it.
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Code 48213 for Telegram' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(`Number ${phone}`);
    expect(await toast.getByRole('button', { name: 'Copy Code' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('bell-count').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.getByTestId('notification-list').getByText('Code 48213 for Telegram').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('bell-count').count()).toBe(0);
    expect(await page.evaluate('window.__stillHere === true')).toBe(true);
    await shot(page, 'dashboard-code-arrived');

    // Another rental, cancelled: refunded to the balance.
    await page.getByLabel('Search services').fill('');
    await page.getByRole('button', { name: 'Rent a WhatsApp number' }).click();
    const wa = page.getByRole('row').filter({ hasText: 'WhatsApp' }).filter({ hasText: 'Waiting for code' });
    await wa.waitFor();
    const waPhone = (await wa.getByTestId('order-phone').textContent())!.trim();
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe(balanceText(-1.3));
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
