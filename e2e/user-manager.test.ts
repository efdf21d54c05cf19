import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, SHOTS_DIR, startE2E, watchErrors } from './harness.ts';

// User Manager in the browser: User Manager adds, edits (roles and balance), searches, sorts,
// pages, deletes and deactivates; the Audit page shows those actions.

let e: E2E;
const BULK = 120;

beforeAll(async () => {
  e = await startE2E();
  // Accounts without history, straight into the database (they never sign in).
  await e.db.query(
    `INSERT INTO users (username, email, password_hash)
     SELECT 'bulk' || lpad(g::text, 3, '0'), 'bulk' || g || '@example.com', 'x' FROM generate_series(1, $1) g`,
    [BULK],
  );
});

afterAll(async () => {
  await e?.close();
});

const viewShot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });
const fitsWidth = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');
const userRow = (table: Locator, name: string) =>
  table.getByRole('row').filter({ has: table.page().getByText(name, { exact: true }) });
const dataRows = (table: Locator) => table.locator('tbody tr');

async function adminPage(path: string, viewport = { width: 1366, height: 850 }) {
  const page = await e.newPage({ viewport });
  const errors = watchErrors(page);
  await loginWithToken(page, e, ADMIN);
  await page.goto(path);
  return { page, errors };
}

const count = async (sql: string, params: unknown[] = []) =>
  (await e.db.query<{ n: number }>(sql, params))[0]!.n;

