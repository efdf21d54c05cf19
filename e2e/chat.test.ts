import { DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, shot, shownPhone, startE2E, watchErrors } from './harness.ts';

// The Chat page in the browser at desktop and phone widths — select, edit
// contact, send text, attach and remove an image, send an MMS, a reply appearing without reload.
// The server runs the demo (simulated gateway, demo user) with its background jobs (dispatcher).
// A conversation is made the way users make them: the demo user writes to a number (mass send), and
// the recipient answers through the admin's "simulate incoming SMS" on the SIM port that wrote.

let e: E2E;
let adminToken: string;
let userToken: string;

/** A recipient only this test writes to. */
const PHONE = '13105559901';
/** A 1×1 PNG: the server checks uploads by content, so it must be a real image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  e = await startE2E({ workers: true, env: { DEMO: 'true', SMS_PER_SIM_PER_MINUTE: '600' } });
  adminToken = await e.token(ADMIN.username, ADMIN.password);
  userToken = await e.token(DEMO_USER.username, DEMO_USER.password);
  // The demo's phone and GoIP box cannot send MMS, and a conversation keeps the SIM that first
  // wrote: their SIMs serve rentals only here, so the first send (and the MMS later) goes through
  // the gateway.
  const phoneSims = await e.db.query<{ gateway_id: string; port: string }>(
    `SELECT s.gateway_id, s.port FROM sims s JOIN gateways g ON g.id = s.gateway_id WHERE g.driver <> 'ejoin'`,
  );
  expect(phoneSims.length).toBeGreaterThan(0);
  for (const s of phoneSims) {
    const r = await e.api(
      '/api/Admin/setSimRole',
      { gatewayId: s.gateway_id, port: s.port, role: 'rental' },
      adminToken,
    );
    expect(r.status).toBe(200);
  }
  const sent = await e.api(
    '/api/MassOutreach/sendMassSMS',
    { number: PHONE, mess: 'Hello from the chat test' },
    userToken,
  );
  expect(sent.status).toBe(200);
  // The dispatcher hands it to a SIM; that SIM's port is the conversation's (sticky sender).
  // (expect.poll only runs inside a test: wait by hand.)
  const until = Date.now() + 30_000;
  while (!(await simOf(PHONE)) && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
  await reply('Hi back from the recipient');
}, 120_000);

afterAll(async () => {
  await e?.close();
});

/**
 * The gateway and port that last wrote to `phone`, once the device has sent it: a claimed message
 * has its port before the send is recorded, and a reply can only come after the SMS went out (the
 * conversation learns its SIM when the send is recorded).
 */
async function simOf(phone: string) {
  const [row] = await e.db.query<{ gateway_id: string | null; port: string | null }>(
    `SELECT gateway_id, port FROM messages
      WHERE recipient = $1 AND port IS NOT NULL AND status IN ('sent', 'delivered')
      ORDER BY id DESC LIMIT 1`,
    [phone],
  );
  return row?.gateway_id && row.port ? { gatewayId: row.gateway_id, port: row.port } : undefined;
}

/** The recipient answers: an incoming SMS from PHONE on the SIM port of the conversation. */
async function reply(text: string) {
  const sim = await simOf(PHONE);
  if (!sim) throw new Error(`nothing was sent to ${PHONE}`);
  const res = await e.api('/api/Admin/simulateSms', { ...sim, from: PHONE, text }, adminToken);
  expect(res.status).toBe(200);
}

const fits = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

/** Selects the test's conversation through the search box. */
async function openConversation(page: Page, name: string | RegExp = shownPhone(PHONE)) {
  await page.getByRole('searchbox', { name: 'Search by name or number' }).fill(PHONE.slice(-6));
  await page.getByTestId('conversation').filter({ hasText: name }).first().click();
  await page.getByRole('log').getByText('Hi back from the recipient').waitFor();
}

