import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerReauth,
  axeFindings,
  type E2E,
  loginWithToken,
  settle,
  shot,
  startE2E,
  watchErrors,
} from './harness.ts';

// The API key page in the browser: it shows the key or 'No Apikey', makes a new one
// ('Processing...' while busy), deletes it after 'Delete apikey ?', says when a call failed, links
// the API docs in a new tab, and sends a test event to a webhook (logged in the delivery log); keys
// for programs are made with scopes and allowed addresses and work from where they may, and a
// webhook URL chooses its events.

let e: E2E;
let receiver: Server;
let hookUrl: string;
const received: { headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  e = await startE2E();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/sms`;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await e?.close();
});

const balanceWith = async (key: string) =>
  (await fetch(`${e.url}/api/v1/balance`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('API key page', () => {
  it('none → new → new again (old key dead) → delete with confirmation', async () => {
    const user = await e.createUser({ balance: 5 });
    const page = await e.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/apikey');
    await page.getByRole('heading', { level: 1, name: 'API Key Management' }).waitFor();
    await page.getByText('No Apikey').waitFor();
    const newKey = page.getByRole('button', { name: 'New API Key' });
    const deleteKey = page.getByRole('button', { name: 'Delete API Key' });
    expect(await deleteKey.isDisabled()).toBe(true);

    const docs = page.getByRole('link', { name: /API documentation/ });
    expect(await docs.getAttribute('href')).toBe('/swagger');
    expect(await docs.getAttribute('target')).toBe('_blank');

    // New API Key: 'Processing...' and disabled while the call runs.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/user/reset-key', async (route) => {
      await held;
      await route.continue();
    });
    await newKey.click();
    const busy = page.getByRole('button', { name: 'Processing...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await deleteKey.isDisabled()).toBe(true);
    release();
    // The session alone is refused: the shared dialog asks for the password, then the call goes again.
    await answerReauth(page, user.password);
    // A first key is created; 'API key reset success!' is for replacing one.
    await page.getByText('API key created').waitFor();
    await page.unroute('**/api/user/reset-key');
    const shown = page.getByTestId('api-key');
    const first = (await shown.textContent())?.trim() ?? '';
    expect(first).toMatch(/^sd_[A-Za-z0-9_-]{43}$/);
    expect(await balanceWith(first)).toBe(200);
    await shot(page, 'apikey-desktop');

    // A second key replaces the first at once.
    await newKey.click();
    // A condition polled from here: a string predicate polled in the page is an eval, which the
    // app's CSP refuses whenever the condition is not already true on the first check.
    await expect.poll(async () => (await shown.textContent())?.trim(), { timeout: 10_000 }).not.toBe(first);
    await page.getByText('API key reset success!').waitFor();
    const second = (await shown.textContent())?.trim() ?? '';
    expect(await balanceWith(first)).toBe(401);
    expect(await balanceWith(second)).toBe(200);

    // After a reload the key is still shown to its owner.
    await page.reload();
    await page.getByTestId('api-key').waitFor();
    expect((await page.getByTestId('api-key').textContent())?.trim()).toBe(second);

    // Delete asks first; Cancel keeps the key.
    await deleteKey.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete apikey ?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await balanceWith(second)).toBe(200);
    await deleteKey.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete API Key' }).click();
    await page.getByText('API key deleted!').waitFor();
    await page.getByText('No Apikey').waitFor();
    expect(await deleteKey.isDisabled()).toBe(true);
    expect(await balanceWith(second)).toBe(401);
    expect(errors).toEqual([]);
  });

  it('says when a reset or a delete failed', async () => {
    const user = await e.createUser();
    const page = await e.newPage();
    await loginWithToken(page, e, user);
    await page.goto('/apikey');
    await page.getByText('No Apikey').waitFor();
    await page.route('**/api/user/reset-key', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":0,"error":"unavailable","msg":"down"}',
      }),
    );
    await page.getByRole('button', { name: 'New API Key' }).click();
    await page.getByText('Reset API key failed!').waitFor();
    await page.unroute('**/api/user/reset-key');
    await page.getByRole('button', { name: 'New API Key' }).click();
    await answerReauth(page, user.password);
    await page.getByText('API key created').waitFor();
    await page.route('**/api/user/delete-key', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":0,"error":"unavailable","msg":"down"}',
      }),
    );
    await page.getByRole('button', { name: 'Delete API Key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete API Key' }).click();
    await page.getByText('Delete API key failed!').waitFor();
    await page.getByTestId('api-key').waitFor();
  });

  it('adds a webhook and sends a test event to it; the delivery log shows it', async () => {
    const user = await e.createUser();
    const page = await e.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/apikey');
    await page.getByText('No webhooks yet. Add a URL to receive codes as they arrive.').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.getByLabel('Webhook URL').fill('ftp://nowhere');
    await page.getByRole('button', { name: 'Add URL' }).click();
    // A session alone may not add one: the shared dialog asks for the password, then the call goes
    // again (and the server judges the URL).
    await answerReauth(page, user.password);
    await page.getByText(/Could not add the webhook: Webhook URLs must start with http/).waitFor();
    await page.getByLabel('Webhook URL').fill(hookUrl);
    await page.getByRole('button', { name: 'Add URL' }).click();
    await page.getByRole('list', { name: 'Webhooks' }).getByText(hookUrl).waitFor();
    // The toast is styled (its stylesheet is bundled; the CSP refuses sonner's runtime <style>):
    // it floats over the page instead of pushing the layout down.
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Webhook added.' });
    await toast.waitFor();
    const position = await toast.evaluate(
      (el) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { position: string } }).getComputedStyle(el)
          .position,
    );
    expect(position).toBe('absolute');

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event delivered to 1 of 1 URL.').waitFor();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: 'test' });
    expect(received[0]!.headers['x-simdock-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const log = page.getByRole('table', { name: 'Webhook deliveries' });
    await log.getByText('Delivered').waitFor();
    await log.getByText('HTTP 200').waitFor();
    await shot(page, 'apikey-webhooks');

    await page.getByRole('button', { name: `Delete webhook ${hookUrl}` }).click();
    await page.getByText('No webhooks yet. Add a URL to receive codes as they arrive.').waitFor();
    expect(errors).toEqual([]);
  });

  it('makes a scoped key limited to an address, lists it, uses it; a URL chooses its events', async () => {
    const user = await e.createUser({ balance: 4 });
    const page = await e.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await loginWithToken(page, e, user);
    await page.goto('/apikey');
    await page.getByRole('heading', { name: 'Keys for programs' }).waitFor();
    await page.getByText('No keys for programs yet.').waitFor();

    // Made with the keyboard: the dialog opens on its first field.
    await page.getByRole('button', { name: 'New key' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New key for a program' });
    await dialog.waitFor();
    await page.keyboard.type('ci runner');
    await dialog.getByRole('checkbox', { name: /Rental API/ }).check();
    const ips = dialog.getByLabel('Allowed addresses (optional)');
    await ips.fill('127.0.0.1\nnot-an-address');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('"not-an-address" is not an IPv4 or IPv6 address or CIDR range.').waitFor();
    await ips.fill('127.0.0.1\n2001:DB8::/32');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await answerReauth(page, user.password);

    const shown = page.getByRole('dialog', { name: 'Your new key' });
    await shown.getByText(/you will not see it again/).waitFor();
    const key = ((await shown.getByTestId('new-api-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^sd_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    await shot(page, 'apikey-new-key');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });

    // Listed by its prefix, never in clear.
    const table = page.getByRole('table', { name: 'Your API keys' });
    const row = table.getByRole('row').filter({ hasText: 'ci runner' });
    await row.getByText(`${key.slice(0, 10)}…`).waitFor();
    await row.getByText('Rental API').waitFor();
    await row.getByText('127.0.0.1').waitFor();
    await row.getByText('2001:db8::/32').waitFor();
    await row.getByText('Not used yet').waitFor();
    expect(await page.content()).not.toContain(key);

    // The key works from here (127.0.0.1), for the rental API it may call.
    const res = await fetch(`${e.url}/api/v1/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ balance: 4, currency: 'USD' });
    await page.reload();
    await page
      .getByRole('table', { name: 'Your API keys' })
      .getByRole('row')
      .filter({ hasText: 'ci runner' })
      .getByText('Not used yet')
      .waitFor({ state: 'detached' });

    // A webhook URL hears only the events left checked; they are changed in a dialog.
    await page.getByLabel('Webhook URL').fill(hookUrl);
    const events = page.getByRole('group', { name: 'Events to send' });
    for (const name of [/Message received/, /Campaign finished/]) {
      await events.getByRole('checkbox', { name }).uncheck();
    }
    await page.getByRole('button', { name: 'Add URL' }).click();
    // The reload above forgot the page's re-authentication (it is kept in memory only): asked again.
    await answerReauth(page, user.password);
    const hooks = page.getByRole('list', { name: 'Webhooks' });
    await hooks.getByText(hookUrl).waitFor();
    await hooks
      .getByText('Events: Incoming code (rental), Message sent, Message delivered, Message failed')
      .waitFor();
    await page.getByRole('button', { name: `Choose the events for ${hookUrl}` }).click();
    const edit = page.getByRole('dialog', { name: 'Events for this URL' });
    await edit.getByRole('checkbox', { name: /Message sent/ }).uncheck();
    await edit.getByRole('checkbox', { name: /Message delivered/ }).uncheck();
    await edit.getByRole('button', { name: 'Save events' }).click();
    await edit.waitFor({ state: 'detached' });
    await hooks.getByText('Events: Incoming code (rental), Message failed').waitFor();
    const token = await e.token(user.username, user.password);
    const [listed] = (
      await e.api<{ webhooks: { url: string; events: string[] }[] }>('/api/user/webhooks', {}, token)
    ).body.webhooks;
    expect(listed).toMatchObject({ url: hookUrl, events: ['code.received', 'message.failed'] });

    // A delivery's event id is in the log, and it can be sent again.
    received.length = 0;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event delivered to 1 of 1 URL.').waitFor();
    const [delivery] = (
      await e.api<{ deliveries: { id: string; eventId: string }[] }>(
        '/api/user/webhooks/deliveries',
        {},
        token,
      )
    ).body.deliveries;
    const log = page.getByRole('table', { name: 'Webhook deliveries' });
    await log.getByText(delivery!.eventId).waitFor();
    await log.getByRole('button', { name: `Send delivery ${delivery!.id} again` }).click();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);

    // Scanned without the toasts (shared, and fading out while axe reads their colours).
    await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);
    await settle(page);
    expect(await axeFindings(page, 'apikey')).toEqual([]);
    await shot(page, 'apikey-keys-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await shot(page, 'apikey-keys-phone');
    // The dialog on a phone: a sheet from the bottom, every field reachable.
    await page.getByRole('button', { name: 'New key' }).click();
    const sheet = page.getByRole('dialog', { name: 'New key for a program' });
    await sheet.getByRole('button', { name: 'Create key' }).click();
    await sheet.getByText('Choose at least one scope.').waitFor();
    await settle(page);
    await shot(page, 'apikey-create-phone');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
