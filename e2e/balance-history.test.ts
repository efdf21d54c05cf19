import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, settle, shot, startE2E, watchErrors } from './harness.ts';

// The Balance history page in the browser: an administrator's adjustment, a priced send and its
// refund listed newest first in words, with signed amounts to four decimals and the balance after
// each; reached from the top bar's balance and from Top up; no sideways scroll on a phone.

let e: E2E;

beforeAll(async () => {
  e = await startE2E();
});
afterAll(async () => {
  await e?.close();
});

const sideways = (page: Awaited<ReturnType<E2E['newPage']>>) =>
  page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  ) as Promise<number>;

describe('balance history', () => {
  it('lists the money movements with the balance after each, from the top bar and from Top up', async () => {
    const admin = await e.token(ADMIN.username, ADMIN.password);
    const prices = await e.api(
      '/api/Admin/updateSettings',
      { MaxBatchSendSms: 100, MaxMsgPerDay: 1000, SmsPricePerSegment: '0.0075' },
      admin,
    );
    expect(prices.status).toBe(200);
    const user = await e.createUser();
    const adjusted = await e.api(
      '/api/Admin/updateUser',
      { user: { id: user.id, username: user.username, email: user.email, roles: ['User'], balance: 10 } },
      admin,
    );
    expect(adjusted.status).toBe(200);
    // Three SMS of one segment: $0.0225; cancelled before any left (no workers), so refunded.
    const token = await e.token(user.username, user.password);
    const sent = await e.api<{ data: { campaignId: string; cost: number } }>(
      '/api/MassOutreach/sendMassSMS',
      { number: '13105550111\n13105550112\n13105550113', mess: 'Hello' },
      token,
    );
    expect(sent.status).toBe(200);
    const campaign = sent.body.data.campaignId;
    expect((await e.api('/api/MassOutreach/cancel', { campaignId: campaign }, token)).status).toBe(200);

    const page = await e.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/dashboard');
    const balance = page.getByTestId('shell-balance');
    await expect.poll(async () => (await balance.textContent())?.trim()).toBe('$10.0000');
    await balance.click();
    await page.waitForURL(/\/balance$/);
    await page.getByRole('heading', { level: 1, name: 'Balance history' }).waitFor();
    const table = page.getByRole('table', { name: 'Your balance history' });
    await table.getByText('Messages refund').waitFor();
    const rows: string[][] = [];
    for (const row of await table.locator('tbody tr').all()) {
      rows.push((await row.locator('td').allTextContents()).slice(1).map((c) => c.trim()));
    }
    expect(rows).toEqual([
      [
        'Messages refund',
        expect.stringMatching(new RegExp(`^Campaign #${campaign}, messages #\\d+–#\\d+$`)),
        '+$0.0225',
        '$10.0000',
      ],
      ['Messages', `Campaign #${campaign}`, '-$0.0225', '$9.9775'],
      ['Adjustment by an administrator', '—', '+$10.0000', '$10.0000'],
    ]);
    await settle(page);
    await shot(page, 'balance-history-desktop');

    // From Top up, one click back to it.
    await page.goto('/topup');
    await page.getByRole('link', { name: 'Balance history', exact: true }).click();
    await page.waitForURL(/\/balance$/);
    await page.getByRole('heading', { level: 1, name: 'Balance history' }).waitFor();

    // On a phone: each entry a card, nothing wider than the screen.
    const phone = await e.newPage({ viewport: { width: 390, height: 844 } });
    await loginWithToken(phone, e, user);
    await phone.goto('/balance');
    await phone.getByText('Messages refund').waitFor();
    await phone.getByText('-$0.0225').waitFor();
    await settle(phone);
    expect(await sideways(phone)).toBe(0);
    await shot(phone, 'balance-history-phone');
    expect(errors).toEqual([]);
  });

  it('says so when a new user has no movement yet', async () => {
    const user = await e.createUser();
    const page = await e.newPage();
    await loginWithToken(page, e, user);
    await page.goto('/balance');
    await page.getByText('No money movements yet. Top-ups, rentals and messages show here.').waitFor();
  });
});
