import type { AdminUser, AdminUserListResponse } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import {
  claimsFor,
  clickTwiceQuickly,
  fakeToken,
  mockFetch,
  renderApp,
  userInfoFor,
} from '../../test/utils.tsx';

const admin = userInfoFor('ann', ['Admin9']);

const bob: AdminUser = {
  id: '0b0b0b0b-0000-4000-8000-000000000001',
  username: 'bob',
  email: 'bob@example.com',
  roles: ['User'],
  status: 'Active',
  balance: 0,
  createdAt: '2026-01-02T03:04:05.000Z',
  secondFactor: true,
};

const list: AdminUserListResponse = {
  code: 1,
  users: [bob],
  total: 1,
  page: 1,
  totalPages: 1,
  stats: { totalUsers: 1, activeUsers: 1, totalBalance: 0, newUsers7d: 0 },
};

type Handler = (body: Record<string, unknown>) => { status?: number; body: unknown };

/** A signed-in admin and a fake server answering the given paths (and the session's own calls). */
function signInAdmin(routes: Record<string, Handler>) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  return mockFetch((path, init) => {
    const route = routes[path];
    if (route) return route(init?.body ? JSON.parse(String(init.body)) : {});
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    if (path === '/api/Admin/audit')
      return { body: { code: 1, entries: [], total: 0, page: 1, totalPages: 1 } };
    return { body: admin };
  });
}

/** The table is shown on wide screens and cards below; jsdom renders both, so look in the table. */
async function openReset(username: string): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Users' });
  const row = (await within(table).findByText(username)).closest('tr')!;
  fireEvent.keyDown(within(row).getByRole('button', { name: /^More actions/ }), { key: 'Enter' });
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: 'Reset two-factor' }));
  return screen.findByRole('dialog', { name: 'Reset two-factor' });
}

