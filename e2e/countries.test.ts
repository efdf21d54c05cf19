import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, settle, shot, startE2E } from './harness.ts';

// Renting by country: an admin gives Facebook a German price in Service Manager; a user picks
// Germany on the Dashboard, sees that price, rents, and is charged it. The demo's SIMs span the US,
// Germany and the UK.

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ env: { DEMO: 'true' } });
});

afterAll(async () => {
  await e?.close();
});

/** Screenshots at 390 and 1280 px wide of the page as it is now, back at 1280 after. */
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

describe('renting by country', () => {
  it('an admin sets a German price; a user picking Germany sees it, rents, and is charged it', async () => {
    const admin = await e.newPage();
    await loginViaUi(admin, ADMIN);
    await admin.goto('/servicemanager');
    const row = admin
      .getByRole('table', { name: 'Services' })
      .getByRole('row')
      .filter({ hasText: 'Facebook' });
    await row.getByRole('button', { name: 'More actions: Facebook' }).click();
    await admin.getByRole('menuitem', { name: 'Prices by country' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Prices by country: Facebook' });
    await dialog.getByLabel('Country code').fill('de');
    await expect.poll(() => dialog.getByText('Germany').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Price', { exact: true }).fill('0.77');
    await dialog.getByRole('button', { name: 'Save price' }).click();
    const grid = dialog.getByRole('table', { name: 'Prices by country and operator' });
    await expect
      .poll(() => grid.getByRole('row').filter({ hasText: 'Germany' }).textContent())
      .toContain('$0.77');
    await shotsAt(admin, 'countries-service-prices');

    // The Gateway Manager's SIM table with each SIM's country, for the screenshots.
    await admin.goto('/gatewaymanager');
    await admin.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
    await admin.getByRole('button', { name: 'SIMs' }).first().click();
    await admin.getByRole('columnheader', { name: 'Country' }).first().waitFor();
    await shotsAt(admin, 'countries-gateway-sims');
    // An admin corrects port 1.01's country: the row says so.
    const sims = admin.getByRole('table', { name: /^SIMs of / });
    await sims
      .getByRole('button', { name: /^More actions/ })
      .first()
      .click();
    await admin.getByRole('menuitem', { name: 'Correct country' }).click();
    const origin = admin.getByRole('dialog', { name: 'Country and operator of port 1.01' });
    await origin.getByLabel('Country code').fill('at');
    await origin.getByLabel('Operator').fill('A1');
    await expect.poll(() => origin.getByText('Austria').count()).toBe(1);
    await settle(admin);
    await shot(admin, 'countries-sim-origin-1280');
    await origin.getByRole('button', { name: 'Save' }).click();
    const first = sims.getByRole('row').filter({ hasText: 'Austria' });
    await expect.poll(() => first.textContent()).toContain('Corrected by an admin');

    const user = await e.createUser({ balance: 10 });
    const page = await e.newPage();
    await loginViaUi(page, user);
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe('$10.0000');
    const country = page.getByLabel('Country', { exact: true });
    await expect.poll(() => country.locator('option[value="DE"]').count()).toBe(1);
    await country.selectOption('DE');
    // Facebook has no operator's price of its own in the demo: Germany's price is the one shown.
    const facebook = page
      .getByRole('table', { name: 'Rent a number' })
      .getByRole('row')
      .filter({ hasText: 'Facebook' });
    await expect.poll(() => facebook.textContent()).toContain('$0.77');
    await shotsAt(page, 'countries-dashboard');

    await page.getByRole('button', { name: 'Rent a Facebook number' }).click();
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe('$9.2300');
    const [order] = await e.db.query<{ country: string | null; price: string }>(
      `SELECT o.country, o.price::text AS price FROM orders o JOIN users u ON u.id = o.user_id
        WHERE u.username = $1`,
      [user.username],
    );
    expect(order).toMatchObject({ country: 'DE' });
    expect(Number(order!.price)).toBe(0.77);
    // The number's flag by it, and the choice kept for the next visit.
    await expect
      .poll(() => page.getByTestId('order-country').first().getAttribute('aria-label'))
      .toBe('Number from Germany');
    await page.reload();
    await expect.poll(() => page.getByLabel('Country', { exact: true }).inputValue()).toBe('DE');
  });
});
