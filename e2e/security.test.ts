/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, startE2E } from './harness.ts';

// The Content-Security-Policy must not break what it protects: the app's inline theme script
// runs (its hash is allowed), a dialog's runtime scroll-lock style is allowed by the response's
// nonce, nothing is refused, and Swagger UI still renders.

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(async () => {
  await e?.close();
});

/** Console messages about refused content (Chromium logs every CSP violation as an error). */
function watchCsp(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  return refused;
}

describe('content security policy in the browser', () => {
  it('runs the inline theme script and refuses nothing on the app pages', async () => {
    const page = await e.newPage();
    const refused = watchCsp(page);
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('simdock.theme', 'dark'));
    await page.reload();
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.goto('/register');
    await page.getByLabel('Email').waitFor();
    expect(refused).toEqual([]);
  });

  it('lets an open dialog lock the page behind it (its runtime <style> carries the nonce)', async () => {
    const page = await e.newPage();
    const refused = watchCsp(page);
    await loginWithToken(page, e, ADMIN);
    await page.goto('/usermanager');
    await page.getByRole('table', { name: 'Users', exact: true }).getByRole('row').nth(1).waitFor();
    const overflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);
    expect(await overflow()).not.toBe('hidden');
    // sonner adds a <style> without a nonce when it loads: refused, harmless (its stylesheet is
    // bundled, see components/toast.tsx). The dialog must add no refusal of its own.
    const before = refused.length;
    await page.getByRole('button', { name: 'Add User', exact: true }).click();
    await page.getByRole('dialog', { name: 'Add User' }).waitFor();
    // The scroll lock's style sheet applied: the page behind the dialog does not scroll.
    expect(await overflow()).toBe('hidden');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await overflow()).not.toBe('hidden');
    expect(refused.slice(before)).toEqual([]);
  });

  it('renders Swagger UI with its operations', async () => {
    const page = await e.newPage();
    const refused = watchCsp(page);
    await page.goto('/swagger');
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(5);
    expect(refused).toEqual([]);
  });
});
