import type { AdminPayment } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const p: AdminPayment = {
  id: '0f0f0f0f-1111-4222-8333-444455556666',
  username: 'bob',
  amount: 20,
  amountReal: 19.5,
  status: 'DONE',
  gwStatus: 'partially_paid',
  createdAt: '2026-01-02T03:04:05.000Z',
  finishedAt: '2026-01-02T03:14:05.000Z',
  provider: 'sandbox',
  flag: null,
};

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  return mockFetch((path) => {
    if (path.startsWith('/api/Admin/payments'))
      return { body: { items: [p], page: 1, totalPages: 1, total: 1 } };
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: userInfoFor('ann', ['Admin9']) };
  });
}
const listQueries = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls
    .map(([path]) => String(path))
    .filter((path) => path.startsWith('/api/Admin/payments'))
    .map((path) => Object.fromEntries(new URL(path, 'http://x').searchParams));

describe('Payment Manager (/paymentmanager)', () => {
  it('shows statuses by name, no raw code even in a tooltip, and explains Amount Real', async () => {
    serve();
    renderApp('/paymentmanager');
    const table = await screen.findByRole('table', { name: 'Payments' });
    const row = (await within(table).findByText('bob')).closest('tr')!;
    expect(within(row).getByText('Credited')).toBeTruthy();
    expect(within(row).getByText('Partially paid')).toBeTruthy();
    expect(within(row).queryByText('partially_paid')).toBeNull();
    expect(row.querySelector('[title="DONE"], [title="partially_paid"]')).toBeNull();
    const header = within(table).getByRole('columnheader', { name: /Amount Real/ });
    expect(within(header).getByTestId('amount-real-header').getAttribute('title')).toMatch(
      /^What actually arrived, in USD/,
    );
  });

  it('names a top-up its owner cancelled "Cancelled", as the owner sees it (not "Failed")', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
    const cancelled: AdminPayment = { ...p, status: 'FAILED', gwStatus: 'cancelled_by_user', amountReal: 0 };
    mockFetch((path) => {
      if (path.startsWith('/api/Admin/payments'))
        return { body: { items: [cancelled], page: 1, totalPages: 1, total: 1 } };
      if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
      return { body: userInfoFor('ann', ['Admin9']) };
    });
    renderApp('/paymentmanager');
    const table = await screen.findByRole('table', { name: 'Payments' });
    const row = (await within(table).findByText('bob')).closest('tr')!;
    expect(within(row).getByText('Cancelled')).toBeTruthy();
    expect(within(row).getByText('Cancelled by the user')).toBeTruthy();
    expect(within(row).queryByText('Failed')).toBeNull();
    expect(within(row).queryByText('cancelled_by_user')).toBeNull();
  });

  it('searches by user or invoice id, filters by status and days, all kept in the URL', async () => {
    const fetch = serve();
    const { router } = renderApp('/paymentmanager?q=bob&status=DONE&from=2026-01-01&page=2');
    await screen.findByRole('table', { name: 'Payments' });
    await waitFor(() =>
      expect(listQueries(fetch)[0]).toEqual({
        page: '2',
        pageSize: '100',
        search: 'bob',
        status: 'DONE',
        from: '2026-01-01',
      }),
    );
    expect((screen.getByLabelText('Search payments') as HTMLInputElement).value).toBe('bob');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('DONE');
    fireEvent.change(screen.getByLabelText('Search payments'), { target: { value: ' 0f0f0f ' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=0f0f0f&from=2026-01-01&to=2026-01-31'));
    await waitFor(() =>
      expect(listQueries(fetch).at(-1)).toEqual({
        page: '1',
        pageSize: '100',
        search: '0f0f0f',
        from: '2026-01-01',
        to: '2026-01-31',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
