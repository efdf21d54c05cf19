import type { UserPayment } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const PENDING: UserPayment = {
  id: '11111111-2222-4333-8444-555555555555',
  amount: 25,
  status: 'PENDING',
  createdAt: '2026-03-04T05:06:07.000Z',
  url: '/sandbox/pay/sbx_1',
  cancelled: false,
};
const CANCELLED: UserPayment = {
  ...PENDING,
  id: '99999999-2222-4333-8444-555555555555',
  status: 'FAILED',
  cancelled: true,
};

type Answer = { status?: number; body: unknown };

function serve(routes: { cancel?: (id: string) => Answer; create?: () => Answer }) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  let items = [PENDING, CANCELLED];
  const fetch = mockFetch((path, init) => {
    if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
    if (path === '/api/Payments/options')
      return {
        body: { provider: 'sandbox', sandbox: true, minAmount: 10, maxAmount: 10_000, payCurrency: null },
      };
    if (path.startsWith('/api/Payments/history')) return { body: { items, page: 1, totalPages: 1 } };
    if (path === '/api/Payments/cancel') {
      const { id } = JSON.parse(String(init?.body)) as { id: string };
      const answer = routes.cancel?.(id) ?? { body: { code: 1, msg: 'cancelled' } };
      if ((answer.status ?? 200) === 200)
        items = items.map((p) => (p.id === id ? { ...p, status: 'FAILED', cancelled: true } : p));
      return answer;
    }
    if (path === '/api/Payments/create' && routes.create) return routes.create();
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
  return fetch;
}

/** The table row of a payment (its id cell carries the full id as a tooltip). */
const rowOf = async (id: string) => (await screen.findByTitle(id)).closest('tr')!;
const cancelCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([p]) => p === '/api/Payments/cancel');

describe('Top up: cancelling a pending invoice', () => {
  it('asks first; Keep it sends nothing; Cancel invoice cancels it and the row says CANCELLED', async () => {
    const fetch = serve({});
    renderApp('/topup');
    const row = await rowOf(PENDING.id);
    // A cancelled invoice reads as cancelled (not FAILED) and offers neither Pay Now nor Cancel.
    const cancelledRow = screen.getByTitle(CANCELLED.id).closest('tr')!;
    expect(within(cancelledRow).getByText('CANCELLED')).toBeTruthy();
    expect(within(cancelledRow).queryByRole('button', { name: /Cancel invoice/ })).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: /^Cancel invoice/ }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cancelCalls(fetch)).toHaveLength(0);

    fireEvent.click(within(row).getByRole('button', { name: /^Cancel invoice/ }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel invoice' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(String(cancelCalls(fetch)[0]?.[1]?.body))).toEqual({ id: PENDING.id });
    const after = (await screen.findByTitle(PENDING.id)).closest('tr')!;
    await waitFor(() => expect(within(after).getByText('CANCELLED')).toBeTruthy());
    expect(within(after).queryByRole('link', { name: /Pay invoice/ })).toBeNull();
  });

  it('back from the payment page, cancelling that invoice says so once: the notice, no toast', async () => {
    serve({});
    renderApp(`/topup?payment=${PENDING.id}`);
    const row = await rowOf(PENDING.id);
    // Toasts outlive a render: count this test's own.
    const toasts = () => screen.queryAllByText(/^Invoice .* was cancelled\.$/).length;
    const before = toasts();
    fireEvent.click(within(row).getByRole('button', { name: /^Cancel invoice/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel invoice' }));
    await screen.findByText('This invoice was cancelled. You can create a new invoice.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toasts()).toBeLessThanOrEqual(before);
  });

  it("shows the server's refusal inside the dialog and keeps it open", async () => {
    serve({
      cancel: () => ({
        status: 409,
        body: {
          code: 0,
          error: 'payment_not_cancellable',
          msg: 'Only an unpaid (pending) invoice can be cancelled.',
        },
      }),
    });
    renderApp('/topup');
    const row = await rowOf(PENDING.id);
    fireEvent.click(within(row).getByRole('button', { name: /^Cancel invoice/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel invoice' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Could not cancel the invoice: Only an unpaid (pending) invoice can be cancelled.',
    );
  });
});

describe('Top up: a failed invoice creation', () => {
  it('is said once, inline under the form (no toast repeating it)', async () => {
    serve({
      create: () => ({
        status: 409,
        body: {
          code: 0,
          error: 'too_many_open_invoices',
          msg: 'You already have 5 unpaid invoices. Pay or cancel one of them first.',
        },
      }),
    });
    renderApp('/topup');
    await rowOf(PENDING.id);
    fireEvent.click(screen.getByRole('button', { name: 'Create Invoice' }));
    const text =
      'Failed to create invoice: You already have 5 unpaid invoices. Pay or cancel one of them first.';
    expect(await screen.findByText(text)).toBeTruthy();
    // Give a toast the time to appear: it must not.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText(text)).toHaveLength(1);
  });
});

describe('Top up: the amount field', () => {
  it('is a money field: "$" in front, 10.00 to start, tidied on leaving it, the minimum still checked', async () => {
    const fetch = serve({});
    renderApp('/topup');
    const amount = (await screen.findByLabelText('Amount (USD)')) as HTMLInputElement;
    expect(amount.type).toBe('text');
    expect(amount.inputMode).toBe('decimal');
    expect(amount.parentElement?.textContent).toBe('$');
    expect(amount.value).toBe('10.00');
    fireEvent.change(amount, { target: { value: '12.5' } });
    fireEvent.blur(amount);
    expect(amount.value).toBe('12.50');
    fireEvent.change(amount, { target: { value: '9.99' } });
    const create = screen.getByRole('button', { name: 'Create Invoice' }) as HTMLButtonElement;
    await waitFor(() => expect(create.disabled).toBe(false));
    fireEvent.click(create);
    expect(await screen.findByText('The minimum top-up is 10 USD.')).toBeTruthy();
    expect(fetch.mock.calls.filter(([p]) => p === '/api/Payments/create')).toHaveLength(0);
  });
});
