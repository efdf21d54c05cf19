import { GatewaySim } from '@simdock/gateway-sim';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, openGatewayManager, shot, startE2E, watchErrors } from './harness.ts';

// Gateway Manager in the browser: add (invalid, then valid), scan, SIMs, details, edit and delete
// against a running gateway simulator; and the 'Scan failed' banner.

let e: E2E;

/**
 * Clicks until the dialog is open: on a loaded machine a click could land while the SIM table
 * re-rendered after a refetch and be lost (seen once in CI). The dialog must still open.
 */
async function clickUntilOpen(button: Locator, dialog: Locator) {
  for (let i = 0; i < 3; i++) {
    // A click the open dialog's overlay blocks (it opened late) is no failure: the wait decides.
    await button.click({ timeout: 5000 }).catch(() => undefined);
    if (
      await dialog.waitFor({ timeout: 3000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await dialog.waitFor();
}
let sim: GatewaySim;

beforeAll(async () => {
  e = await startE2E();
  sim = await GatewaySim.start({ ports: 8 });
});

afterAll(async () => {
  await sim?.stop();
  await e?.close();
});

/** Picks an action from a gateway row's "More actions" menu (Details, Edit, Delete). */
async function more(row: Locator, item: string) {
  await row.getByRole('button', { name: /^More actions/ }).click();
  await row.page().getByRole('menuitem', { name: item }).click();
}

/** The server stores MACs as lower-case pairs joined by colons. */
const colonMac = (mac: string) => mac.toLowerCase().replace(/-/g, ':');

describe('Gateway Manager in the browser', () => {
  it('add (invalid, then valid) → scan → SIMs → set number → details → edit → delete', async () => {
    const page = await e.newPage();
    const errors = watchErrors(page);
    await openGatewayManager(page);
    await page.getByText('Add / Edit / Delete device gateway').waitFor();
    await page.getByText('No gateways found. Please add one.').waitFor();

    // Add with invalid data: the spec's message and a disabled Save.
    await page.getByRole('button', { name: 'Add Gateway' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Gateway' });
    await add.getByLabel('Name', { exact: true }).fill('Rack A');
    await add.getByLabel('URL').fill('not a url');
    await add.getByLabel('MAC').fill('12:34:56');
    await add.getByLabel('User name').fill('root');
    await add.getByLabel('Password').fill('root');
    await add.getByText('Please enter all fields correctly').waitFor();
    expect(await add.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await add.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await add.getByLabel('MAC').getAttribute('aria-invalid')).toBe('true');
    expect(await add.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);

    // Then valid: the simulator's address, MAC (dashed) and account.
    await add.getByLabel('URL').fill(sim.url);
    await add.getByLabel('MAC').fill(sim.mac);
    await add.getByText('Data is valid').waitFor();
    expect(await add.getByText('Please enter all fields correctly').count()).toBe(0);
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'detached' });

    const mac = colonMac(sim.mac);
    let row = page.getByRole('row', { name: /Rack A/ });
    await row.waitFor();
    await row.getByText(sim.url).waitFor();
    await row.getByText(mac).waitFor();
    await row.getByText('Enabled', { exact: true }).waitFor();
    await row.getByText('Offline', { exact: true }).waitFor();
    expect(await row.getByTestId('gateway-sim-count').textContent()).toBe('0');
    await page.getByText('No gateways found. Please add one.').waitFor({ state: 'detached' });

    // Scan: 8 SIMs and Online.
    await row.getByRole('button', { name: 'Scan' }).click();
    await row.getByText('Online', { exact: true }).waitFor();
    await expect.poll(() => row.getByTestId('gateway-sim-count').textContent()).toBe('8');
    await page.getByText('Rack A: scan complete, 8 SIMs found.').waitFor();
    expect(await row.getByRole('button', { name: 'Scan' }).isEnabled()).toBe(true);

    // SIMs: 8 rows, each with the number the device knows.
    await row.getByRole('button', { name: 'SIMs' }).click();
    const panel = page.getByRole('region', { name: 'SIMs of Rack A' });
    const simRows = panel.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect.poll(() => simRows.count()).toBe(8);
    for (const slot of sim.slots()) {
      expect(slot.sn).not.toBe('');
      // Shown formatted (+1 555-…); the cell keeps the digits it copies.
      await panel.locator(`[data-value="${slot.sn}"]`).waitFor();
    }
    const portRow = (port: string) =>
      simRows.filter({ has: page.getByRole('cell', { name: port, exact: true }) });
    await portRow('1.01').getByText('From the device', { exact: true }).waitFor();

    // Set a number: digits are checked, then the table shows it as a manual number.
    const setNumber = page.getByRole('dialog', { name: 'Set number for port 1.01' });
    await clickUntilOpen(portRow('1.01').getByRole('button', { name: /Set Number/ }), setNumber);
    await setNumber.getByLabel('Phone number').fill('12ab');
    await setNumber.getByRole('button', { name: 'Save' }).click();
    await setNumber.getByText('Enter the number as 3 to 20 digits.').waitFor();
    await setNumber.getByLabel('Phone number').fill('1 (555) 000-1234');
    await setNumber.getByRole('button', { name: 'Save' }).click();
    await setNumber.waitFor({ state: 'detached' });
    await portRow('1.01').getByText('+1 555-000-1234', { exact: true }).waitFor();
    await portRow('1.01').getByText('Set by hand', { exact: true }).waitFor();
    await page.getByText('Number 15550001234 saved for port 1.01.').waitFor(); // a toast, where the admin acted
    expect(sim.slot('1.01')?.sn).toBe('15550001234');

    // Simulate an incoming SMS (sender prefilled).
    await portRow('2.01')
      .getByRole('button', { name: /Simulate SMS/ })
      .click();
    const sms = page.getByRole('dialog', { name: 'Simulate an incoming SMS on port 2.01' });
    expect(await sms.getByLabel('Sender').inputValue()).toBe('Verify');
    await sms.getByLabel('Text').fill('Telegram code: 12345');
    await sms.getByRole('button', { name: 'Receive SMS' }).click();
    await sms.waitFor({ state: 'detached' });
    await page.getByText('SMS received on port 2.01.').waitFor();
    await shot(page, 'gateways-list-sims');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await shot(page, 'gateways-list-sims-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();

    // Details → /details/<mac>: Total SIM 8 and no service data yet.
    await more(row, 'Details');
    await page.waitForURL(`**/details/${mac}`);
    await page.getByRole('heading', { level: 1, name: 'Device Statistics' }).waitFor();
    const summary = page.getByTestId('device-summary');
    await summary.getByText('Total SIM').waitFor();
    await summary.getByText('8', { exact: true }).waitFor();
    await summary.getByText(mac, { exact: true }).waitFor();
    await page.getByText('No data available for this device.').waitFor();
    await shot(page, 'gateways-details');
    await page.getByRole('link', { name: 'Back to Gateway Manager' }).click();
    await page.waitForURL('**/gatewaymanager');

    // Edit: rename; the push URLs are shown; a blank password keeps the stored one (Scan still works).
    await more(row, 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Gateway' });
    expect(await edit.getByLabel('Name', { exact: true }).inputValue()).toBe('Rack A');
    expect(await edit.getByLabel('Password').inputValue()).toBe('');
    await edit.getByText('Leave blank to keep the current password.').waitFor();
    await edit.getByText('Push URLs').waitFor();
    expect(await edit.getByText(/\/api\/gw\/.+\/status$/).count()).toBe(1);
    await edit.getByText('Data is valid').waitFor();
    await edit.getByLabel('Name', { exact: true }).fill('Rack B');
    await shot(page, 'gateways-edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    row = page.getByRole('row', { name: /Rack B/ });
    await row.waitFor();
    expect(await page.getByRole('row', { name: /Rack A/ }).count()).toBe(0);
    // A slow device: 'Scanning' (disabled) and 0 SIMs while the scan runs
    // (docs/product.md#states-and-colours).
    await sim.setFaults({ slowMs: 400 });
    await row.getByRole('button', { name: 'Scan' }).click();
    const scanningButton = row.getByRole('button', { name: 'Scanning' });
    await scanningButton.waitFor();
    expect(await scanningButton.isDisabled()).toBe(true);
    expect(await row.getByTestId('gateway-sim-count').textContent()).toBe('0');
    await page.getByText('Rack B: scan complete, 8 SIMs found.').waitFor();
    await sim.setFaults({ slowMs: 0 });
    expect(await row.getByTestId('gateway-sim-count').textContent()).toBe('8');

    // Delete: the spec's confirmation, then the empty state.
    await more(row, 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete gateway Rack B' });
    await confirm
      .getByText('Are you sure you want to delete this gateway? This action cannot be undone.')
      .waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('No gateways found. Please add one.').waitFor();
    await page.getByText('Gateway Rack B deleted.').waitFor();
    expect(await page.getByRole('region', { name: /SIMs of/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('an admin locks and unlocks a SIM with a reason and sees its health figures', async () => {
    const box = await GatewaySim.start({ ports: 4 });
    try {
      const token = await e.token(ADMIN.username, ADMIN.password);
      const added = await e.api<{ id: string }>(
        '/api/Admin/updateGateway',
        { gateway: { name: 'Health box', url: box.url, mac: box.mac, userName: 'root', password: 'root' } },
        token,
      );
      expect(added.status).toBe(200);
      expect((await e.api('/api/Admin/gatewayScan', { id: added.body.id }, token)).status).toBe(200);
      const simulated = await e.api(
        '/api/Admin/simulateSms',
        { gatewayId: added.body.id, port: '1.01', from: 'Verify', text: 'hello' },
        token,
      );
      expect(simulated.status).toBe(200);

      const page = await e.newPage();
      const errors = watchErrors(page);
      await openGatewayManager(page);
      const row = page.getByRole('row', { name: /Health box/ });
      await row.getByRole('button', { name: 'SIMs' }).click();
      const panel = page.getByRole('region', { name: 'SIMs of Health box' });
      const simRows = panel.getByRole('row').filter({ has: page.getByRole('cell') });
      await expect.poll(() => simRows.count()).toBe(4);
      const port1 = simRows.filter({ has: page.getByRole('cell', { name: '1.01', exact: true }) });
      // The health figures: sent today / this month, failures, received, rentals, last success.
      const health = port1.getByTestId('sim-health');
      await health.getByText('Sent 0 today · 0 this month').waitFor();
      await health.getByText('Failed 0 · 0 in a row').waitFor();
      await health.getByText('Received 1 · rentals today 0').waitFor();
      await health.getByText('No success yet').waitFor();
      expect(await port1.getByLabel('Role of port 1.01').inputValue()).toBe('both');

      // Lock: a reason is required; then the badge with who, why and for how long.
      const usableCount = async () =>
        Number(/· (\d+) usable/.exec((await panel.textContent()) ?? '')?.[1] ?? Number.NaN);
      const usableBefore = await usableCount();
      expect(await port1.getByText('Usable', { exact: true }).count()).toBe(1);
      await port1.getByRole('button', { name: 'Lock the SIM on port 1.01' }).click();
      const lock = page.getByRole('dialog', { name: 'Lock the SIM on port 1.01' });
      await lock.getByRole('button', { name: 'Lock' }).click();
      await lock.getByText('Enter a reason (up to 200 characters).').waitFor();
      await lock.getByLabel('Reason').fill('Carrier complaint');
      await lock.getByLabel('For how long').selectOption({ label: '1 hour' });
      await lock.getByRole('button', { name: 'Lock' }).click();
      await lock.waitFor({ state: 'detached' });
      const badge = port1.getByTestId('sim-lock');
      await badge.getByText('Locked · By admin').waitFor();
      await badge.getByText('Carrier complaint').waitFor();
      await badge.getByText(/^(1 h 0 min|59 min) left$/).waitFor();
      await panel.getByText(/1 locked/).waitFor();
      // A locked SIM is not usable: the count drops and its badge says Locked only.
      await expect.poll(usableCount).toBe(usableBefore - 1);
      expect(await port1.getByText('Usable', { exact: true }).count()).toBe(0);
      await shot(page, 'gateways-sim-locked');

      // Unlock, with a reason too: the badge goes.
      await port1.getByRole('button', { name: 'Unlock the SIM on port 1.01' }).click();
      const unlock = page.getByRole('dialog', { name: 'Unlock the SIM on port 1.01' });
      await unlock.getByLabel('Reason').fill('Resolved with the carrier');
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await unlock.waitFor({ state: 'detached' });
      await page.getByText('SIM on port 1.01 unlocked.').waitFor();
      await badge.waitFor({ state: 'detached' });
      await port1.getByRole('button', { name: 'Lock the SIM on port 1.01' }).waitFor();

      // Both are in the audit log.
      const audit = await e.api<{ entries?: unknown[] }>(
        '/api/Admin/audit',
        { kind: 'gateway.simLock' },
        token,
      );
      expect(JSON.stringify(audit.body)).toContain('Carrier complaint');
      const audit2 = await e.api('/api/Admin/audit', { kind: 'gateway.simUnlock' }, token);
      expect(JSON.stringify(audit2.body)).toContain('Resolved with the carrier');

      // On a phone the SIM card shows the same figures and actions.
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'gateways-sim-health-mobile');
      await e.api('/api/Admin/deleteGateway', { id: added.body.id }, token);
      expect(errors).toEqual([]);
    } finally {
      await box.stop();
    }
  });

  it('Scan against a stopped device shows the Scan failed banner (390 px)', async () => {
    const dead = await GatewaySim.start({ ports: 2 });
    const token = await e.token(ADMIN.username, ADMIN.password);
    const added = await e.api<{ id?: string }>(
      '/api/Admin/updateGateway',
      {
        gateway: { name: 'Dead box', url: dead.url, mac: dead.mac, userName: 'root', password: 'root' },
      },
      token,
    );
    expect(added.status).toBe(200);
    await dead.stop();

    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await loginViaUi(page, ADMIN);
    await page.goto('/gatewaymanager');
    // On a phone every gateway is a card of the shared table pattern, its actions inside.
    const row = page.getByRole('listitem', { name: 'Dead box' });
    await row.waitFor();

    // Never scanned: the SIM table says what to do.
    await row.getByRole('button', { name: 'SIMs' }).click();
    const panel = page.getByRole('region', { name: 'SIMs of Dead box' });
    await panel.getByText('Scan the gateway to see its SIMs.').waitFor();

    await row.getByRole('button', { name: 'Scan' }).click();
    await page.getByText('Scan failed', { exact: true }).waitFor();
    expect(((await page.getByText(/^Dead box: /).textContent()) ?? '').length).toBeGreaterThan(
      'Dead box: '.length,
    );
    await row.getByRole('button', { name: 'Scan' }).waitFor();
    expect(await row.getByTestId('gateway-sim-count').textContent()).toBe('0');
    await row.getByText('Offline', { exact: true }).waitFor();
    // The card itself says the scan failed and when, instead of "Not scanned yet".
    await row.getByText(/^Scan failed (just now|\d+ s ago)$/).waitFor();
    expect(await row.getByText('Not scanned yet').count()).toBe(0);
    // The open SIM panel is in the URL.
    expect(new URL(page.url()).searchParams.get('sims')).toBeTruthy();
    await shot(page, 'gateways-mobile-scan-failed');

    // On a phone the toast lies over the header's Add button for its 8 s; the admin closes it first
    // (a click while it slides away can land on the toast, and the modal never opens).
    await page.getByRole('button', { name: 'Close toast' }).click();
    await page.getByText('Scan failed', { exact: true }).waitFor({ state: 'detached' });

    // The add modal fills the width on a phone.
    await page.getByRole('button', { name: 'Add Gateway' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Gateway' });
    await add.getByText('Please enter all fields correctly').waitFor();
    const box = await add.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(388);
    await shot(page, 'gateways-mobile-add');
    await page.keyboard.press('Escape');
    await add.waitFor({ state: 'detached' });

    // A tablet/laptop width still shows cards, the actions in view; the table from 1280 px.
    await page.setViewportSize({ width: 1024, height: 800 });
    const card = page.getByRole('listitem', { name: 'Dead box' });
    await card.waitFor();
    const scan = await card.getByRole('button', { name: 'Scan' }).boundingBox();
    expect(scan && scan.x + scan.width <= 1024).toBe(true);
    expect(
      await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
    ).toBe(true);
    await shot(page, 'gateways-1024');
    expect(errors).toEqual([]);
  });
});