describe('User Manager', () => {
  it('adds, edits, searches, sorts, pages, deletes and deactivates; the audit page shows it', async () => {
    const { page, errors } = await adminPage('/usermanager');
    await page.getByRole('heading', { level: 1, name: 'User Manager' }).waitFor();
    const table = page.getByRole('table', { name: 'Users', exact: true });
    await userRow(table, 'bulk001').waitFor();
    const total = await count('SELECT count(*)::int AS n FROM users');
    expect(total).toBe(BULK + 1);
    await page.getByText('Total users').waitFor();
    expect(await dataRows(table).count()).toBe(50);

    // Add: the spec's rule message first, nothing sent; then a valid user with two roles and a balance.
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Username').fill('newbie');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByLabel('Password').fill('password-123');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Invalid email').waitFor();
    await dialog.getByLabel('Email').fill('newbie@example.com');
    // No role: the plain request, in the client and (same text) on the server.
    await dialog.getByLabel('User', { exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Select at least one role').waitFor();
    await dialog.getByLabel('User', { exact: true }).check();
    await dialog.getByLabel('Staff').check();
    // The shared money field: decimal keyboard, the amount tidied on leaving it.
    await dialog.getByLabel('Balance').fill('15.5');
    expect(await dialog.getByLabel('Balance').getAttribute('inputmode')).toBe('decimal');
    await dialog.getByLabel('Balance').blur();
    expect(await dialog.getByLabel('Balance').inputValue()).toBe('15.50');
    await viewShot(page, 'user-manager-modal');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('User newbie added.').waitFor();
    const [created] = await e.db.query<{ id: string; roles: string[]; balance: string }>(
      "SELECT id, roles, balance::text AS balance FROM users WHERE username = 'newbie'",
    );
    expect(created).toMatchObject({ roles: ['Staff', 'User'], balance: '15.50' });

    // Search (server side).
    const search = page.getByLabel('Search users');
    await search.fill('newbie');
    await page.getByText('Page 1 / 1').waitFor();
    await userRow(table, 'newbie').waitFor();
    expect(await dataRows(table).count()).toBe(1);

    // Edit roles and balance: the difference is an admin adjustment in the ledger.
    await userRow(table, 'newbie').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByLabel('Balance').inputValue()).toBe('15.50');
    await edit.getByLabel('Staff').uncheck();
    await edit.getByLabel('SMS').check();
    await edit.getByLabel('Balance').fill('20.25');
    await edit.getByRole('button', { name: 'Update' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('User newbie saved.').waitFor();
    await userRow(table, 'newbie').getByText('$20.2500').waitFor();
    const ledger = await e.db.query<{ amount: string; kind: string }>(
      'SELECT amount::text AS amount, kind FROM ledger WHERE user_id = $1 ORDER BY id',
      [created!.id],
    );
    expect(ledger).toEqual([
      { amount: '15.50', kind: 'admin_adjustment' },
      { amount: '4.75', kind: 'admin_adjustment' },
    ]);
    const [edited] = await e.db.query<{ roles: string[] }>('SELECT roles FROM users WHERE id = $1', [
      created!.id,
    ]);
    expect(edited!.roles).toEqual(['User', 'SMS']);

    // Nothing found.
    await search.fill('nobody-like-this');
    await page.getByText('No users found').waitFor();

    // Sort by balance, descending: newbie (the only balance) first.
    await search.fill('');
    await page.getByText('Page 1 / 3').waitFor();
    await page.getByRole('button', { name: 'Sort by Balance' }).click();
    await page.getByRole('button', { name: 'Sort by Balance' }).click();
    await expect.poll(() => dataRows(table).first().textContent()).toContain('newbie');
    await page.getByRole('button', { name: 'Sort by Username' }).click();
    await expect.poll(() => dataRows(table).first().textContent()).toContain('admin');

    // Pages of 50, Next, then a page size of 100.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 / 3').waitFor();
    await expect.poll(() => dataRows(table).first().textContent()).toContain('bulk050');
    await page.getByLabel('Rows per page').selectOption('100');
    await page.getByText('Page 1 / 2').waitFor();
    await expect.poll(() => dataRows(table).count()).toBe(100);
    await viewShot(page, 'user-manager-desktop');
    expect(await fitsWidth(page)).toBe(true);
    // Sort, page and page size are in the URL: a reload shows the same list.
    await expect.poll(() => new URL(page.url()).search).toBe('?size=100');
    await page.getByRole('button', { name: 'Sort by Balance' }).click();
    await page.getByRole('button', { name: 'Sort by Balance' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('dir')).toBe('desc');
    await page.reload();
    await expect.poll(() => dataRows(table).first().textContent()).toContain('newbie');
    expect(await dataRows(table).count()).toBe(100);
    await page.getByRole('button', { name: 'Sort by Username' }).click();
    await expect.poll(() => dataRows(table).first().textContent()).toContain('admin');
    // One's own row has no Delete (the server refuses it too).
    expect(await userRow(table, 'admin').getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // Delete a user without history: erased.
    await search.fill('bulk007');
    await userRow(table, 'bulk007').waitFor();
    await userRow(table, 'bulk007').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete user' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('User bulk007 deleted.').waitFor();
    expect(await count("SELECT count(*)::int AS n FROM users WHERE username = 'bulk007'")).toBe(0);
    await page.getByText('No users found').waitFor();

    // Delete a user with a balance: deactivated instead, and their session ends.
    const newbieToken = await e.token('newbie', 'password-123');
    await search.fill('newbie');
    await userRow(table, 'newbie').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByText('User newbie has history, so the account was deactivated instead of deleted.')
      .waitFor();
    await userRow(table, 'newbie').getByText('Inactive').waitFor();
    expect((await e.api('/api/user/info', {}, newbieToken)).status).toBe(401);
    expect(errors).toEqual([]);

    // The audit log shows these actions.
    await page.goto('/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    const log = page.getByRole('table', { name: 'Audit log entries' });
    // Actions, fields and values by name, no raw code (not even as a tooltip).
    for (const kind of ['User added', 'User edited', 'Balance changed', 'User deleted', 'User deactivated']) {
      await log.getByText(kind, { exact: true }).first().waitFor();
    }
    expect(await log.getByText('Balance changed', { exact: true }).first().getAttribute('title')).toBeNull();
    await log.getByText('Roles: Staff, User → User, SMS sender').waitFor();
    await page.getByLabel('Action').selectOption('user.delete');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => dataRows(log).count()).toBe(1);
    // The filter is in the URL: a reload keeps it.
    await page.reload();
    await expect.poll(() => dataRows(log).count()).toBe(1);
    expect(await page.getByLabel('Action').inputValue()).toBe('user.delete');
    await log.getByRole('cell', { name: 'bulk007', exact: true }).waitFor();
    await viewShot(page, 'audit-desktop');
    expect(errors).toEqual([]);
  });

  it('fits a phone screen', async () => {
    // Its own audit entry, not the first test's: a user with a balance, deleted, so deactivated.
    const holder = await e.createUser({ username: 'phoneholder', balance: 1 });
    const adminToken = await e.token(ADMIN.username, ADMIN.password);
    const removed = await e.api('/api/Admin/deleteUser', { id: holder.id }, adminToken);
    expect(removed.body).toMatchObject({ outcome: 'deactivated' });
    const { page, errors } = await adminPage('/usermanager', { width: 390, height: 844 });
    await page.getByRole('heading', { level: 1, name: 'User Manager' }).waitFor();
    // One card per user with its actions inside: nothing to scroll sideways to.
    const cards = page.getByRole('list', { name: 'Users', exact: true });
    const card = cards.getByRole('listitem').filter({ has: page.getByText('bulk001', { exact: true }) });
    await card.waitFor();
    expect(await page.getByRole('table', { name: 'Users', exact: true }).count()).toBe(0);
    const del = card.getByRole('button', { name: 'Delete' });
    const box = await del.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await viewShot(page, 'user-manager-mobile');
    await page.goto('/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    await page
      .getByRole('list', { name: 'Audit log entries' })
      .getByText('User deactivated', { exact: true })
      .first()
      .waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await viewShot(page, 'audit-mobile');
    expect(errors).toEqual([]);
  });

  it('refuses a non-admin at the door', async () => {
    const u = await e.createUser({ username: 'plainuser' });
    const page = await e.newPage({ viewport: { width: 1366, height: 850 } });
    await loginWithToken(page, e, u);
    await page.goto('/audit');
    await page.waitForURL('**/unauthorized');
    const token = await e.token(u.username, u.password);
    expect((await e.api('/api/Admin/getUser', {}, token)).status).toBe(403);
    expect((await e.api('/api/Admin/audit', {}, token)).status).toBe(403);
  });
});
