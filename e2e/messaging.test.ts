import { readFile } from 'node:fs/promises';
import { DEMO_USER } from '@simdock/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, axeFindings, type E2E, loginWithToken, shot, startE2E, watchErrors } from './harness.ts';

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
    const numbers = page.getByLabel('Phone numbers, one per line: 1 followed by 10 digits (1XXXXXXXXXX)');
    const content = page.getByLabel(/^Messages, one per line/);
    const start = page.getByRole('button', { name: 'Start Mass Send' });

    // A paste past the limit is kept and marked; Start Mass Send waits until it fits.
    const many = Array.from({ length: 21 }, (_, i) => String(13105550000 + i)).join('\n');
    await numbers.fill(many);
    await page.getByText('Limit is 20 numbers. 1 over the limit: remove some to send.').waitFor();
    expect(await numbers.inputValue()).toBe(many);
    expect(await start.isDisabled()).toBe(true);
    await shot(page, 'sms-sending-over-limit');

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

    // Numbers from a CSV file with a header: the phone column only (quoted commas and all), and only
    // the numbers that really are invalid listed.
    await page.getByRole('tab', { name: 'Upload File' }).first().click();
    const csv = 'name,phone\n"Ann, A.",+1 (310) 555-0101\nBob,13105550102\nCy,999\n';
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'numbers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
    await page
      .getByText('Loaded 2 numbers from numbers.csv. Numbers taken from the column "phone".')
      .waitFor();
    await page.getByText('Invalid numbers in file: 999', { exact: true }).waitFor();
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

    // A new attempt clears the last result: the rules' error shows alone, without the old success.
    // (Numbers none of which is valid keep Start off, with the reason: one valid number lets it run.)
    await numbers.fill('123');
    await page.getByText('Add at least one valid number to send.').waitFor();
    expect(await start.isDisabled()).toBe(true);
    await numbers.fill('13105550109\n123');
    await content.fill('Hello again');
    await start.click();
    await page.getByText('Invalid numbers (only accept format: 1XXXXXXXXXX): 123').waitFor();
    expect(await page.getByText('Send successful!').count()).toBe(0);
    await numbers.fill('');
    await content.fill('');
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

  it('SMS Sending: the cost at the admin’s price, the balance after, Top up when it does not cover it', async () => {
    const admin = await e.token(ADMIN.username, ADMIN.password);
    const saved = await e.api(
      '/api/Admin/updateSettings',
      { MaxBatchSendSms: 20, MaxMsgPerDay: 5000, SmsPricePerSegment: 0.0125 },
      admin,
    );
    expect(saved.status).toBe(200);
    const user = await e.createUser({ balance: 10 });
    const settings = await e.api(
      '/api/MassOutreach/getSettings',
      {},
      await e.token(user.username, user.password),
    );
    expect(settings.body, 'getSettings answers the admin’s price').toMatchObject({
      smsPricePerSegment: 0.0125,
    });

    const page = await e.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/SMS_SendingPage');
    await page.getByRole('heading', { level: 1, name: 'SMS Sending (Max: 20)' }).waitFor();
    await page.getByText('Price: $0.0125 per SMS segment.', { exact: false }).waitFor();
    const start = page.getByRole('button', { name: 'Start Mass Send' });
    const cost = page.getByTestId('send-cost');
    const amount = (label: string) =>
      cost.locator('div', { has: page.getByText(label, { exact: true }) }).locator('data');

    // Five recipients (one written with +1 and separators), two variants rotating: the 1st, 3rd and
    // 5th get "Hello" (1 segment), the 2nd and 4th a 71-character Unicode line (2 segments):
    // 7 segments × $0.0125 = $0.0875; $10 − $0.0875 = $9.9125.
    const long = `Xin chào ${'ạ'.repeat(62)}`;
    await page
      .getByLabel('Phone numbers, one per line: 1 followed by 10 digits (1XXXXXXXXXX)')
      .fill('+1 (213) 555-0101\n12135550102\n12135550103\n12135550104\n12135550105\n12135550101');
    await page.getByLabel(/^Messages, one per line/).fill(`Hello\n${long}`);
    await cost.getByText('Messages: 5 · SMS segments: 7').waitFor();
    expect(await amount('Cost of this send').getAttribute('value')).toBe('0.0875');
    expect(await amount('Cost of this send').textContent()).toBe('$0.0875');
    expect(await amount('Your balance').textContent()).toBe('$10.0000');
    expect(await amount('Balance after').textContent()).toBe('$9.9125');
    expect(await start.isDisabled()).toBe(false);
    expect(await axeFindings(page, 'cost of a send')).toEqual([]);
    await shot(page, 'sms-sending-cost-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fits(page), { timeout: 10_000 }).toBe(true);
    await shot(page, 'sms-sending-cost-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    await start.click();
    await page.getByText('Send successful!').waitFor();
    await page.getByText('Charged $0.0875; your balance is now $9.9125.').waitFor();
    await expect.poll(() => page.getByTestId('shell-balance').textContent()).toBe('$9.9125');
    await shot(page, 'sms-sending-charged');
    const [row] = await e.db.query<{ balance: string }>('SELECT balance::text FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(Number(row!.balance)).toBe(9.9125);

    // A user whose balance does not cover the send: warned, Top up offered, nothing can be sent.
    const poor = await e.createUser({ balance: 0.01 });
    const page2 = await e.newPage({ viewport: { width: 1280, height: 900 } });
    await loginWithToken(page2, e, poor);
    await page2.goto('/SMS_SendingPage');
    await page2.getByRole('heading', { level: 1, name: 'SMS Sending (Max: 20)' }).waitFor();
    await page2
      .getByLabel('Phone numbers, one per line: 1 followed by 10 digits (1XXXXXXXXXX)')
      .fill('12135550201');
    await page2.getByLabel(/^Messages, one per line/).fill('Hello');
    const warning = page2.getByRole('alert').filter({ hasText: 'Your balance does not cover this send.' });
    await warning.waitFor();
    expect(await page2.getByRole('button', { name: 'Start Mass Send' }).isDisabled()).toBe(true);
    await shot(page2, 'sms-sending-balance-short');
    expect(await axeFindings(page2, 'balance too low')).toEqual([]);
    await warning.getByRole('link', { name: 'Top up' }).click();
    await page2.waitForURL(/\/topup$/);
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
    const series = page.getByRole('table', {
      name: 'Messages sent and delivered, and replies received, per day',
    });
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
