import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, orderFor, renderApp, userInfoFor } from '../../test/utils.tsx';

// 25 finished rentals, newest first: 3 pages of 10. Each row's number ends with its id.
const ORDERS = Array.from({ length: 25 }, (_, i) =>
  orderFor({
    id: String(25 - i),
    phoneNumber: `155500000${String(25 - i).padStart(2, '0')}`,
    status: 'SUCCESS',
    codeText: '123456',
    finished: true,
  }),
);

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  mockFetch((path) => {
    if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
    if (path === '/api/Service/getall') return { body: { code: 1, services: [] } };
    if (path === '/api/Order/getbyuser') return { body: { code: 1, orders: ORDERS } };
    if (path === '/api/Order/stats') return { body: { activeNumbers: 0, dailyRentals: 0, uptime: null } };
    return { body: { code: 1 } };
  });
}

const table = () => screen.getByRole('table', { name: 'My numbers' });
const pager = () => screen.getByRole('navigation', { name: 'My numbers' });

describe('Dashboard: “My numbers” pages', () => {
  it('keeps its page in the URL: ?page=2 opens page 2, Next and Back move it', async () => {
    serve();
    const { router } = renderApp('/dashboard?page=2');
    // Page 2: rentals 15 down to 6.
    await waitFor(() => expect(table().textContent).toContain('555-000-0015'), { timeout: 5000 });
    expect(table().textContent).not.toContain('555-000-0016');
    await within(pager()).findByText('Page 2 / 3');
    fireEvent.click(within(pager()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    await within(pager()).findByText('Page 3 / 3');
    expect(table().textContent).toContain('555-000-0005');
    void router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await within(pager()).findByText('Page 2 / 3');
    // Page 1 is the default: left out of the URL.
    fireEvent.click(within(pager()).getByRole('button', { name: 'Prev' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
