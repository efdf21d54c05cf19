import { DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, startE2E } from './harness.ts';

// Dialogs and menus usable by keyboard alone. Every interaction below goes through
// page.keyboard (Tab, Shift+Tab, Enter, Space, arrows, Escape, typing): no clicks. Pages are opened
// by URL, as a keyboard user would type it. At each step the test checks where the focus is: inside
// the open dialog or menu, back on the opener once it closes, and visibly marked.

let e: E2E;
beforeAll(async () => {
  e = await startE2E({ env: { DEMO: 'true' } });
});
afterAll(async () => {
  await e?.close();
});

interface Focus {
  tag: string;
  /** aria-label, else the text, else the value. */
  name: string;
  id: string;
  role: string;
  /** Inside an open dialog (role=dialog), and its accessible name. */
  dialog: string | null;
  /** Inside an open menu (role=menu). */
  inMenu: boolean;
  inMain: boolean;
  /** In <main id="main"> or after it in the document (past the header and the navigation). */
  afterMain: boolean;
  /** The text of the table row holding it. */
  row: string;
  /** A focus indicator is drawn: a non-none outline or a ring (box-shadow) on it or its wrapper, or the menu's highlight. */
  indicated: boolean;
  /** Rendered with a size (not the visually hidden state). */
  shown: boolean;
}

// A string expression: the e2e code is typechecked without the DOM library.
const FOCUS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const label = (n) => (n.getAttribute('aria-label') || (n.textContent || '').trim() || n.value || '').replace(/\\s+/g, ' ');
  const drawn = (n) => {
    if (!n) return false;
    const s = getComputedStyle(n);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow && s.boxShadow !== 'none');
  };
  const dialog = el.closest('[role="dialog"]');
  let dialogName = null;
  if (dialog) {
    const by = dialog.getAttribute('aria-labelledby');
    dialogName = dialog.getAttribute('aria-label') || (by && document.getElementById(by)?.textContent) || '';
  }
  const r = el.getBoundingClientRect();
  return {
    tag: el.tagName.toLowerCase(),
    name: label(el),
    id: el.id,
    role: el.getAttribute('role') || '',
    dialog: dialogName,
    inMenu: Boolean(el.closest('[role="menu"]')),
    inMain: Boolean(el.closest('main')),
    afterMain: (() => {
      const main = document.getElementById('main');
      return Boolean(main && (main.contains(el) || main.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
    })(),
    row: (el.closest('tr')?.textContent || '').replace(/\\s+/g, ' '),
    indicated: drawn(el) || drawn(el.parentElement) || el.hasAttribute('data-highlighted'),
    shown: r.width > 2 && r.height > 2,
  };
})()`;

async function focus(page: Page): Promise<Focus | null> {
  return (await page.evaluate(FOCUS)) as Focus | null;
}

/** Presses Tab (Shift+Tab with `back`) until the focused element's name matches; returns it. */
async function tabTo(
  page: Page,
  name: RegExp,
  opts: { back?: boolean; max?: number; where?: (f: Focus) => boolean } = {},
): Promise<Focus> {
  const seen: string[] = [];
  for (let i = 0; i < (opts.max ?? 120); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const f = await focus(page);
    if (f && name.test(f.name) && (!opts.where || opts.where(f))) return f;
    seen.push(f ? `${f.tag}:${f.name.slice(0, 30)}` : '(body)');
  }
  throw new Error(`Tab never reached ${name}; visited: ${seen.join(' | ')}`);
}

/** Tab `n` times (then Shift+Tab `n` times): the focus never leaves the dialog named `dialog`. */
async function expectTrapped(page: Page, dialog: RegExp, n = 25) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < n; i++) {
      await page.keyboard.press(key);
      const f = await focus(page);
      expect(f?.dialog ?? '(outside)', `${key} #${i + 1} left the dialog: ${f?.tag} ${f?.name}`).toMatch(
        dialog,
      );
      expect(f?.indicated, `no visible focus on ${f?.tag} "${f?.name}"`).toBe(true);
    }
  }
}

/** Waits for the open menu and the focus inside it. */
async function menuOpen(page: Page) {
  await page.getByRole('menu').waitFor();
  await expect.poll(async () => (await focus(page))?.inMenu).toBe(true);
}

/** Radix moves the focus for arrow keys in a timeout (roving focus): wait for it to land. */
async function focusLands(page: Page, name: string): Promise<Focus | null> {
  await expect.poll(async () => (await focus(page))?.name).toBe(name);
  return focus(page);
}

async function dialogGone(page: Page, name: string | RegExp) {
  await page.getByRole('dialog', { name }).waitFor({ state: 'detached' });
}

