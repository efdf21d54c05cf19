import { startTestSmtp, type TestSmtp } from '@simdock/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, settle, shot, startE2E, watchErrors } from './harness.ts';

// Password recovery in the browser, through a real SMTP server on 127.0.0.1: "Forgot your
// password?" on the sign-in page, the email asked for, the mail read from the SMTP server, its link
// opened, a new password set twice, and a sign-in with it.

let e: E2E;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  e = await startE2E({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'SimDock <no-reply@simdock.test>' } });
});
afterAll(async () => {
  await e?.close();
  await smtp?.close();
});

describe('password recovery', () => {
  for (const width of [1280, 390]) {
    it(`resets a forgotten password through the mailed link at ${width} px`, async () => {
      const user = await e.createUser();
      const [row] = await e.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [user.id]);
      const page = await e.newPage({ viewport: { width, height: width > 600 ? 800 : 844 } });
      const errors = watchErrors(page);

      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL(/\/forgot-password$/);
      await page.getByLabel('Username or email').fill(row!.email);
      await settle(page);
      await shot(page, `password-forgot-${width}`);
      const before = smtp.mails.length;
      // Keyboard: Enter submits the form.
      await page.getByLabel('Username or email').press('Enter');
      await page.getByText(/If an account matches, we have sent a link/).waitFor();
      await settle(page);
      await shot(page, `password-forgot-sent-${width}`);

      const mail = await smtp.waitForMail(before + 1);
      expect(mail.to).toEqual([row!.email]);
      const link = /(http\S+\/reset-password\?token=[\w%-]+)/.exec(mail.text)?.[1];
      expect(link?.startsWith(`${e.url}/reset-password?token=`)).toBe(true);

      await page.goto(link!);
      await page.getByLabel('New password', { exact: true }).fill('my-new-password-7');
      await page.getByLabel('Confirm new password', { exact: true }).fill('my-new-password-8');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText('Passwords do not match').waitFor();
      await page.getByLabel('Confirm new password', { exact: true }).fill('my-new-password-7');
      await settle(page);
      await shot(page, `password-reset-${width}`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.waitForURL(/\/login$/);
      await page.getByText('Your password was changed. Sign in with the new one.').waitFor();
      await settle(page);
      await shot(page, `password-reset-done-${width}`);

      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password', { exact: true }).fill('my-new-password-7');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      // The link worked once: opened again it says so at once, before any typing (checked on load).
      const again = await e.newPage({ viewport: { width, height: 800 } });
      await again.goto(link!);
      await again.getByText('This link has expired or was already used. Ask for a new one.').waitFor();
      expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
      await settle(again);
      await shot(again, `password-reset-used-${width}`);
      expect(errors).toEqual([]);
    }, 60_000);
  }
});

describe('without a mail server (development: mails are kept in the outbox)', () => {
  let dev: E2E;
  beforeAll(async () => {
    dev = await startE2E({ env: { NODE_ENV: 'development', DEMO: 'false' } });
  });
  afterAll(async () => {
    await dev?.close();
  });

  it('says no email was sent and where the link is, in both languages, and logs no token', async () => {
    const user = await dev.createUser();
    for (const [lang, width] of [
      ['en', 1280],
      ['en', 390],
      ['vi', 390],
    ] as const) {
      const page = await dev.newPage({ viewport: { width, height: width > 600 ? 800 : 844 } });
      const errors = watchErrors(page);
      await page.goto('/forgot-password');
      await page.evaluate(`localStorage.setItem('simdock.lang', '${lang}')`);
      await page.reload();
      await page.locator('input[name="login"]').fill(user.username);
      await page.locator('input[name="login"]').press('Enter');
      const title =
        lang === 'en'
          ? 'No email was sent: mail is not set up on this server.'
          : 'Chưa có email nào được gửi: máy chủ này chưa được cấu hình gửi thư.';
      await page.getByText(title).waitFor();
      expect(await page.getByText(/we have sent a link/).count()).toBe(0);
      await settle(page);
      await shot(page, `password-forgot-outbox-${lang}-${width}`);
      expect(errors).toEqual([]);
      await page.close();
    }
    // The log notes the kept mails, never a link or its token.
    await expect.poll(() => dev.logs.join('\n')).toContain('Mail kept in the outbox');
    expect(dev.logs.join('\n')).not.toContain('reset-password?token=');
  }, 60_000);
});
