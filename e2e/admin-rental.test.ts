import { join } from 'node:path';
import { addService, seedGateway } from '@simdock/server/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type E2E,
  loginWithToken,
  SHOTS_DIR,
  shot,
  shownPhone,
  startE2E,
  watchErrors,
} from './harness.ts';

// Rental administration in the browser: Service Manager adds, edits and deletes; Order Manager shows the
// per-gateway statistics, filters and paginates (docs/product.md), in Chromium against the built app.

let e: E2E;

/** Order plan: gw-alpha 150 orders (120 SUCCESS → 80.0 %, green), gw-beta 80 (20 SUCCESS → 25.0 %, red). */
const ALPHA = { name: 'gw-alpha', total: 150, success: 120 };
const BETA = { name: 'gw-beta', total: 80, success: 20 };
const TOTAL = ALPHA.total + BETA.total; // 230 → pages of 100, 100, 30
const ORDERS_SERVICE = { code: 'e2e-orders', name: 'E2E Orders Service' };
/** The phone of the n-th seeded order (1-based): 1 followed by 10 digits, all distinct. */
const phoneOf = (n: number) => `1555${String(n).padStart(7, '0')}`;
const TARGET = 117;

/** Seeded order ids, newest first: the order of the admin list. */
let ids: string[] = [];
/** Phone and status of each seeded order by id. */
const seeded = new Map<string, { phone: string; status: string }>();

beforeAll(async () => {
  e = await startE2E();
  const buyer = await e.createUser({ username: 'orderbuyer' });
  const serviceId = await addService(e.db, { code: ORDERS_SERVICE.code, name: ORDERS_SERVICE.name });
  const now = new Date();
  const alpha = await seedGateway(e.db, { name: ALPHA.name, sims: 1, lastUpdate: now });
  const beta = await seedGateway(e.db, { name: BETA.name, sims: 1, lastUpdate: now });

  // Statuses mixed within each gateway: alpha per 15 orders 12 SUCCESS, 2 WAIT_CODE, 1 CANCEL;
  // beta per 8 orders 2 SUCCESS, 3 WAIT_CODE, 3 CANCEL. Gateways interleaved two to one.
  const alphaStatus = (k: number) => (k % 15 < 12 ? 'SUCCESS' : k % 15 < 14 ? 'WAIT_CODE' : 'CANCEL');
  const betaStatus = (k: number) => (k % 8 < 2 ? 'SUCCESS' : k % 8 < 5 ? 'WAIT_CODE' : 'CANCEL');
  let a = 0;
  let b = 0;
  await e.db.tx(async (q) => {
    for (let n = 1; n <= TOTAL; n++) {
      const useAlpha = a < ALPHA.total && (n % 3 !== 0 || b >= BETA.total);
      const gw = useAlpha ? { ...alpha, name: ALPHA.name } : { ...beta, name: BETA.name };
      const status = useAlpha ? alphaStatus(a++) : betaStatus(b++);
      const createdAt = new Date(now.getTime() - (TOTAL - n) * 60_000);
      const [row] = await q.query<{ id: string }>(
        `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                             phone_number, price, status, code_text, created_at, expires_at, finished_at)
         SELECT $1, $2, code, name, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11 FROM services WHERE id = $2
         RETURNING id::text AS id`,
        [
          buyer.id,
          serviceId,
          gw.id,
          gw.name,
          `${(n % 16) + 1}.01`,
          phoneOf(n),
          status,
          status === 'SUCCESS' ? String(100000 + n) : null,
          createdAt,
          new Date(createdAt.getTime() + 20 * 60_000),
          status === 'WAIT_CODE' ? null : createdAt,
        ],
      );
      seeded.set(row!.id, { phone: phoneOf(n), status });
    }
  });
  ids = [...seeded.keys()].sort((x, y) => Number(y) - Number(x));
});

afterAll(async () => {
  await e?.close();
});

async function adminPage(path: string, viewport?: { width: number; height: number }) {
  const page = await e.newPage(viewport ? { viewport } : undefined);
  const errors = watchErrors(page);
  await loginWithToken(page, e, ADMIN);
  await page.goto(path);
  return { page, errors };
}

/** A screenshot of what the viewport shows (the full page of 100 rows is too tall to look at). */
const viewShot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });

/** True when the page itself has no horizontal scroll (wide tables scroll inside their box). */
const fitsWidth = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

