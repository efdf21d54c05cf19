import { addService, seedGateway } from '@simdock/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type E2E,
  loginWithToken,
  settle,
  shot,
  shownPhone,
  startE2E,
  watchErrors,
} from './harness.ts';

// Renters cannot empty a pool, and sending keeps its share, in the browser: Service Manager returns
// a number spent by the reuse limit to the pool after a confirmation, Settings has SIMs Kept For
// Sending (%), and the admin Overview says how many SIMs are kept (16 SIMs with role Both, 20 %: 3).

let e: E2E;
let spentNumber: string;

beforeAll(async () => {
  e = await startE2E();
  const gw = await seedGateway(e.db, { name: 'gw-share', sims: 16, lastUpdate: new Date() });
  const serviceId = await addService(e.db, { code: 'e2e-pool', name: 'E2E Pool' });
  const buyer = await e.createUser({ username: 'poolbuyer' });
  spentNumber = gw.numbers[0]!;
  // Four expired rentals without any SMS: the number reached the reuse limit (3) for the service.
  const long = new Date(Date.now() - 3 * 3600_000);
  for (let i = 0; i < 4; i++) {
    await e.db.query(
      `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                           phone_number, price, status, created_at, expires_at, finished_at)
       VALUES ($1, $2, 'e2e-pool', 'E2E Pool', $3, 'gw-share', $4, $5, 1, 'CANCEL', $6, $6, $6)`,
      [buyer.id, serviceId, gw.id, gw.ports[0], spentNumber, long],
    );
  }
});
afterAll(async () => {
  await e?.close();
});

async function adminPage(path: string, width: number) {
  const page = await e.newPage({ viewport: { width, height: width > 500 ? 800 : 844 } });
  const errors = watchErrors(page);
  await loginWithToken(page, e, ADMIN);
  await page.goto(path);
  return { page, errors };
}

const fitsWidth = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

describe('SIMs kept for sending and spent numbers back to the pool', () => {
  for (const width of [1280, 390]) {
    it(`the Overview says how many SIMs are kept and Settings has the share (${width} px)`, {
      timeout: 90_000,
    }, async () => {
      const { page, errors } = await adminPage('/admin', width);
      const tile = page.getByRole('link', { name: /SIMs kept for sending/ });
      await tile.waitFor();
      expect(await tile.textContent()).toContain('3 SIMs kept for sending: 20 %');
      await settle(page);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `pool-share-overview-${width}`);

      await page.goto('/settings');
      const field = page.getByLabel('SIMs Kept For Sending (%)');
      await field.waitFor();
      expect(await field.inputValue()).toBe('20');
      await settle(page);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `pool-share-settings-${width}`);
      expect(errors).toEqual([]);
    });
  }

  it('Service Manager: Return to pool asks, then gives the number back (1280 and 390 px)', {
    timeout: 120_000,
  }, async () => {
    for (const width of [390, 1280]) {
      const { page, errors } = await adminPage('/servicemanager', width);
      await page.getByRole('heading', { level: 1, name: 'Service Manager' }).waitFor();
      await settle(page);
      await shot(page, `pool-services-${width}`);
      await page
        .getByRole('button', { name: /Spent numbers of E2E Pool: 1/ })
        .locator('visible=true')
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: 'Spent numbers — E2E Pool' });
      await dialog
        .getByText('Reuse limit reached (4 empty rentals)')
        .locator('visible=true')
        .first()
        .waitFor();
      await settle(page);
      await shot(page, `pool-return-list-${width}`);
      await dialog
        .getByRole('button', { name: `Return ${shownPhone(spentNumber)} to the pool` })
        .first()
        .click();
      const confirm = page.getByRole('dialog', { name: `Return ${shownPhone(spentNumber)} to the pool?` });
      await confirm.waitFor();
      await settle(page);
      await shot(page, `pool-return-confirm-${width}`);
      if (width === 1280) {
        await confirm.getByRole('button', { name: 'Return to pool' }).click();
        await page
          .getByText(`${shownPhone(spentNumber)} is back in the pool of E2E Pool.`)
          .first()
          .waitFor();
        await dialog.getByText('No spent numbers').first().waitFor();
      } else {
        await confirm.getByRole('button', { name: 'Cancel' }).click();
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
