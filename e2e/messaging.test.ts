import { readFile } from 'node:fs/promises';
import { DEMO_USER } from '@simdock/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, shot, startE2E, watchErrors } from './harness.ts';

// Bulk SMS in the browser: Settings save, the sending page's rules on typed input and
// uploaded files, a send with its live progress, History paging, chart and CSV export. The server
// runs the demo (simulated gateway, demo user and campaign) with its background jobs (dispatcher).

let e: E2E;

beforeAll(async () => {
  e = await startE2E({ workers: true, env: { DEMO: 'true', SMS_PER_SIM_PER_MINUTE: '600' } });
});
afterAll(async () => {
  await e?.close();
});

const fits = (page: import('playwright-core').Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

describe('bulk SMS in the browser', () => {
  it('Settings: refuses a bad value, saves with ✅ Success!', async () => {
    const page = await e.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, ADMIN);
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const batch = page.getByLabel('Max Batch Send SMS');
    const daily = page.getByLabel('Max Messages Per Day');
    await expect.poll(() => batch.inputValue()).toBe('1000');
    await batch.fill('-3');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Max Batch Send SMS must be a whole number from 0 to 100000.').waitFor();
    await batch.fill('20');
    await daily.fill('5000');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('✅ Success!').waitFor();
    const [row] = await e.db.query<{ max_batch_send_sms: number }>('SELECT * FROM messaging_settings');
    expect(row).toMatchObject({ max_batch_send_sms: 20 });
    await page.getByText(/Last changed by admin/).waitFor();
    await shot(page, 'settings-desktop');
    expect(errors).toEqual([]);
  });

  it('SMS Sending: rules on typed input and files, a send with live progress', async () => {
    const page = await e.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, DEMO_USER);
    await page.goto('/SMS_SendingPage');
    await page.getByRole('heading', { level: 1, name: 'SMS Sending (Max: 20)' }).waitFor();
    await page.getByText('Usage policy.').waitFor();
    const numbers = page.getByLabel('Phone numbers, one per line (1 and 10 digits)');
    const content = page.getByLabel(/^Messages, one per line/);
    const start = page.getByRole('button', { name: 'Start Mass Send' });

    // Typing past the limit is refused with its message; the text stays as it was.
    const many = Array.from({ length: 21 }, (_, i) => String(13105550000 + i)).join('\n');
    await numbers.fill(many);
    await page.getByText('Limit is 20 numbers.').waitFor();
    expect(await numbers.inputValue()).toBe('');

    // Invalid numbers are listed (first five and '...').
    await numbers.fill(['123', '13105550001', 'abc', '2', '3', '4', '5'].join('\n'));
    await content.fill('Hello');
    await start.click();
    await page.getByText('Invalid numbers (only accept format: 1XXXXXXXXXX): 123, abc, 2, 3, 4...').waitFor();

    // A message line over 150 characters is refused as it is typed; segments show live.
    await content.fill('x'.repeat(151));
    await page.getByText('Each message line must not exceed 150 characters.').waitFor();
    await content.fill('Hello from the browser test');
    await page.getByText('Line 1: 27 characters · 1 SMS (GSM-7)').waitFor();
    await content.fill('Xin chào từ SimDock 👋');
    await page.getByText(/Line 1: \d+ characters · 1 SMS \(UCS-2\)/).waitFor();

    // Numbers from a CSV file: cells flattened, invalid ones dropped and listed.
    await page.getByRole('tab', { name: 'Upload File' }).first().click();
    const csv = 'name,phone\n"Ann, A.",13105550101\nBob,13105550102\nCy,999\n';
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'numbers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
    await page.getByText('Loaded 2 numbers from numbers.csv.').waitFor();
    await page.getByText(/Invalid numbers in file: name, phone, Ann, A\., Bob, Cy\.\.\./).waitFor();
    // A file of the wrong type is refused.
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'numbers.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4'),
      });
    await page.getByText('Only TXT, CSV files are accepted.').waitFor();
    await page.getByRole('tab', { name: 'Input Number' }).click();
    expect(await numbers.inputValue()).toBe('13105550101\n13105550102');
    await numbers.fill('13105550101\n13105550102\n13105550103');
    await content.fill('Hello from the browser test\nSecond variant from the browser test');
    await shot(page, 'sms-sending-desktop');

    await start.click();
    await page.getByText('Send successful!').waitFor();
    await page.getByText(/3 messages queued\./).waitFor();
    expect(await numbers.inputValue()).toBe('');
    expect(await content.inputValue()).toBe('');
    // Live progress of this campaign until every message has a result.
    const bar = page.getByRole('progressbar', { name: 'Campaign progress' });
    await bar.waitFor();
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');
    await page.getByText('3 of 3 finished').waitFor();
    await shot(page, 'sms-sending-progress');
    const rows = await e.db.query<{ status: string }>(
      `SELECT m.status FROM messages m JOIN campaigns c ON c.id = m.campaign_id
        WHERE m.recipient LIKE '1310555010%'`,
    );
    expect(rows.length).toBe(3);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fits(page), { timeout: 10_000 }).toBe(true);
    await shot(page, 'sms-sending-phone');
    expect(errors).toEqual([]);
  });

  it('History: tiles, chart, paging, CSV export; Gateway and Port for Admin9 only', async () => {
    const page = await e.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, DEMO_USER);
    await page.goto('/History');
    await page.getByRole('heading', { level: 1, name: 'SMS History Stats' }).waitFor();
    const table = page.getByRole('table', { name: 'Message Details' });
    await table.locator('tbody tr').first().waitFor();
    await page.locator('.recharts-surface').first().waitFor();
    // Times are today's, in local time (epoch seconds read once, not twice).
    const year = String(new Date().getFullYear());
    expect(await table.locator('tbody tr').first().locator('td').first().textContent()).toMatch(
      new RegExp(`^${year}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`),
    );
    const series = page.getByRole('table', { name: 'Messages sent, delivered and replied to per day' });
    expect(await series.locator('tbody th').first().textContent()).toMatch(new RegExp(`^${year}-`));
    expect(await table.getByRole('columnheader', { name: 'Gateway' }).count()).toBe(0);
    const total = Number(
      (
        await page
          .getByText('Total Messages')
          .locator('xpath=..')
          .locator('xpath=following-sibling::div')
          .textContent()
      )?.replace(/,/g, ''),
    );
    expect(total).toBeGreaterThanOrEqual(43);
    await page.getByLabel('Rows per page').selectOption('10');
    await page.getByText(`Page 1 / ${Math.ceil(total / 10)}`).waitFor();
    // The previous page stays on screen until the smaller one has loaded.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Page 2 / ${Math.ceil(total / 10)}`).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const text = await readFile(file, 'utf8');
    expect(text.split(/\r?\n/).filter(Boolean).length).toBe(total + 1);
    expect(text).toContain('13105550101');
    await shot(page, 'history-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    // The chart re-measures itself after the resize (ResizeObserver): wait for the layout to settle.
    await expect.poll(() => fits(page), { timeout: 10_000 }).toBe(true);
    await shot(page, 'history-phone');

    const admin = await e.newPage({ viewport: { width: 1366, height: 900 } });
    await loginWithToken(admin, e, ADMIN);
    await admin.goto('/History');
    const adminTable = admin.getByRole('table', { name: 'Message Details' });
    await adminTable.getByRole('columnheader', { name: 'Gateway' }).waitFor();
    await adminTable.getByRole('columnheader', { name: 'Port' }).waitFor();
    expect(errors).toEqual([]);
  });
});
