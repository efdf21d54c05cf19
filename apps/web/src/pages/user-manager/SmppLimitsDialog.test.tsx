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
  secondFactor: false,
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

const current = { code: 1, userId: bob.id, ratePerSecond: 30, bindLimit: 2, custom: false };

/** The row menu's "SMPP limits" (in the table: jsdom renders the phone cards too). */
async function openLimits(): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Users' });
  const row = (await within(table).findByText('bob')).closest('tr')!;
  fireEvent.keyDown(within(row).getByRole('button', { name: /^More actions/ }), { key: 'Enter' });
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: 'SMPP limits' }));
  return screen.findByRole('dialog', { name: 'SMPP limits of bob' });
}

describe('User Manager (/usermanager): SMPP limits', () => {
  it('shows the current values, refuses bad ones without a call, and saves the new ones', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getUser': () => ({ body: list }),
      '/api/Admin/smppLimits': () => ({ body: current }),
      '/api/Admin/setSmppLimits': (body) => {
        saved.push(body);
        return { body: { ...current, ratePerSecond: body.ratePerSecond, bindLimit: body.bindLimit } };
      },
    });
    renderApp('/usermanager');
    const dialog = await openLimits();
    const rate = within(dialog).getByLabelText(/Messages per second/) as HTMLInputElement;
    const binds = within(dialog).getByLabelText(/Bind limit/) as HTMLInputElement;
    await waitFor(() => expect(rate.value).toBe('30'));
    expect(binds.value).toBe('2');

    fireEvent.change(rate, { target: { value: '0' } });
    fireEvent.change(binds, { target: { value: '11' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a whole number from 1 to 1000.')).toBeTruthy();
    expect(within(dialog).getByText('Enter a whole number from 1 to 10.')).toBeTruthy();
    expect(saved).toEqual([]);

    fireEvent.change(rate, { target: { value: '5' } });
    fireEvent.change(binds, { target: { value: '1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved).toEqual([{ userId: bob.id, ratePerSecond: 5, bindLimit: 1 }]);
  }, 20_000);

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    signInAdmin({
      '/api/Admin/getUser': () => ({ body: list }),
      '/api/Admin/smppLimits': () => ({ body: current }),
      '/api/Admin/setSmppLimits': () => ({
        status: 404,
        body: { code: 0, error: 'user_not_found', msg: 'User not found.' },
      }),
    });
    renderApp('/usermanager');
    const dialog = await openLimits();
    const rate = within(dialog).getByLabelText(/Messages per second/) as HTMLInputElement;
    await waitFor(() => expect(rate.value).toBe('30'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('User not found.');
    expect(screen.getByRole('dialog', { name: 'SMPP limits of bob' })).toBeTruthy();
  }, 20_000);
});
