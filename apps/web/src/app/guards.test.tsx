import type { Role } from '@simdock/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../test/utils.tsx';
import { safeNextPath } from './guards.tsx';

const info = (username: string, roles: Role[]) => userInfoFor(username, roles, 1234.5);

describe('route guards and session (docs/product.md)', () => {
  it('a signed-out visit to a signed-in page lands on /login', async () => {
    const fetch = mockFetch(() => ({ body: {} }));
    const { router } = renderApp('/userinfo');
    expect(await screen.findByRole('heading', { name: 'Sign in to SimDock' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('/ goes to /login when signed out and to /dashboard when signed in', async () => {
    renderApp('/');
    await screen.findByRole('heading', { name: 'Sign in to SimDock' });
    cleanup();
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch(() => ({ body: info('ann', ['User']) }));
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('an expired token is removed and the user sent to /login', async () => {
    localStorage.setItem(
      TOKEN_KEY,
      fakeToken({ ...claimsFor('ann'), exp: Math.floor(Date.now() / 1000) - 5 }),
    );
    const fetch = mockFetch(() => ({ body: info('ann', ['User']) }));
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Sign in to SimDock' });
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('renders the shell and the page at once while the user info is on its way; the page’s calls do not wait for it', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    let answer: (v: Response) => void = () => {};
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    const fetch = vi.fn((input: string) =>
      input === '/api/user/info'
        ? new Promise<Response>((resolve) => (answer = resolve))
        : Promise.resolve(json(input === '/api/Order/getbyuser' ? { code: 1, orders: [] } : {})),
    );
    vi.stubGlobal('fetch', fetch);
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    const paths = () => fetch.mock.calls.map((c) => c[0]);
    await waitFor(() => expect(paths()).toContain('/api/Order/getbyuser'));
    expect(paths()).toContain('/api/user/info');
    const [, init] = fetch.mock.calls.find((c) => c[0] === '/api/user/info') as unknown as [
      string,
      RequestInit,
    ];
    expect((init.headers as Record<string, string>).authorization).toMatch(/^Bearer /);
    // No made-up balance while the user info is on its way.
    expect(screen.getByTestId('shell-balance').textContent).toBe('…');
    await act(async () => answer(json(info('ann', ['User']))));
    await waitFor(() => expect(screen.getByTestId('shell-username').textContent).toBe('ann'));
    expect(screen.getByTestId('shell-balance').textContent).toBe('$1,234.5000');
  });

  it('a signed-out visit to a deep link returns there after signing in; /login alone still leads home', async () => {
    const token = fakeToken(claimsFor('ann'));
    mockFetch((path) => {
      if (path === '/api/Auth/login') return { body: { token } };
      if (path === '/api/user/info') return { body: info('ann', ['User']) };
      return { body: { code: 1, orders: [], services: [] } };
    });
    const { router } = renderApp('/History?page=2');
    await screen.findByRole('heading', { name: 'Sign in to SimDock' });
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/History?page=2');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right-pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/History'));
    expect(router.state.location.search).toBe('?page=2');
  });

  it('never follows a `next` that leaves the app', () => {
    expect(safeNextPath('/History')).toBe('/History');
    expect(safeNextPath('/details/AA:BB?x=1#y')).toBe('/details/AA:BB?x=1#y');
    for (const bad of [
      null,
      '',
      'History',
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      '/login',
      '/login/',
      '/',
    ])
      expect(safeNextPath(bad), String(bad)).toBeUndefined();
  });

  it('a User visiting an admin page lands on /unauthorized and sees no admin items', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'User')));
    mockFetch(() => ({ body: info('ann', ['User']) }));
    const { router } = renderApp('/gatewaymanager');
    expect(await screen.findByRole('heading', { name: /don’t have access/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/unauthorized');
    await act(() => router.navigate('/dashboard'));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(screen.queryByRole('link', { name: 'Gateway Manager' })).toBeNull();
    expect(screen.getByRole('link', { name: 'User Info' })).toBeTruthy();
  });

  it('an Admin9 reaches admin pages and sees the admin items', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', ['Admin9', 'User'])));
    mockFetch(() => ({ body: info('root', ['Admin9', 'User']) }));
    const { router } = renderApp('/gatewaymanager');
    expect(await screen.findByRole('heading', { name: 'Gateway Manager', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/gatewaymanager');
    for (const name of ['User Manager', 'Service Manager', 'Order Manager', 'Payment Manager', 'Settings']) {
      expect(screen.getByRole('link', { name: new RegExp(`^${name}`) })).toBeTruthy();
    }
  });

  it('removing the token in another tab signs this tab out', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch(() => ({ body: info('ann', ['User']) }));
    const { router } = renderApp('/userinfo');
    await screen.findByRole('heading', { name: 'User Info', level: 1 });
    await act(async () => {
      localStorage.removeItem(TOKEN_KEY);
      window.dispatchEvent(new StorageEvent('storage', { key: TOKEN_KEY, oldValue: 'x', newValue: null }));
    });
    await screen.findByRole('heading', { name: 'Sign in to SimDock' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a 401 on the user info clears the session', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch(() => ({
      status: 401,
      body: { code: 0, error: 'unauthorized', msg: 'Please sign in again.' },
    }));
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Sign in to SimDock' });
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('/login sends a signed-in user to /dashboard', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch(() => ({ body: info('ann', ['User']) }));
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
