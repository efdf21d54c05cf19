import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, shot, startE2E, watchErrors } from './harness.ts';

// Top-ups in the browser: a user tops up through the sandbox page, sees the new balance
// in the top bar and the payment DONE in the history; an admin sees it in Payment Manager.

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
});
afterAll(async () => {
  await e?.close();
});

describe('top-up with the sandbox provider', () => {
  it('validates the amount, pays on the sandbox page, and shows the credit live', async () => {
    const user = await e.createUser();
    const page = await e.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/topup');
    await page.getByRole('heading', { level: 1, name: 'Top up' }).waitFor();
    await page.getByText('Sandbox payments.').waitFor();
    await page.getByText('No payments yet. Your invoices show here.').waitFor();
    const balance = page.getByTestId('shell-balance');
    expect((await balance.textContent())?.trim()).toBe('$0.0000');

    // The contract's rules before anything is sent.
    const amount = page.getByLabel('Amount (USD)');
    expect(await amount.inputValue()).toBe('10.00');
    await amount.fill('9.5');
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.getByText('The minimum top-up is 10 USD.').waitFor();
    await amount.fill('12.345');
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.getByText('Use at most two decimals (cents).').waitFor();
    expect((await e.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments'))[0]?.n).toBe(0);
    await shot(page, 'topup-desktop');

    // A valid amount opens the sandbox's hosted page; the payer overpays a little.
    await amount.fill('25.50');
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.waitForURL(/\/sandbox\/pay\/sbx_/);
    await page.getByText('SANDBOX — not a real payment').waitFor();
    await shot(page, 'topup-sandbox-page');
    // The sandbox page follows the system's dark scheme like the app.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(15, 19, 26)');
    await shot(page, 'topup-sandbox-page-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Pay exactly' }).click();

    // Back on /topup: DONE in the history, the credit in the top bar, the return notice.
    await page.waitForURL(/\/topup\?payment=/);
    await page.getByText('Payment received: $25.50 was added to your balance.').waitFor();
    const table = page.getByRole('table', { name: 'Your payments' });
    await table.getByText('DONE').waitFor();
    await expect
      .poll(async () => (await balance.textContent())?.trim(), { timeout: 10_000 })
      .toBe('$25.5000');

    // A second invoice left unpaid: PENDING with Pay Now leading back to the invoice.
    await page.getByLabel('Amount (USD)').fill('10');
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.waitForURL(/\/sandbox\/pay\//);
    const invoiceUrl = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Leave without paying' }).click();
    await page.waitForURL(/\/topup\?payment=/);
    await page.getByText('We have not seen a payment for this invoice yet.').waitFor();
    const payNow = table.getByRole('link', { name: /^Pay Now: invoice / });
    expect(await payNow.getAttribute('href')).toBe(invoiceUrl);

    // The credit arrives live while the page stays open (a payment made in another tab).
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const other = await e.newPage();
    await other.goto(invoiceUrl);
    await other.getByLabel('USDT sent').first().fill('4.75');
    await other.getByRole('button', { name: 'Pay partially' }).click();
    await other.waitForURL(/\/topup/);
    await expect
      .poll(async () => (await balance.textContent())?.trim(), { timeout: 10_000 })
      .toBe('$30.2500');
    await other.close();

    // Phone width: cards, no sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/topup');
    await page.getByText('PENDING').or(page.getByText('DONE')).first().waitFor();
    expect(
      await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
    ).toBe(true);
    await shot(page, 'topup-phone');
    expect(errors).toEqual([]);
  });

  it('Payment Manager shows the payments with amount real, gateway status and finish time', async () => {
    const page = await e.newPage({ viewport: { width: 1366, height: 850 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, ADMIN);
    await page.goto('/paymentmanager');
    await page.getByRole('heading', { level: 1, name: 'Payment Manager' }).waitFor();
    const table = page.getByRole('table', { name: 'Payments', exact: true });
    const rows = await e.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM payments ORDER BY created_at',
    );
    expect(rows.map((r) => r.status)).toEqual(['DONE', 'DONE']);
    for (const r of rows) await table.getByText(`${r.id.slice(0, 6)}...${r.id.slice(-4)}`).waitFor();
    for (const header of ['Amount Real', 'Gateway Status', 'Finished At'])
      await table.getByRole('columnheader', { name: header }).waitFor();
    // Statuses by name, never the provider's raw code (not even as a tooltip).
    expect(await table.getByText('Partially paid').getAttribute('title')).toBeNull();
    await table.getByText('$4.75').first().waitFor();
    await shot(page, 'payment-manager-desktop');
    // Search and status filter, kept in the URL: a reload shows the same list.
    await page.getByLabel('Search payments').fill(rows[0]!.id.slice(0, 8));
    await page.getByLabel('Status').selectOption('DONE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await page.reload();
    expect(await page.getByLabel('Search payments').inputValue()).toBe(rows[0]!.id.slice(0, 8));
    await table.getByText(`${rows[0]!.id.slice(0, 6)}...${rows[0]!.id.slice(-4)}`).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'payment-manager-phone');
    expect(errors).toEqual([]);
  });
});