const serviceRow = (table: Locator, name: string) =>
  table.getByRole('row').filter({ has: table.page().getByText(name, { exact: true }) });

describe('Service Manager', () => {
  it('adds (after a rule message), searches, edits and deletes a service; refuses to delete one with orders', async () => {
    const { page, errors } = await adminPage('/servicemanager');
    await page.getByRole('heading', { level: 1, name: 'Service Manager' }).waitFor();
    const table = page.getByRole('table', { name: 'Services', exact: true });
    await serviceRow(table, ORDERS_SERVICE.name).waitFor();

    // Add: an invalid price first shows the rule message and sends nothing.
    await page.getByRole('button', { name: 'Add Service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Service' });
    // The shared money field shows amounts as the tables do, without the $.
    expect(await dialog.getByLabel('Price (USD)').inputValue()).toBe('1.00');
    expect(await dialog.getByLabel('Rent time (minutes)').inputValue()).toBe('20');
    expect(await dialog.getByLabel('Pattern', { exact: true }).inputValue()).toBe('\\d{4,8}');
    await dialog.getByLabel('Name', { exact: true }).fill('E2E Signal');
    await dialog.getByLabel('Code', { exact: true }).fill('e2e-signal');
    await dialog.getByLabel('Description').fill('Secure messenger codes');
    await dialog.getByLabel('Price (USD)').fill('0');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Price must be > 0').waitFor();
    expect(await dialog.getByLabel('Price (USD)').getAttribute('aria-invalid')).toBe('true');
    expect(await e.db.query("SELECT 1 FROM services WHERE code = 'e2e-signal'")).toEqual([]);

    // A duplicate code comes back from the server under the Code field.
    await dialog.getByLabel('Price (USD)').fill('2.75');
    await dialog.getByLabel('Code', { exact: true }).fill(ORDERS_SERVICE.code);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText(`A service with code "${ORDERS_SERVICE.code}" already exists.`).waitFor();

    await dialog.getByLabel('Code', { exact: true }).fill('e2e-signal');
    await dialog.getByLabel('Pattern', { exact: true }).fill('Signal code: (\\d{6})');
    await dialog.getByLabel('SMS contains', { exact: true }).fill('Signal');
    await shot(page, 'admin-rental-service-modal');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Service "E2E Signal" created.').waitFor();
    const added = serviceRow(table, 'E2E Signal');
    await added.waitFor();
    expect(await added.getByText('$2.75').isVisible()).toBe(true);
    expect(await added.getByText('Signal code: (\\d{6})').isVisible()).toBe(true);
    expect(await added.getByRole('cell', { name: 'No', exact: true }).isVisible()).toBe(true);
    const [row] = await e.db.query<{ price: string; pattern: string; rent_time_minutes: number }>(
      "SELECT price::text AS price, pattern, rent_time_minutes FROM services WHERE code = 'e2e-signal'",
    );
    expect(row).toEqual({ price: '2.75', pattern: 'Signal code: (\\d{6})', rent_time_minutes: 20 });

    // Search by description, by code, and nothing.
    const search = page.getByLabel('Search services');
    await search.fill('SECURE messenger');
    await serviceRow(table, ORDERS_SERVICE.name).waitFor({ state: 'detached' });
    expect(await added.isVisible()).toBe(true);
    await search.fill('e2e-orders');
    await added.waitFor({ state: 'detached' });
    await serviceRow(table, ORDERS_SERVICE.name).waitFor();
    // The search is in the URL: a reload keeps it.
    await page.reload();
    expect(await search.inputValue()).toBe('e2e-orders');
    await serviceRow(table, ORDERS_SERVICE.name).waitFor();
    expect(await added.count()).toBe(0);
    await search.fill('no such service');
    await table.getByText('No services found').waitFor();
    await search.fill('');
    await added.waitFor();
    await shot(page, 'admin-rental-services');

    // Edit: rename and make it repeatable.
    await page
      .getByRole('group', { name: 'Actions for E2E Signal', exact: true })
      .getByRole('button', { name: 'Edit' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit Service' });
    expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('E2E Signal');
    await edit.getByLabel('Name', { exact: true }).fill('E2E Signal Pro');
    await edit.getByLabel('Repeatable').check();
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    const renamed = serviceRow(table, 'E2E Signal Pro');
    await renamed.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
    expect(await serviceRow(table, 'E2E Signal').count()).toBe(0);
    expect(await e.db.query("SELECT name, is_repeatable FROM services WHERE code = 'e2e-signal'")).toEqual([
      { name: 'E2E Signal Pro', is_repeatable: true },
    ]);

    // Delete through the confirmation.
    await page
      .getByRole('group', { name: 'Actions for E2E Signal Pro', exact: true })
      .getByRole('button', { name: 'Delete' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete service' });
    await confirm.getByText('Delete service "E2E Signal Pro"?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await renamed.waitFor({ state: 'detached' });
    expect(await e.db.query("SELECT 1 FROM services WHERE code = 'e2e-signal'")).toEqual([]);

    // A service with orders cannot be deleted: the server's reason shows in the dialog.
    await page
      .getByRole('group', { name: `Actions for ${ORDERS_SERVICE.name}`, exact: true })
      .getByRole('button', { name: 'Delete' })
      .click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm
      .getByRole('alert')
      .getByText(/disable it instead/)
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await serviceRow(table, ORDERS_SERVICE.name).waitFor();
    expect(errors).toEqual([]);
  });

  it('fits a 390 px screen: one card per service, and the dialog fills the width', async () => {
    const { page, errors } = await adminPage('/servicemanager', { width: 390, height: 844 });
    await page
      .getByRole('list', { name: 'Services', exact: true })
      .getByText(ORDERS_SERVICE.name, { exact: true })
      .first()
      .waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'admin-rental-services-390');
    await page.getByRole('button', { name: 'Add Service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Service' });
    await dialog.waitFor();
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(390);
    await shot(page, 'admin-rental-service-modal-390');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});

describe('Order Manager', () => {
  const ordersTable = (page: Page) => page.getByRole('table', { name: 'Orders', exact: true });
  const bodyRows = (page: Page) => ordersTable(page).locator('tbody tr');
  /** The ID cell of the first row, once it shows `id` (the page has loaded). */
  const firstIdIs = (page: Page, id: string) =>
    bodyRows(page).first().getByRole('cell').first().getByText(id, { exact: true }).waitFor();
  const pageButtons = async (page: Page) =>
    (
      await page
        .getByRole('navigation', { name: 'Pagination' })
        .getByRole('button', { name: /^Go to page/ })
        .allTextContents()
    ).map((s) => s.trim());
  const current = (page: Page) =>
    page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-current="page"]').textContent();

  it('shows per-gateway statistics, paginates by 100 and filters by status and phone', async () => {
    const { page, errors } = await adminPage('/ordermanager');
    await page.getByRole('heading', { level: 1, name: 'Order Manager' }).waitFor();

    // Per-gateway statistics: totals, successes, rate green above 60 %, else red.
    const stats = page.getByRole('table', { name: 'Orders and success rate per gateway' });
    const alphaRow = stats.getByRole('row').filter({ hasText: ALPHA.name });
    const betaRow = stats.getByRole('row').filter({ hasText: BETA.name });
    await alphaRow.waitFor();
    expect((await alphaRow.getByRole('cell').allTextContents()).map((s) => s.trim())).toEqual([
      ALPHA.name,
      '150',
      '120',
      '80.0%',
    ]);
    expect((await betaRow.getByRole('cell').allTextContents()).map((s) => s.trim())).toEqual([
      BETA.name,
      '80',
      '20',
      '25.0%',
    ]);
    expect(await alphaRow.getByText('80.0%').getAttribute('class')).toMatch(/\btext-ok\b/);
    expect(await betaRow.getByText('25.0%').getAttribute('class')).toMatch(/\btext-bad\b/);

    // Page 1: 100 rows, newest first; the pager shows 1 2 3.
    await firstIdIs(page, ids[0]!);
    expect(await bodyRows(page).count()).toBe(100);
    await page.getByText(`${TOTAL} orders`).waitFor();
    expect(await pageButtons(page)).toEqual(['1', '2', '3']);
    expect(await current(page)).toBe('1');
    const headers = await ordersTable(page).getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'ID',
      'Gateway',
      'Port',
      'User',
      'Phone',
      'Service',
      'OTP',
      'Status',
      'Created At',
    ]);
    const first = seeded.get(ids[0]!)!;
    const firstCells = (await bodyRows(page).first().getByRole('cell').allTextContents()).map((s) =>
      s.trim(),
    );
    // The service by its name (its code is the tooltip).
    expect(firstCells.slice(3, 6)).toEqual(['orderbuyer', shownPhone(first.phone), ORDERS_SERVICE.name]);
    const statusName: Record<string, string> = {
      SUCCESS: 'Code received',
      WAIT_CODE: 'Waiting for code',
      CANCEL: 'Cancelled',
    };
    expect(firstCells[7]).toBe(statusName[first.status]);
    expect(firstCells[8]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await viewShot(page, 'admin-rental-orders');

    // Next → page 2.
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await firstIdIs(page, ids[100]!);
    expect(await current(page)).toBe('2');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await bodyRows(page).count()).toBe(100);

    // Clicking 3 → the last 30.
    await pager.getByRole('button', { name: 'Go to page 3' }).click();
    await firstIdIs(page, ids[200]!);
    await expect.poll(() => bodyRows(page).count()).toBe(30);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // The page is in the URL: reload keeps it, Back returns to page 2.
    await page.reload();
    await firstIdIs(page, ids[200]!);
    await page.goBack();
    await firstIdIs(page, ids[100]!);
    expect(await current(page)).toBe('2');

    // Status SUCCESS + Apply: only SUCCESS rows, back to page 1, 140 orders on 2 pages.
    const filters = page.getByRole('form', { name: 'Order filters' });
    await filters.getByLabel('Status').selectOption('SUCCESS');
    expect(new URL(page.url()).searchParams.get('status')).toBeNull(); // nothing until Apply
    await filters.getByRole('button', { name: 'Apply' }).click();
    const successTotal = ALPHA.success + BETA.success;
    await page.getByText(`${successTotal} orders`).waitFor();
    const successIds = ids.filter((id) => seeded.get(id)!.status === 'SUCCESS');
    await firstIdIs(page, successIds[0]!);
    expect(await current(page)).toBe('1');
    expect(await pageButtons(page)).toEqual(['1', '2']);
    expect(await bodyRows(page).count()).toBe(100);
    const statuses = await ordersTable(page).locator('tbody tr td:nth-child(8)').allTextContents();
    expect(new Set(statuses.map((s) => s.trim()))).toEqual(new Set(['Code received']));
    await viewShot(page, 'admin-rental-orders-success');
    await pager.getByRole('button', { name: 'Go to page 2' }).click();
    await firstIdIs(page, successIds[100]!);
    await viewShot(page, 'admin-rental-orders-success-page2');
    expect(await bodyRows(page).count()).toBe(successTotal - 100);
    expect(new URL(page.url()).search).toBe('?page=2&status=SUCCESS');

    // Phone (status back to All) + Apply: the one order.
    await filters.getByLabel('Status').selectOption({ label: 'All' });
    await filters.getByLabel('Phone').fill(phoneOf(TARGET));
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('1 order', { exact: true }).waitFor();
    await expect.poll(() => bodyRows(page).count()).toBe(1);
    // Shown as +1 555-xxx-xxxx (the digits are what the filter and the API take).
    const shown = shownPhone(phoneOf(TARGET));
    expect(await bodyRows(page).first().getByText(shown).isVisible()).toBe(true);
    expect(await pageButtons(page)).toEqual(['1']);
    expect(new URL(page.url()).search).toBe(`?phone=${phoneOf(TARGET)}`);

    // Gateway filter, then a phone that matches nothing shows the empty state.
    await filters.getByLabel('Phone').fill('');
    await filters.getByLabel('Gateway').selectOption(BETA.name);
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(`${BETA.total} orders`).waitFor();
    const gateways = await ordersTable(page).locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(gateways.map((s) => s.trim()))).toEqual(new Set([BETA.name]));
    await filters.getByLabel('Phone').fill('19999999999');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await ordersTable(page).getByText('No orders found').waitFor();
    await filters.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByText(`${TOTAL} orders`).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
  });

  it('fits a 390 px screen (dark mode): the tables scroll inside their boxes', async () => {
    const { page, errors } = await adminPage('/ordermanager?status=WAIT_CODE', { width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByText(`${TOTAL - ALPHA.success - BETA.success - 40} orders`).waitFor();
    expect(await page.getByRole('form', { name: 'Order filters' }).getByLabel('Status').inputValue()).toBe(
      'WAIT_CODE',
    );
    expect(await fitsWidth(page)).toBe(true);
    await viewShot(page, 'admin-rental-orders-390');
    await page.getByRole('navigation', { name: 'Pagination' }).scrollIntoViewIfNeeded();
    await viewShot(page, 'admin-rental-orders-390-pager');
    expect(errors).toEqual([]);
  });
});
