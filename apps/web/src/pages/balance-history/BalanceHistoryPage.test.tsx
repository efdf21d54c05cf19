import type { BalanceEntry } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const entry = (id: number, over: Partial<BalanceEntry>): BalanceEntry => ({
  id: String(id),
  createdAt: '2026-03-04T05:06:07.000Z',
  kind: 'topup',
  reference: null,
  amount: 10,
  balanceAfter: 10,
  ...over,
});

const ENTRIES: BalanceEntry[] = [
  entry(5, {
    kind: 'message_refund',
    amount: 0.0075,
    balanceAfter: 9.9775,
    reference: { type: 'campaign', campaignId: '7', messages: { first: '11', last: '11' } },
  }),
  entry(4, {
    kind: 'message_charge',
    amount: -0.0225,
    balanceAfter: 9.97,
    reference: { type: 'campaign', campaignId: '7', messages: null },
  }),
  entry(3, {
    kind: 'order_charge',
    amount: -0.5,
    balanceAfter: 9.9925,
    reference: { type: 'order', orderId: '42' },
  }),
  entry(2, { kind: 'admin_adjustment', amount: 0.4925, balanceAfter: 10.4925 }),
  entry(1, { kind: 'topup', amount: 10, balanceAfter: 10 }),
];

function serve(answer: (body: { page: number; pageSize: number }) => { status?: number; body: unknown }) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  return mockFetch((path, init) => {
    if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 9.9775) };
    if (path === '/api/user/balanceHistory') return answer(JSON.parse(String(init?.body ?? '{}')));
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

const rowsText = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('Balance history', () => {
  it('lists the entries newest first in words, with signed amounts and the balance after', async () => {
    serve(() => ({ body: { items: ENTRIES, total: 5 } }));
    renderApp('/balance');
    await screen.findByRole('heading', { level: 1, name: 'Balance history' });
    await screen.findByText('Messages refund');
    expect(rowsText().map((cells) => cells.slice(1))).toEqual([
      ['Messages refund', 'Campaign #7, message #11', '+$0.0075', '$9.9775'],
      // Four decimals in every row (formatMoney's rule for the ledger): never $9.97 beside $9.9775.
      ['Messages', 'Campaign #7', '-$0.0225', '$9.9700'],
      ['Rental', 'Order #42', '-$0.5000', '$9.9925'],
      ['Adjustment by an administrator', '—', '+$0.4925', '$10.4925'],
      ['Top-up', '—', '+$10.0000', '$10.0000'],
    ]);
    const amounts = screen.getAllByTestId('balance-amount');
    expect(amounts[0]!.className).toContain('text-ok');
    expect(amounts[1]!.className).toContain('text-bad');
    expect(screen.getByTestId('balance-current').textContent).toBe('Current balance: $9.9775');
    // The way to add money is one click away; the top bar's balance leads here.
    // (The page's own link, beside the sidebar's.)
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Top up' }).getAttribute('href')).toBe('/topup');
    expect(screen.getByTestId('shell-balance').getAttribute('href')).toBe('/balance');
  });

  it('pages through the ledger with the page size asked', async () => {
    const fetch = serve(({ page }) => ({
      body: { items: page === 1 ? ENTRIES.slice(0, 2) : ENTRIES.slice(2, 4), total: 45 },
    }));
    renderApp('/balance');
    await screen.findByText('Messages refund');
    expect(screen.getByText('Page 1 / 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Rental');
    const asked = fetch.mock.calls
      .filter(([p]) => String(p) === '/api/user/balanceHistory')
      .map(([, init]) => JSON.parse(String(init?.body)));
    expect(asked).toContainEqual({ page: 2, pageSize: 20 });
  });

  it('keeps the page and its size in the URL: a link with ?page=2 opens page 2, a change updates it', async () => {
    const fetch = serve(({ page }) => ({
      body: { items: page === 2 ? ENTRIES.slice(2, 4) : ENTRIES.slice(0, 2), total: 245 },
    }));
    const { router } = renderApp('/balance?page=2&size=50');
    await screen.findByText('Rental');
    expect(screen.getByText('Page 2 / 5')).toBeTruthy();
    const asked = () =>
      fetch.mock.calls
        .filter(([p]) => String(p) === '/api/user/balanceHistory')
        .map(([, init]) => JSON.parse(String(init?.body)));
    expect(asked()[0]).toEqual({ page: 2, pageSize: 50 });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3&size=50'));
    await waitFor(() => expect(asked()).toContainEqual({ page: 3, pageSize: 50 }));
    // A new size starts again at page 1 (the default, left out of the URL).
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '100' } });
    await waitFor(() => expect(router.state.location.search).toBe('?size=100'));
    // Back returns to the page before.
    void router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?page=3&size=50'));
    await screen.findByText('Page 3 / 5');
  });

  it('says so when there is nothing yet', async () => {
    serve(() => ({ body: { items: [], total: 0 } }));
    renderApp('/balance');
    await screen.findByText('No money movements yet. Top-ups, rentals and messages show here.');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('shows the failure with a way to try again, never the empty text', async () => {
    let fail = true;
    serve(() =>
      fail
        ? { status: 500, body: { code: 0, error: 'internal', msg: 'Server error' } }
        : { body: { items: ENTRIES.slice(0, 1), total: 1 } },
    );
    renderApp('/balance');
    // A server error is retried twice before the page gives up.
    await screen.findByText('Could not load your balance history', undefined, { timeout: 14_000 });
    expect(screen.queryByText(/No money movements yet/)).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /try again/i }));
    await waitFor(() => expect(screen.getByText('Messages refund')).toBeTruthy());
  }, 15_000);
});
