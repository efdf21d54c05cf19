import { GatewaySim } from '@simdock/gateway-sim';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  axeFindings,
  type E2E,
  loginWithToken,
  shot,
  shownPhone,
  startE2E,
  type TestUser,
  watchErrors,
} from './harness.ts';

// Chat as a reply inbox in the browser, at desktop and phone widths: a user sends a campaign to 40
// numbers, two recipients answer, then a reminder goes to the 38 who did not (so they are the newest
// conversations). The sidebar's Chat item counts the two unread replies, and Chat lists them on top
// (newest first alone would show them 39th and 40th), with Unread / Replied filters in the URL.
// The server runs its background jobs (dispatcher) against a simulated gateway of this test's own
// (no demo: its simulated recipients answer on their own); the replies come in from the simulator,
// on the port that wrote to the number, as a device pushes them.

let e: E2E;
let sim: GatewaySim;

interface Inbox {
  user: TestUser;
  /** The recipient whose reply came last (listed first), and the other one who replied. */
  latest: string;
  earlier: string;
}
let desktop: Inbox;
let phone: Inbox;

beforeAll(async () => {
  e = await startE2E({
    workers: true,
    env: { SMS_PER_SIM_PER_MINUTE: '600', SMS_DISPATCH_INTERVAL_MS: '200' },
  });
  sim = await GatewaySim.start({ ports: 8, sendDelayMs: 5 });
  const admin = await e.token(ADMIN.username, ADMIN.password);
  const gw = await e.api<{ id: string }>(
    '/api/Admin/updateGateway',
    { gateway: { name: 'Inbox rack', url: sim.url, mac: sim.mac, userName: 'root', password: 'root' } },
    admin,
  );
  expect(gw.status).toBe(200);
  expect((await e.api('/api/Admin/gatewayScan', { id: gw.body.id }, admin)).status).toBe(200);
  await sim.pushesSettled();
  const limits = await e.api(
    '/api/Admin/updateSettings',
    { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
    admin,
  );
  expect(limits.status).toBe(200);
  // Each test has its own user and numbers (a reply goes to whoever last wrote to the number).
  desktop = await inbox(13105551000);
  phone = await inbox(13105552000);
}, 180_000);

afterAll(async () => {
  await e?.close();
  await sim?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function send(token: string, numbers: string[], text: string) {
  const res = await e.api('/api/MassOutreach/sendMassSMS', { number: numbers.join('\n'), mess: text }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A campaign to 40 numbers from `base`, replies from the 8th and (later) the 24th, a reminder to the rest. */
async function inbox(base: number): Promise<Inbox> {
  const user = await e.createUser({ balance: 20 });
  const token = await e.token(user.username, user.password);
  const numbers = Array.from({ length: 40 }, (_, i) => String(base + i));
  await send(token, numbers, 'Spring sale: 20% off this week.');
  // The dispatcher hands each message to a SIM (its port is the conversation's); a reply counts
  // once the message went out.
  const sent = async () =>
    e.db.query<{ recipient: string; port: string }>(
      `SELECT recipient, port FROM messages WHERE user_id = $1 AND status IN ('sent', 'delivered')`,
      [user.id],
    );
  const until = Date.now() + 60_000;
  while ((await sent()).length < 40) {
    if (Date.now() > until) throw new Error(`only ${(await sent()).length} of 40 messages went out`);
    await sleep(300);
  }
  const portOf = new Map((await sent()).map((r) => [r.recipient, r.port]));
  // A device stamps an SMS in whole seconds: the answers come at least a second after the sends.
  await sleep(1100);
  const [earlier, latest] = [numbers[7]!, numbers[23]!];
  for (const [from, text] of [
    [earlier, 'Is the sale on shoes too?'],
    [latest, 'Yes please, call me tomorrow'],
  ] as const) {
    sim.injectSms({ port: portOf.get(from)!, from: `+${from}`, text });
    const until = Date.now() + 10_000;
    while ((await e.db.query('SELECT 1 FROM conversation_replies WHERE sender = $1', [from])).length === 0) {
      if (Date.now() > until) throw new Error(`the reply from ${from} did not arrive`);
      await sleep(200);
    }
    // Distinct arrival times: the later reply is listed first.
    await sleep(1100);
  }
  await send(
    token,
    numbers.filter((n) => n !== earlier && n !== latest),
    'Last day of the sale!',
  );
  return { user, latest, earlier };
}

const fits = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

const rows = (scope: Page | Locator) => scope.getByTestId('conversation');

describe('Chat as a reply inbox in the browser', () => {
  it('desktop: the sidebar counts 2 unread; Chat lists the replies first; Unread and Replied filter, in the URL', async () => {
    const page = await e.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, desktop.user);
    await page.goto('/dashboard');
    const chatLink = page.getByRole('link', { name: 'Chat, 2 unread' });
    await chatLink.waitFor();
    expect(await page.getByTestId('chat-unread-total').textContent()).toBe('2');
    await chatLink.click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();

    // On top: the latest reply, opened at once (the first is selected), then the other reply.
    const list = rows(page);
    await page.getByRole('log').getByText('Yes please, call me tomorrow').waitFor();
    expect(await list.count()).toBe(40);
    expect(await list.nth(0).textContent()).toContain(shownPhone(desktop.latest));
    expect(await list.nth(0).getAttribute('aria-current')).toBe('true');
    expect(await list.nth(1).textContent()).toContain(shownPhone(desktop.earlier));
    expect(await list.nth(1).getByTestId('unread-badge').isVisible()).toBe(true);
    expect(await list.nth(2).textContent()).toContain('Last day of the sale!');
    // Opening it read it: one conversation with an unread reply left, on the sidebar and on Unread.
    await page.getByRole('link', { name: 'Chat, 1 unread' }).waitFor();
    const filters = page.getByRole('group', { name: 'Show conversations' });
    await expect.poll(() => filters.getByRole('button', { name: /^Unread/ }).textContent()).toBe('Unread1');
    await shot(page, 'chat-inbox-1280');
    expect(await axeFindings(page, 'chat inbox')).toEqual([]);

    // Unread: the one being read stays (read) until another is opened; the other one is unread.
    await filters.getByRole('button', { name: /^Unread/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?filter=unread');
    await expect.poll(() => list.count()).toBe(2);
    await list.nth(1).click();
    await page.getByRole('log').getByText('Is the sale on shoes too?').waitFor();
    await page.getByRole('link', { name: 'Chat', exact: true }).waitFor();
    // Reload keeps the filter; both replies are read now.
    await page.reload();
    await page.getByText('No unread replies').first().waitFor();
    expect(await filters.getByRole('button', { name: /^Unread/ }).getAttribute('aria-pressed')).toBe('true');

    // Replied: exactly the two who answered; All again drops the parameter.
    await filters.getByRole('button', { name: /^Replied/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?filter=replied');
    await expect.poll(() => list.count()).toBe(2);
    const replied = await list.allTextContents();
    expect(replied.some((t) => t.includes(shownPhone(desktop.latest)))).toBe(true);
    expect(replied.some((t) => t.includes(shownPhone(desktop.earlier)))).toBe(true);
    await filters.getByRole('button', { name: /^All/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => list.count()).toBe(40);
    expect(errors).toEqual([]);
  }, 120_000);

  it('390 px: the menu shows the unread count; the list panel has the reply on top; nothing overflows', async () => {
    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, phone.user);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const chatLink = page.getByRole('link', { name: 'Chat, 2 unread' });
    await chatLink.waitFor();
    await shot(page, 'chat-inbox-menu-390');
    await chatLink.click();
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    // The latest reply is open at once.
    await page.getByRole('log').getByText('Yes please, call me tomorrow').waitFor();
    await page.getByRole('button', { name: /^Conversations/ }).click();
    const panel = page.getByRole('dialog', { name: 'Conversations' });
    await panel.waitFor();
    const list = rows(panel);
    expect(await list.nth(0).textContent()).toContain(shownPhone(phone.latest));
    expect(await list.nth(1).textContent()).toContain(shownPhone(phone.earlier));
    expect(await list.nth(1).getByTestId('unread-badge').isVisible()).toBe(true);
    await panel.getByRole('button', { name: /^Unread/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?filter=unread');
    await expect.poll(() => list.count()).toBe(2);
    await shot(page, 'chat-inbox-390');
    expect(await fits(page)).toBe(true);
    // Opening the other reply closes the panel and shows it.
    await list.nth(1).click();
    await panel.waitFor({ state: 'hidden' });
    await page.getByRole('log').getByText('Is the sale on shoes too?').waitFor();
    await expect.poll(() => fits(page), { timeout: 10_000 }).toBe(true);
    await shot(page, 'chat-inbox-thread-390');
    expect(errors).toEqual([]);
  }, 120_000);
});