describe('Chat in the browser', () => {
  it('desktop: select, edit contact, send text, attach/remove an image, send an MMS, a live reply', async () => {
    const page = await e.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, DEMO_USER);
    // Away from the chat, the sidebar's Chat item counts the unread replies (ours among them).
    await page.goto('/dashboard');
    await page.getByRole('link', { name: /^Chat, \d+ unread$/ }).waitFor();
    await page.getByRole('link', { name: /^Chat/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    // Something is selected at once (the first conversation).
    await page.locator('[data-testid="conversation"][aria-current="true"]').waitFor();

    // Select: the thread shows our message (right) and the reply (left).
    await openConversation(page);
    const log = page.getByRole('log');
    expect(
      await log
        .getByTestId('chat-message')
        .filter({ hasText: 'Hello from the chat test' })
        .getAttribute('data-direction'),
    ).toBe('out');
    expect(
      await log
        .getByTestId('chat-message')
        .filter({ hasText: 'Hi back from the recipient' })
        .getAttribute('data-direction'),
    ).toBe('in');

    // Edit contact: Cancel keeps it; Save names it in the list and the header.
    await page.getByRole('button', { name: 'Edit contact' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit Contact' });
    await dialog.getByLabel('Name').fill('Should not stick');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit contact' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Contact' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('');
    await dialog.getByLabel('Name').fill('Chat Tester');
    await dialog.getByLabel('Note').fill('Met at the e2e test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 2, name: 'Chat Tester' }).waitFor();
    await page.getByTestId('conversation').filter({ hasText: 'Chat Tester' }).waitFor();

    // Empty send is blocked with the contract's message.
    const box = page.getByRole('textbox', { name: 'Message' });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Please enter a message or attach a file.').waitFor();

    // Send text with Enter (Shift+Enter is a new line).
    await box.fill('Thanks for replying');
    await box.press('Shift+Enter');
    await box.pressSequentially('Talk soon');
    await box.press('Enter');
    const mine = log.getByTestId('chat-message').filter({ hasText: 'Talk soon' });
    await mine.waitFor();
    expect(await mine.getAttribute('data-direction')).toBe('out');
    expect(await box.inputValue()).toBe('');
    // The simulator reports the delivery: the green check appears without a reload.
    await mine.getByRole('img', { name: 'Delivered' }).waitFor({ timeout: 30_000 });

    // Attach an image: a preview with a remove button; removing it clears the preview.
    const file = page.getByTestId('chat-attach-input');
    await file.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Attachment: dot.png' }).waitFor();
    await shot(page, 'chat-attach-1366');
    await page.getByRole('button', { name: 'Remove attachment' }).click();
    await page.getByTestId('chat-attachment').waitFor({ state: 'detached' });

    // Send an MMS: the image (and a caption) show in an outgoing bubble, fetched with the token.
    await file.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('chat-attachment').waitFor();
    await box.fill('A picture for you');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const mms = log.getByTestId('chat-message').filter({ hasText: 'A picture for you' });
    await mms.waitFor();
    const img = mms.getByRole('img', { name: 'Image' });
    await img.waitFor();
    await expect
      .poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), {
        timeout: 10_000,
      })
      .toBe(1);
    // A data: URL: the server's CSP allows data: images (not blob:).
    expect(await img.getAttribute('src')).toMatch(/^data:image\//);
    await page.getByTestId('chat-attachment').waitFor({ state: 'detached' });

    // A reply appears without a reload (live stream, polling as fallback), at the bottom in view.
    await page.evaluate('window.__stillHere = true');
    await reply('Second reply, live');
    const live = log.getByTestId('chat-message').filter({ hasText: 'Second reply, live' });
    await live.waitFor({ timeout: 10_000 });
    expect(await live.getAttribute('data-direction')).toBe('in');
    expect(await page.evaluate('window.__stillHere === true')).toBe(true);
    await expect.poll(() => live.isVisible()).toBe(true);
    await expect
      .poll(() => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight <= 48))
      .toBe(true);
    // Control characters are not shown.
    await reply('ding\u0007dong');
    await log.getByText('dingdong').waitFor({ timeout: 10_000 });
    await shot(page, 'chat-1366');
    expect(errors).toEqual([]);
  }, 180_000);

  it('phone: the list is a slide-over; selecting closes it; the thread and send form fit', async () => {
    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, DEMO_USER);
    await page.goto('/ChatPage');
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await page.getByRole('button', { name: /^Conversations/ }).click();
    const panel = page.getByRole('dialog', { name: 'Conversations' });
    await panel.waitFor();
    await shot(page, 'chat-list-390');
    await panel.getByRole('searchbox', { name: 'Search by name or number' }).fill(PHONE.slice(-6));
    await panel
      .getByTestId('conversation')
      .filter({ hasText: shownPhone(PHONE) })
      .click();
    await panel.waitFor({ state: 'hidden' });
    await page.getByRole('log').getByText('Hi back from the recipient').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('From the phone');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('log').getByText('From the phone').waitFor();
    // Esc closes the panel too.
    await page.getByRole('button', { name: /^Conversations/ }).click();
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => fits(page), { timeout: 10_000 }).toBe(true);
    // The composer's placeholder fits its box on a phone (not cut off mid-sentence), and the
    // attachment limit is in sight before anything is picked.
    const placeholderFits = await page.getByRole('textbox', { name: 'Message' }).evaluate((el) => {
      const box = el as HTMLTextAreaElement;
      const css = getComputedStyle(box);
      const ctx = document.createElement('canvas').getContext('2d');
      if (!ctx) return false;
      ctx.font = css.font;
      const inner = box.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
      return ctx.measureText(box.placeholder).width <= inner;
    });
    expect(placeholderFits).toBe(true);
    expect(await page.getByText('Attach images or MP4 videos up to 5 MB').isVisible()).toBe(true);
    await shot(page, 'chat-390');
    expect(errors).toEqual([]);
  }, 120_000);
});
