import type { AdminUser, AdminUserListResponse } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const admin = userInfoFor('ann', ['Admin9']);

const bob: AdminUser = {
  id: '0b0b0b0b-0000-4000-8000-000000000001',
  username: 'bob',
  email: 'bob@example.com',
  roles: ['User'],
  status: 'Active',
  balance: 0,
  createdAt: '2026-01-02T03:04:05.000Z',
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
