import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

afterEach(() => localStorage.clear());

describe('User Info', () => {
  it('names the roles ("Administrator"), never by their code ("Admin9")', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', ['Admin9', 'User'])));
    mockFetch(() => ({ body: userInfoFor('ann', ['Admin9', 'User']) }));
    renderApp('/userinfo');
    const details = await screen.findByTestId('user-details');
    await within(details).findByText('Administrator');
    expect(within(details).getByText('User')).toBeTruthy();
    expect(within(details).queryByText('Admin9')).toBeNull();
  });
});
