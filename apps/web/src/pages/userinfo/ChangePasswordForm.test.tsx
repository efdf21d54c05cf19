import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const WRONG = 'The old password is not correct.';

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  return mockFetch((path) => {
    if (path === '/api/user/info') return { body: userInfoFor('ann', ['User']) };
    if (path === '/api/user/changepass')
      return { status: 400, body: { code: 0, error: 'bad_input', msg: WRONG, field: 'oldPass' } };
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

async function failOnce() {
  renderApp('/userinfo');
  const form = await screen.findByRole('form', { name: 'Change password' });
  const type = (label: string, value: string) =>
    fireEvent.change(within(form).getByLabelText(label), { target: { value } });
  type('Old password', 'not-my-password');
  type('New password', 'A-much-better-pass-42');
  type('Confirm new password', 'A-much-better-pass-42');
  fireEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
  expect(await within(form).findByText(WRONG)).toBeTruthy();
  return { form, type };
}

describe('User info: a failed password change says so only for its own attempt', () => {
  it('a next attempt the form refuses before sending no longer shows the old refusal', async () => {
    serve();
    const { form, type } = await failOnce();
    type('Confirm new password', 'something-else');
    // The field edit alone already clears it; submitting shows only the new attempt's problem.
    fireEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(within(form).queryByText(WRONG)).toBeNull());
  });

  it('editing the old password clears the refusal', async () => {
    serve();
    const { form, type } = await failOnce();
    type('Old password', 'my-real-password');
    await waitFor(() => expect(within(form).queryByText(WRONG)).toBeNull());
  });

  it('a success is said once, in the form (no toast as well)', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
    mockFetch((path) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User']) };
      if (path === '/api/user/changepass')
        return {
          body: { code: 1, msg: 'Password changed successfully!', token: fakeToken(claimsFor('ann')) },
        };
      return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
    });
    renderApp('/userinfo');
    const form = await screen.findByRole('form', { name: 'Change password' });
    const type = (label: string, value: string) =>
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });
    type('Old password', 'my-old-password-1');
    type('New password', 'A-much-better-pass-42');
    type('Confirm new password', 'A-much-better-pass-42');
    fireEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('Password changed successfully!')).toBeTruthy();
    expect(screen.getAllByText('Password changed successfully!')).toHaveLength(1);
  });
});
