import type { Role } from '@simdock/contract';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../test/utils.tsx';

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

  it('shows the loading view until the user info arrives, then the shell with username and balance', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    let answer: (v: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    renderApp('/dashboard');
    expect(await screen.findByText('Loading…')).toBeTruthy();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/info');
    expect((init.headers as Record<string, string>).authorization).toMatch(/^Bearer /);
    await act(async () => answer(new Response(JSON.stringify(info('ann', ['User'])), { status: 200 })));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByTestId('shell-username').textContent).toBe('ann');
    expect(screen.getByTestId('shell-balance').textContent).toBe('$1,234.50');
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
