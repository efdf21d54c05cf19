import { GoipSim } from '@simdock/goip-sim';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  axeFindings,
  type E2E,
  loginViaUi,
  openGatewayManager,
  settle,
  shot,
  startE2E,
  watchErrors,
} from './harness.ts';

// A GoIP box in Gateway Manager: the admin adds it, reads the settings to enter on the box, and the
// box's lines (the simulator, pointed at what the dialog showed) bring their SIMs in by themselves;
// a balance check by USSD; then a user rents on one of its lines and the code arrives live.

let e: E2E;
let box: GoipSim | undefined;

beforeAll(async () => {
  e = await startE2E();
});

afterAll(async () => {
  await box?.stop();
  await e?.close();
});

/** The value a settings row shows beside its label. */
async function setting(panel: Locator, label: string): Promise<string> {
  const dt = panel.locator('dt', { hasText: new RegExp(`^${label}$`) });
  return (await dt.locator('xpath=following-sibling::dd[1]').textContent()) ?? '';
}

describe('a GoIP box in the browser', () => {
  it('add → the settings to enter on the box → its lines report → their SIMs as Line 1 and Line 2', async () => {
    const page = await e.newPage();
    const errors = watchErrors(page);
    await openGatewayManager(page);

    await page.getByRole('button', { name: 'Add Gateway' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Gateway' });
    await add.getByRole('radio', { name: 'GoIP box' }).check();
    expect(await add.getByLabel('MAC').count()).toBe(0);
    await add.getByLabel('Name', { exact: true }).fill('Shop 7');
    await add.getByLabel('Box ID').fill('shop 7');
    // Exact: the Web password field's label holds the word too.
    await add.getByLabel('Password', { exact: true }).fill('line-pass');
    await add.getByText('Please enter all fields correctly').waitFor();
    expect(await add.getByLabel('Box ID').getAttribute('aria-invalid')).toBe('true');
    const findings = await axeFindings(page, 'add a GoIP box, a bad ID');
    await add.getByLabel('Box ID').fill('shop7');
    // No web interface URL: the lines come to SimDock.
    await add.getByText('Data is valid').waitFor();
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'detached' });

    const setup = page.getByRole('dialog', { name: 'Set up Shop 7' });
    await setup.waitFor();
    await page.getByText('Gateway Shop 7 added.').waitFor();
    expect(await setting(setup, 'SMS server')).toBe(new URL(e.url).hostname);
    const port = Number(await setting(setup, 'SMS server port'));
    expect(port).toBeGreaterThan(0);
    expect(await setting(setup, 'ID of line 1')).toBe('shop71');
    expect(await setting(setup, 'ID of line 2')).toBe('shop72');
    expect(await setting(setup, 'Password')).not.toContain('line-pass');
    await setup.getByRole('button', { name: 'Copy Password' }).waitFor();
    // Audited once the "added" toast is gone: the dialog is what is looked at here.
    await page.getByText('Gateway Shop 7 added.').waitFor({ state: 'detached' });
    await settle(page);
    findings.push(...(await axeFindings(page, 'the settings to enter on the box')));
    expect(findings).toEqual([]);
    await shot(page, 'gateways-goip-setup');
    await setup.getByRole('button', { name: 'Done' }).click();
    await setup.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Shop 7/ });
    await row.getByTestId('gateway-kind').getByText('GoIP box').waitFor();
    await row.getByText('No report yet').waitFor();

    // The box, set up as the dialog said: its lines' keepalives bring their SIMs in (no Scan).
    box = await GoipSim.start({
      server: { host: '127.0.0.1', port },
      lines: 2,
      idPrefix: 'shop7',
      password: 'line-pass',
      keepaliveMs: 200,
    });
    await row.getByRole('button', { name: 'SIMs' }).click();
    const panel = page.getByRole('region', { name: 'SIMs of Shop 7' });
    const simRows = panel.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect.poll(() => simRows.count(), { timeout: 40_000 }).toBe(2);
    for (const n of [1, 2]) {
      const card = box.line(n).sim;
      const lineRow = simRows.filter({ has: page.getByRole('cell', { name: `Line ${n}`, exact: true }) });
      // The ICCID span also holds its name for screen readers: matched as part of its text.
      await lineRow.getByText(card.iccid).waitFor();
      await lineRow.locator(`[data-value="${card.number}"], [data-value="+${card.number}"]`).waitFor();
    }
    await panel.getByRole('columnheader', { name: 'Line' }).waitFor();

    // Check balance on line 1: the box asks the network by USSD; the reply stays on the line's row.
    const line1 = simRows.filter({ has: page.getByRole('cell', { name: 'Line 1', exact: true }) });
    await line1.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Check balance' }).click();
    const ussd = page.getByRole('dialog', { name: 'Check the balance of line 1' });
    expect(await ussd.getByLabel('USSD code').inputValue()).toBe('*100#');
    await ussd.getByRole('button', { name: 'Send code' }).click();
    await ussd.waitFor({ state: 'detached', timeout: 15_000 });
    await line1.getByText('Your balance is 12.50 USD').waitFor();
    await shot(page, 'gateways-goip-sims');

    // Edit shows the same settings, the stored password named, not shown.
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Gateway' });
    const settings = edit.getByRole('region', { name: 'Settings to enter on the box' });
    expect(await setting(settings, 'SMS server port')).toBe(String(port));
    await settings.getByText('The password saved for this gateway').waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it("a user rents a number on one of the box's lines, and the code the line receives appears live", async () => {
    const admin = await e.token(ADMIN.username, ADMIN.password);
    const service = await e.api(
      '/api/service/update',
      { name: 'Telegram', code: 'tg', price: 0.5, textContains: 'Telegram', pattern: '(\\d{5})' },
      admin,
    );
    expect(service.status).toBe(200);
    const user = await e.createUser({ balance: 5 });
    const page = await e.newPage();
    const errors = watchErrors(page);
    await loginViaUi(page, user);
    await page.getByRole('button', { name: 'Rent a Telegram number' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Telegram' }).filter({ hasText: 'Waiting for code' });
    await row.waitFor();
    const phone = (await row.getByTestId('order-phone').getAttribute('data-value'))!;
    const line = [1, 2].find((n) => box!.line(n).sim.number.replace(/^\+/, '') === phone.replace(/^\+/, ''));
    expect(line).toBeDefined();
    // The SMS reaches the line; the box sends RECEIVE to SimDock's UDP port.
    box!.receiveSms(line!, { from: 'Telegram', text: 'Telegram code: 48213. Do not give it to anyone.' });
    await page.getByTestId('rental-code').filter({ hasText: '48213' }).waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
  });
});
