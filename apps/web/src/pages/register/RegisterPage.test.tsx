import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp } from '../../test/utils.tsx';

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));

describe('Register form (docs/product.md)', () => {
  it('shows the required messages under the fields', async () => {
    const fetch = mockFetch(() => ({ body: {} }));
    renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    submit();
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    expect(field('Username').getAttribute('aria-invalid')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the format, length and mismatch messages', async () => {
    mockFetch(() => ({ body: {} }));
    renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    type('Username', 'ab');
    type('Email', 'not-an-email');
    type('Password', 'short');
    type('Confirm password', 'different');
    submit();
    expect(
      await screen.findByText('Username must be 3-16 characters, letters, numbers, or underscores'),
    ).toBeTruthy();
    expect(screen.getByText('Email is invalid')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
  });

  it('lower-cases username and email as typed, registers, then signs in with the username filled in', async () => {
    const fetch = mockFetch(() => ({ body: { code: 1, msg: 'Registration successful. Please Login.' } }));
    const { router } = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    type('Username', 'New_User');
    type('Email', 'New@Example.COM');
    expect(field('Username').value).toBe('new_user');
    type('Password', 'password-123');
    type('Confirm password', 'password-123');
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Registration successful. Please Login.')).toBeTruthy();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Auth/register');
    expect(JSON.parse(String(init.body))).toEqual({
      username: 'new_user',
      email: 'new@example.com',
      passwordHash: 'password-123',
    });
    // The sign-in form: the new username filled in, the password to type (it has the focus).
    const username = (await screen.findByLabelText('Username')) as HTMLInputElement;
    expect(username.value).toBe('new_user');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
  });

  it("shows the server's message under the form", async () => {
    mockFetch(() => ({
      status: 409,
      body: { code: 0, error: 'conflict', msg: 'This username is taken.', field: 'username' },
    }));
    renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    type('Username', 'taken');
    type('Email', 'taken@example.com');
    type('Password', 'password-123');
    type('Confirm password', 'password-123');
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain('This username is taken.');
  });
});