describe('User Manager (/usermanager): reset two-factor', () => {
  it('is offered only on an account that has two-factor on', async () => {
    const carol: AdminUser = {
      ...bob,
      id: '0c0c0c0c-0000-4000-8000-000000000003',
      username: 'carol',
      email: 'carol@example.com',
      secondFactor: false,
    };
    signInAdmin({ '/api/Admin/getUser': () => ({ body: { ...list, users: [bob, carol], total: 2 } }) });
    renderApp('/usermanager');
    const table = await screen.findByRole('table', { name: 'Users' });
    /** The row's actions: its buttons, and the items of its "More actions" menu when it has one. */
    const items = async (username: string) => {
      const row = (await within(table).findByText(username)).closest('tr')!;
      const names = within(row)
        .getAllByRole('button')
        .map((b) => b.textContent ?? '');
      const more = within(row).queryByRole('button', { name: /^More actions/ });
      if (!more) return names;
      fireEvent.keyDown(more, { key: 'Enter' });
      const menu = await screen.findByRole('menu');
      names.push(
        ...within(menu)
          .getAllByRole('menuitem')
          .map((m) => m.textContent ?? ''),
      );
      fireEvent.keyDown(menu, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      return names;
    };
    expect(await items('carol')).not.toContain('Reset two-factor');
    expect(await items('bob')).toContain('Reset two-factor');
  }, 20_000);

  // The refusal first: sonner's toasts outlive a test, and this one checks that none appeared.
  it("shows the server's refusal in the dialog (a user without the factor) and keeps it open", async () => {
    signInAdmin({
      '/api/Admin/getUser': () => ({ body: list }),
      '/api/Admin/resetSecondFactor': () => ({
        status: 409,
        body: {
          code: 0,
          error: 'second_factor_state',
          msg: 'This user has no two-factor authentication.',
        },
      }),
    });
    renderApp('/usermanager');
    const dialog = await openReset('bob');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This user has no two-factor authentication.',
    );
    expect(screen.getByRole('dialog', { name: 'Reset two-factor' })).toBeTruthy();
    expect(screen.queryByText('Two-factor authentication was reset.')).toBeNull();
  }, 20_000);

  it('asks first, sends the user id, and says so in a toast; Cancel sends nothing', async () => {
    const resets: unknown[] = [];
    signInAdmin({
      '/api/Admin/getUser': () => ({ body: list }),
      '/api/Admin/resetSecondFactor': (body) => {
        resets.push(body);
        return { body: { code: 1, msg: 'Two-factor authentication was reset.' } };
      },
    });
    renderApp('/usermanager');

    let dialog = await openReset('bob');
    expect(
      within(dialog).getByText(
        'Turn off two-factor authentication for bob? They will sign in with the password alone.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(resets).toEqual([]);

    dialog = await openReset('bob');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
    expect(await screen.findByText('Two-factor authentication was reset.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(resets).toEqual([{ id: bob.id }]);
  }, 20_000);
});

const ann: AdminUser = {
  ...bob,
  id: '0a0a0a0a-0000-4000-8000-000000000002',
  username: 'ann',
  roles: ['Admin9'],
};
const bodiesOf = (fetch: ReturnType<typeof mockFetch>, path: string) =>
  fetch.mock.calls
    .filter(([p]) => p === path)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

describe('User Manager (/usermanager): list, URL, rows', () => {
  it('keeps search, sort and page in the URL; a reload asks for the same list', async () => {
    const fetch = signInAdmin({ '/api/Admin/getUser': () => ({ body: { ...list, users: [bob, ann] } }) });
    const { router } = renderApp('/usermanager?q=bo&sort=balance&dir=desc&page=2&size=100');
    await screen.findByRole('table', { name: 'Users' });
    expect((screen.getByRole('searchbox', { name: 'Search users' }) as HTMLInputElement).value).toBe('bo');
    await waitFor(() =>
      expect(bodiesOf(fetch, '/api/Admin/getUser')[0]).toEqual({
        search: 'bo',
        sort: 'balance',
        dir: 'desc',
        page: 2,
        pageSize: 100,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Email' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=bo&sort=email&size=100'));
    await waitFor(() =>
      expect(bodiesOf(fetch, '/api/Admin/getUser').at(-1)).toMatchObject({
        sort: 'email',
        dir: 'asc',
        page: 1,
      }),
    );
  }, 20_000);

  it('a second click on a header right after the first sorts descending (the URL has rendered by then)', async () => {
    signInAdmin({ '/api/Admin/getUser': () => ({ body: { ...list, users: [bob, ann] } }) });
    const { router } = renderApp('/usermanager');
    await screen.findByRole('table', { name: 'Users' });
    await clickTwiceQuickly(router, () => screen.getByRole('button', { name: 'Sort by Balance' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=balance&dir=desc'));
  }, 20_000);

  it("names roles for people, and offers no Delete on one's own row", async () => {
    signInAdmin({ '/api/Admin/getUser': () => ({ body: { ...list, users: [ann, bob] } }) });
    renderApp('/usermanager');
    const table = await screen.findByRole('table', { name: 'Users' });
    const own = (await within(table).findByText('ann')).closest('tr')!;
    expect(within(own).getByText('Administrator')).toBeTruthy();
    expect(own.querySelector('[title="Admin9"]')).toBeNull();
    expect(within(own).queryByRole('button', { name: /Delete/ })).toBeNull();
    // Nor in its menu (Reset two-factor and SMPP limits are there).
    fireEvent.keyDown(within(own).getByRole('button', { name: /^More actions/ }), { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: /Delete/ })).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'SMPP limits' })).toBeTruthy();
    fireEvent.keyDown(menu, { key: 'Escape' });
    const other = within(table).getByText('bob').closest('tr')!;
    expect(within(other).getByRole('button', { name: /Delete/ })).toBeTruthy();
  }, 20_000);

  it('asks to select at least one role; a created user shows where the current sort puts it', async () => {
    let users = [bob];
    const fetch = signInAdmin({
      '/api/Admin/getUser': () => ({ body: { ...list, users } }),
      '/api/Admin/updateUser': () => {
        const carl = { ...bob, id: '0c0c0c0c-0000-4000-8000-000000000003', username: 'carl', balance: 5 };
        // The server sorts: by balance, descending, carl comes first.
        users = [carl, bob];
        return { body: { code: 1, msg: 'User carl created.', user: carl } };
      },
    });
    renderApp('/usermanager?sort=balance&dir=desc');
    await screen.findByRole('table', { name: 'Users' });
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'carl' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'carl@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'password-123' } });
    fireEvent.click(within(dialog).getByLabelText('User'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Select at least one role')).toBeTruthy();
    expect(bodiesOf(fetch, '/api/Admin/updateUser')).toEqual([]);
    fireEvent.click(within(dialog).getByLabelText('User'));
    fireEvent.change(within(dialog).getByLabelText('Balance'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('User carl added.');
    const table = screen.getByRole('table', { name: 'Users' });
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('row')
          .map((r) => (r as HTMLTableRowElement).cells[0]?.textContent),
      ).toEqual(['Username', 'carl', 'bob']),
    );
    expect(bodiesOf(fetch, '/api/Admin/getUser').at(-1)).toMatchObject({ sort: 'balance', dir: 'desc' });
  }, 20_000);

  it('comes back by itself when the server is back after an outage', async () => {
    let up = false;
    signInAdmin({
      '/api/Admin/getUser': () =>
        up ? { body: list } : { status: 503, body: { code: 0, error: 'unavailable', msg: 'Restarting.' } },
    });
    renderApp('/usermanager');
    await screen.findByRole('heading', { level: 1, name: /User Manager/ });
    // From here on the clock can be moved: the retries and the recovery poll are set up after this.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await vi.advanceTimersByTimeAsync(4_000);
      expect(await screen.findByText('Could not load users')).toBeTruthy();
      up = true;
      // No click on Retry: the page asks again by itself.
      await vi.advanceTimersByTimeAsync(11_000);
      const table = await screen.findByRole('table', { name: 'Users' });
      expect(await within(table).findByText('bob')).toBeTruthy();
      expect(screen.queryByText('Could not load users')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);

  it('shows one card per user on a phone, with its actions inside the card', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width: 639.98px'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    signInAdmin({ '/api/Admin/getUser': () => ({ body: { ...list, users: [ann, bob] } }) });
    renderApp('/usermanager');
    const cards = await screen.findByRole('list', { name: 'Users' });
    expect(screen.queryByRole('table', { name: 'Users' })).toBeNull();
    const bobCard = within(cards).getByText('bob').closest('li')!;
    expect(within(bobCard).getByRole('button', { name: /Edit/ })).toBeTruthy();
    expect(within(bobCard).getByRole('button', { name: /Delete/ })).toBeTruthy();
  }, 20_000);
});
