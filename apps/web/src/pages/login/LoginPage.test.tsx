import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

// The login form is hand-rolled (no form library on the login route, see the JS budget): it must still
// behave like the other forms.
describe('login form', () => {
  it('shows the required-field errors on submit, focuses the first, and clears them as the user types', async () => {
    const fetch = mockFetch(() => ({ status: 500, body: {} }));
    renderApp('/login');
    const username = await screen.findByLabelText('Username');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByText('Username is required');
    screen.getByText('Password is required');
    expect(document.activeElement).toBe(username);
    expect(username.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(username, { target: { value: 'Alice' } });
    expect((username as HTMLInputElement).value).toBe('alice');
    expect(screen.queryByText('Username is required')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('signs in with the lower-cased username and lands on the dashboard; a refusal shows the server message', async () => {
    const token = fakeToken(claimsFor('alice'));
    const bodies: unknown[] = [];
    mockFetch((path, init) => {
      if (path === '/api/Auth/login') {
        const body = JSON.parse(String(init?.body)) as { password: string };
        bodies.push(body);
        return body.password === 'right-pass'
          ? { body: { token } }
          : { status: 401, body: { code: 0, error: 'unauthorized', msg: 'Invalid username or password' } };
      }
      if (path === '/api/user/info') return { body: userInfoFor('alice', ['User']) };
      return { body: { code: 1, data: [] } };
    });
    const { router } = renderApp('/login');
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'ALICE ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByText('Invalid username or password');

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right-pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToken()).toBe(token);
    expect(bodies).toEqual([
      { username: 'alice', password: 'wrong-pass' },
      { username: 'alice', password: 'right-pass' },
    ]);
  });

  it('tabs Username → Password → Sign In, then "Forgot your password?" (DOM order, no tabindex jumps)', async () => {
    mockFetch(() => ({ status: 500, body: {} }));
    renderApp('/login');
    const username = await screen.findByLabelText('Username');
    const form = username.closest('form')!;
    const focusable = [
      ...form.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea'),
    ].filter((el) => !el.hasAttribute('disabled') && el.tabIndex >= 0);
    expect(focusable.map((el) => el.tabIndex).every((i) => i === 0)).toBe(true);
    expect(focusable.map((el) => el.getAttribute('name') ?? el.textContent)).toEqual([
      'username',
      'password',
      'Sign In',
      'Forgot your password?',
    ]);
    expect(focusable[1]).toBe(screen.getByLabelText('Password'));
    expect(focusable[2]).toBe(screen.getByRole('button', { name: 'Sign In' }));
  });
});
