import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  allowConsoleError,
  assertNoBrowserProblems,
  type E2E,
  loginWithToken,
  startE2E,
} from './harness.ts';

// The harness's guard (e2e/setup.ts runs it after every browser test): a console error, an uncaught
// error or a Content-Security-Policy violation in any page fails the test.

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(async () => {
  await e?.close();
});

/** What the guard reports now ('' for nothing); it forgets what it reported. */
function guardReport(): string {
  try {
    assertNoBrowserProblems();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the browser guard', () => {
  it('catches a CSP violation even when the refused call is caught, and a console error', async () => {
    const page = await e.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    // An inline script the CSP refuses (the page goes on: nothing is thrown where anyone sees it).
    await page.evaluate(
      `document.head.append(Object.assign(document.createElement('script'), { textContent: 'window.x = 1' }))`,
    );
    await expect.poll(guardReport).toMatch(/securitypolicyviolation on .*\/login: script-src/);
    await page.evaluate(`console.error('something broke')`);
    await expect.poll(guardReport).toMatch(/console error on .*\/login: something broke/);
  });

  it('lets a test allow the console errors it provokes', async () => {
    const page = await e.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    allowConsoleError(/expected failure/);
    await page.evaluate(`console.error('an expected failure')`);
    // Messages reach the harness in order: once the later one is reported, the allowed one was not.
    await page.evaluate(`console.error('marker')`);
    let report = '';
    await expect.poll(() => (report += guardReport())).toMatch(/marker/);
    expect(report).not.toMatch(/expected failure/);
  });

  it('a full load of the app, signed out and signed in, leaves nothing to report (zod runs jitless)', async () => {
    const page = await e.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    await loginWithToken(page, e, ADMIN);
    await page.goto('/usermanager');
    await page.getByRole('table', { name: 'Users', exact: true }).getByRole('row').nth(1).waitFor();
    // The after-each guard checks it; here too, so the test says what it is about.
    expect(guardReport()).toBe('');
  });
});