describe('keyboard alone', () => {
  it('skip link: the first Tab on a page reaches it, Enter moves the focus to the content', async () => {
    const page = await e.newPage();
    // Public pages (the landing page, the legal pages) and the signed-in shell.
    for (const path of ['/home', '/terms', '/dashboard']) {
      if (path === '/dashboard') await loginWithToken(page, e, DEMO_USER);
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.keyboard.press('Tab');
      const skip = await focus(page);
      expect(skip?.name, path).toBe('Skip to content');
      expect(skip?.shown, `${path}: the focused skip link is visible`).toBe(true);
      expect(skip?.indicated, path).toBe(true);
      await page.keyboard.press('Enter');
      expect((await focus(page))?.id, path).toBe('main');
      await page.keyboard.press('Tab');
      // The next Tab goes on from there (the legal pages have no link in their text: the footer's).
      expect((await focus(page))?.afterMain, `${path}: the next Tab is past the header`).toBe(true);
    }
  }, 60_000);

  it('User Manager: add (form dialog filled and submitted), edit (trap, Esc, focus back), delete confirm', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, ADMIN);
    await page.goto('/usermanager');
    await page.getByRole('heading', { level: 1, name: 'User Manager' }).waitFor();
    await page.getByRole('table', { name: 'Users', exact: true }).getByRole('row').nth(1).waitFor();

    // Open "Add User" with Enter: the focus lands on the first field.
    const opener = await tabTo(page, /^Add User$/);
    expect(opener.indicated).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add User' }).waitFor();
    let f = await focus(page);
    expect(f?.dialog).toBe('Add User');
    expect(f?.tag).toBe('input');
    // Fill it with the keyboard and submit with Enter.
    await page.keyboard.type('kbuser');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kbuser@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('password-123');
    f = await tabTo(page, /^Staff$/, { max: 10, where: (x) => x.dialog === 'Add User' });
    await page.keyboard.press('Space');
    expect(await page.getByRole('dialog').getByLabel('Staff').isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    await dialogGone(page, 'Add User');
    await page.getByRole('cell', { name: 'kbuser', exact: true }).waitFor();
    // The focus is back on the opener.
    await expect.poll(async () => (await focus(page))?.name).toBe('Add User');

    // Edit the new user: Space opens it, Tab and Shift+Tab stay inside, Esc closes, focus returns.
    await tabTo(page, /^Edit$/, { where: (x) => x.row.includes('kbuser@example.com') });
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: 'Edit User' }).waitFor();
    expect((await focus(page))?.dialog).toBe('Edit User');
    await expectTrapped(page, /^Edit User$/);
    await page.keyboard.press('Escape');
    await dialogGone(page, 'Edit User');
    await expect.poll(async () => (await focus(page))?.name).toBe('Edit');
    f = await focus(page);
    expect(f?.name).toBe('Edit');
    expect(f?.row).toContain('kbuser@example.com');

    // Delete it: the confirmation opens on Cancel (the safe choice); Tab to Delete, Enter.
    await tabTo(page, /^Delete$/, { where: (x) => x.row.includes('kbuser@example.com') });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete user' }).waitFor();
    f = await focus(page);
    expect(f?.dialog).toBe('Delete user');
    expect(f?.name).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect((await focus(page))?.name).toBe('Delete');
    await page.keyboard.press('Enter');
    await dialogGone(page, 'Delete user');
    await page.getByRole('cell', { name: 'kbuser', exact: true }).waitFor({ state: 'detached' });
  }, 90_000);

  it('Gateway Manager: the add dialog and a row action menu (arrows, Enter, Esc), its edit dialog', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, ADMIN);
    await page.goto('/gatewaymanager');
    await page.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
    await page
      .getByRole('button', { name: /^More actions/ })
      .first()
      .waitFor();

    await tabTo(page, /^Add Gateway$/);
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: 'Add Gateway' }).waitFor();
    expect((await focus(page))?.dialog).toBe('Add Gateway');
    await expectTrapped(page, /^Add Gateway$/, 15);
    await page.keyboard.press('Escape');
    await dialogGone(page, 'Add Gateway');
    await expect.poll(async () => (await focus(page))?.name).toBe('Add Gateway');

    // The row's "More actions" menu: Enter opens it on the first item, arrows move, Esc closes.
    const trigger = await tabTo(page, /^More actions/);
    expect(trigger.indicated).toBe(true);
    await page.keyboard.press('Enter');
    await menuOpen(page);
    let f = await focus(page);
    expect(f?.inMenu).toBe(true);
    expect(f?.name).toBe('Details');
    expect(f?.indicated).toBe(true);
    await page.keyboard.press('ArrowDown');
    f = await focusLands(page, 'Edit');
    expect(f?.indicated).toBe(true);
    await page.keyboard.press('ArrowUp');
    await focusLands(page, 'Details');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focus(page))?.name).toBe(trigger.name);

    // ArrowDown opens it too; Enter on "Edit" opens the edit dialog; Esc returns to the trigger.
    await page.keyboard.press('ArrowDown');
    await menuOpen(page);
    await focusLands(page, 'Details');
    await page.keyboard.press('ArrowDown');
    await focusLands(page, 'Edit');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: /^Edit Gateway/ }).waitFor();
    f = await focus(page);
    expect(f?.dialog).toMatch(/^Edit Gateway/);
    await page.keyboard.press('Escape');
    await dialogGone(page, /^Edit Gateway/);
    // The focus is back on the menu button.
    await expect.poll(async () => (await focus(page))?.name).toBe(trigger.name);

    // Space opens it as well.
    await page.keyboard.press('Space');
    await page.getByRole('menu').waitFor();
    expect((await focus(page))?.inMenu).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
  }, 90_000);

  it('top bar: the notifications panel and the language switch', async () => {
    const page = await e.newPage();
    await loginWithToken(page, e, DEMO_USER);
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    const bell = await tabTo(page, /^Notifications/);
    expect(bell.indicated).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect((await focus(page))?.dialog).not.toBeNull();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focus(page))?.name).toMatch(/^Notifications/);

    // The language switch (a native select): arrows choose, the page follows, and back.
    const lang = await tabTo(page, /^Language: /);
    expect(lang.tag).toBe('select');
    expect(lang.indicated, 'the switch shows the focus').toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.getByRole('heading', { level: 1, name: 'Bảng điều khiển' }).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  }, 60_000);

  it('a User: the API key confirmation (Esc keeps the key, Enter deletes) and the tabs of SMS Sending', async () => {
    const user = await e.createUser();
    const page = await e.newPage();
    await loginWithToken(page, e, user);
    await page.goto('/apikey');
    await page.getByRole('heading', { level: 1, name: 'API Key Management' }).waitFor();
    await page.getByText('No Apikey').waitFor();

    await tabTo(page, /^New API Key$/);
    await page.keyboard.press('Enter');
    // A new key asks for the password first: the dialog takes the focus, Enter confirms.
    const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
    await reauth.waitFor();
    expect((await focus(page))?.dialog).toBe('Confirm it is you');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await reauth.waitFor({ state: 'detached' });
    await page.getByText('API key created').waitFor();
    const del = await tabTo(page, /^Delete API Key$/);
    expect(del.indicated).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete API Key' }).waitFor();
    let f = await focus(page);
    expect(f?.dialog).toBe('Delete API Key');
    expect(f?.name, 'the safe choice has the focus').toBe('Cancel');
    await expectTrapped(page, /^Delete API Key$/, 6);
    await page.keyboard.press('Escape');
    await dialogGone(page, 'Delete API Key');
    await expect.poll(async () => (await focus(page))?.name).toBe('Delete API Key');
    expect(await page.getByText('No Apikey').count()).toBe(0);
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: 'Delete API Key' }).waitFor();
    f = await tabTo(page, /^Delete API Key$/, { max: 4, where: (x) => x.dialog !== null });
    expect(f.tag).toBe('button');
    await page.keyboard.press('Enter');
    await dialogGone(page, 'Delete API Key');
    await page.getByText('No Apikey').waitFor();

    // Tabs (Radix): the arrows move between them and show the chosen panel.
    await page.goto('/SMS_SendingPage');
    await page.getByRole('heading', { level: 1, name: /^SMS Sending/ }).waitFor();
    const tab = await tabTo(page, /^Input Number$/, { where: (x) => x.role === 'tab' });
    expect(tab.indicated).toBe(true);
    await page.keyboard.press('ArrowRight');
    f = await focusLands(page, 'Upload File');
    expect(f?.role).toBe('tab');
    expect(f?.indicated).toBe(true);
    await page.getByRole('tabpanel', { name: 'Upload File' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('tabpanel', { name: 'Input Number' }).waitFor();
  }, 60_000);

  it('phone width: the navigation drawer and the chat list open, trap the focus, close with Esc', async () => {
    const page = await e.newPage({ viewport: { width: 390, height: 844 } });
    await loginWithToken(page, e, DEMO_USER);
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    const opener = await tabTo(page, /^Open menu$/);
    expect(opener.indicated).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Main navigation' }).waitFor();
    expect((await focus(page))?.dialog).toBe('Main navigation');
    await expectTrapped(page, /^Main navigation$/, 30);
    await page.keyboard.press('Escape');
    await dialogGone(page, 'Main navigation');
    await expect.poll(async () => (await focus(page))?.name).toBe('Open menu');

    // Space opens it again; Tab to "Chat" and Enter: the page changes and the drawer closes.
    await page.keyboard.press('Space');
    await page.getByRole('dialog', { name: 'Main navigation' }).waitFor();
    await tabTo(page, /^Chat/, { max: 30 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await dialogGone(page, 'Main navigation');

    // The chat's conversation list is a slide-over panel here: opened, trapped, closed, focus back.
    await tabTo(page, /^Conversations/, { max: 40 });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Conversations' }).waitFor();
    expect((await focus(page))?.dialog).toBe('Conversations');
    await expectTrapped(page, /^Conversations$/, 8);
    await page.keyboard.press('Escape');
    await dialogGone(page, 'Conversations');
    await expect.poll(async () => (await focus(page))?.name).toMatch(/^Conversations/);
  }, 60_000);
});
