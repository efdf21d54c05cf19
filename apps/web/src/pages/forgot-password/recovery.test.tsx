import { EMAIL_MAX, FORGOT_NEUTRAL_MESSAGE, PASSWORD_MAX, RESET_LINK_INVALID } from '@simdock/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp } from '../../test/utils.tsx';

const neutral = (mailEnabled: boolean, mailMode = mailEnabled ? 'smtp' : 'off') => ({
  body: {
    code: 1,
    msg: FORGOT_NEUTRAL_MESSAGE,
    mailEnabled,
    mailMode,
    supportContact: 'Write to ops@example.com.',
  },
});

describe('password recovery pages', () => {
  it('opens from the sign-in page, sends the lower-cased login and shows the neutral answer', async () => {
    const bodies: unknown[] = [];
    mockFetch((path, init) => {
      if (path === '/api/Auth/forgot') {
        bodies.push(JSON.parse(String(init?.body)));
        return neutral(true);
      }
      return { body: {} };
    });
    const { router } = renderApp('/login');
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot your password?' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    const input = await screen.findByLabelText('Username or email');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('Enter your username or email');
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: ' Alice@Example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText(/If an account matches, we have sent a link/);
    expect(bodies).toEqual([{ login: 'alice@example.com' }]);
    // The first render loads the login and public chunks: slower than the rest.
  }, 20_000);

  it('holds the login to the contract limit: a longer one is refused under the field, nothing sent', async () => {
    const bodies: unknown[] = [];
    mockFetch((path, init) => {
      if (path === '/api/Auth/forgot') bodies.push(JSON.parse(String(init?.body)));
      return path === '/api/Auth/forgot' ? neutral(true) : { body: {} };
    });
    renderApp('/forgot-password');
    const input = await screen.findByLabelText('Username or email');
    expect(input.getAttribute('maxlength')).toBe(String(EMAIL_MAX));
    // A paste or an autofill can go past maxlength: the body schema still refuses it.
    fireEvent.change(input, { target: { value: `${'a'.repeat(EMAIL_MAX)}@x` } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText(`Username or email must be at most ${EMAIL_MAX} characters.`);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(bodies).toEqual([]);
  });

  it('shows the operator contact when the server sends no mail', async () => {
    mockFetch((path) => (path === '/api/Auth/forgot' ? neutral(false) : { body: {} }));
    renderApp('/forgot-password');
    fireEvent.change(await screen.findByLabelText('Username or email'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('Write to ops@example.com.');
    screen.getByText('This server cannot send email.');
  });

  it('says no email was sent and where the link is when the server keeps mails in its outbox', async () => {
    mockFetch((path) => (path === '/api/Auth/forgot' ? neutral(true, 'outbox') : { body: {} }));
    renderApp('/forgot-password');
    fireEvent.change(await screen.findByLabelText('Username or email'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('No email was sent: mail is not set up on this server.');
    screen.getByText(/kept in the server’s mail outbox, which an administrator can see/);
    expect(screen.queryByText(/we have sent a link/)).toBeNull();
    expect(screen.queryByText(/Check your email/)).toBeNull();
  });

  it('asks for the new password twice, then sends the user to sign in with a success message', async () => {
    const bodies: unknown[] = [];
    mockFetch((path, init) => {
      if (path === '/api/Auth/reset') {
        bodies.push(JSON.parse(String(init?.body)));
        return { body: { code: 1, msg: 'ok' } };
      }
      if (path === '/api/Auth/resetCheck') return { body: { code: 1, msg: 'ok' } };
      return { body: {} };
    });
    const { router } = renderApp('/reset-password?token=abc_123');
    const password = await screen.findByLabelText('New password');
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByText('Password must be at least 8 characters');
    fireEvent.change(password, { target: { value: 'long-enough-1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'long-enough-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByText('Passwords do not match');
    expect(bodies).toEqual([]);
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await screen.findByText('Your password was changed. Sign in with the new one.');
    expect(bodies).toEqual([{ token: 'abc_123', password: 'long-enough-1' }]);
  });

  it('says under each empty field what it needs, focuses the first and sends nothing', async () => {
    const calls: string[] = [];
    mockFetch((path) => {
      calls.push(path);
      return path === '/api/Auth/resetCheck' ? { body: { code: 1, msg: 'ok' } } : { body: {} };
    });
    renderApp('/reset-password?token=abc_123');
    const password = await screen.findByLabelText('New password');
    expect(password.getAttribute('maxlength')).toBe(String(PASSWORD_MAX));
    expect(screen.getByLabelText('Confirm new password').getAttribute('maxlength')).toBe(
      String(PASSWORD_MAX),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByText('Password is required');
    screen.getByText('Please confirm your password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    fireEvent.change(password, { target: { value: 'x'.repeat(PASSWORD_MAX + 1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByText(`Password must be at most ${PASSWORD_MAX} characters`);
    expect(calls).not.toContain('/api/Auth/reset');
  });

  it('checks the link on load: a dead one says so at once, with no form to fill and nothing used', async () => {
    const calls: { path: string; body: unknown }[] = [];
    mockFetch((path, init) => {
      calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return path === '/api/Auth/resetCheck'
        ? { status: 400, body: { code: 0, error: 'bad_input', msg: RESET_LINK_INVALID, field: 'token' } }
        : { body: {} };
    });
    renderApp('/reset-password?token=expired_1');
    await screen.findByText(RESET_LINK_INVALID);
    screen.getByRole('link', { name: 'Ask for a new link' });
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(calls.filter((c) => c.path.startsWith('/api/Auth/'))).toEqual([
      { path: '/api/Auth/resetCheck', body: { token: 'expired_1' } },
    ]);
  });

  it('says a dead link is dead and offers a new one', async () => {
    mockFetch((path) =>
      path === '/api/Auth/reset'
        ? { status: 400, body: { code: 0, error: 'bad_input', msg: RESET_LINK_INVALID, field: 'token' } }
        : path === '/api/Auth/resetCheck'
          ? { body: { code: 1, msg: 'ok' } }
          : { body: {} },
    );
    renderApp('/reset-password?token=used');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'long-enough-1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByText(RESET_LINK_INVALID);
    screen.getByRole('link', { name: 'Ask for a new link' });
  });
});
