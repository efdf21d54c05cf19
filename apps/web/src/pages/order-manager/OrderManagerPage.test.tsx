import type { AdminOrder } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import {
  claimsFor,
  clickTwiceQuickly,
  fakeToken,
  mockFetch,
  renderApp,
  userInfoFor,
} from '../../test/utils.tsx';

const admin = userInfoFor('root', ['Admin9']);

const order = (id: number, status: AdminOrder['status']): AdminOrder => ({
  id: String(id),
  gateway: 'gw-a',
  port: '1.01',
  username: 'ann',
  phoneNumber: `155500000${String(id).padStart(2, '0')}`,
  serviceCode: 'tg',
  serviceName: 'Telegram',
  codeText: status === 'SUCCESS' ? '12345' : null,
  status,
  createdAt: '2026-03-04T05:06:07.000Z',
});

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
  return mockFetch((path) => {
    if (path === '/api/user/info') return { body: admin };
    if (path === '/admin/orderfilter')
      return {
        body: {
          gateways: ['gw-a', 'gw-b'],
          statuses: ['WAIT_CODE', 'SUCCESS', 'CANCEL'],
          groupPipeline: [
            { gateway: 'gw-a', totalOrders: 10, successOrders: 7, successRate: 70 },
            { gateway: 'gw-b', totalOrders: 10, successOrders: 6, successRate: 60 },
          ],
        },
      };
    if (path.startsWith('/api/Admin/orders')) {
      const q = new URL(path, 'http://x').searchParams;
      const page = Number(q.get('page'));
      return {
        body: {
          items: [order(page * 10 + 1, 'SUCCESS'), order(page * 10 + 2, 'WAIT_CODE')],
          page,
          totalPages: q.get('status') ? 1 : 12,
          total: q.get('status') ? 2 : 1200,
        },
      };
    }
    if (path.startsWith('/api/Admin/inbox')) {
      const page = Number(new URL(path, 'http://x').searchParams.get('page'));
      const sms = {
        id: String(page),
        gateway: 'gw-a',
        port: '1.01',
        sender: `sender-p${page}`,
        text: 'hello',
        receivedAt: '2026-03-04T05:06:07.000Z',
        matched: false,
      };
      return { body: { items: [sms], page, totalPages: 4, total: 80 } };
    }
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

const orderCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([p]) => String(p)).filter((p) => p.startsWith('/api/Admin/orders'));

describe('Order Manager (docs/product.md#screens-and-routes)', () => {
  it('shows gateway stats, orders, the numbered pager; filters apply on Apply and go back to page 1', async () => {
    const fetch = serve();
    const { router } = renderApp('/ordermanager?page=2');
    await screen.findByRole('heading', { level: 1, name: 'Order Manager' });

    const stats = await screen.findByRole('table', { name: 'Orders and success rate per gateway' });
    expect((await within(stats).findByText('70.0%')).className).toMatch(/text-ok/);
    expect(within(stats).getByText('60.0%').className).toMatch(/text-bad/);

    const table = screen.getByRole('table', { name: 'Orders' });
    expect(await within(table).findByText('21')).toBeTruthy();
    expect(within(table).getByText('12345')).toBeTruthy();
    // The service by its name; its code only in the tooltip.
    expect(within(table).getAllByText('Telegram')[0]?.getAttribute('title')).toBe('tg');
    expect(within(table).queryByText('tg')).toBeNull();
    expect(within(table).getByText('-')).toBeTruthy();
    expect(orderCalls(fetch)[0]).toBe('/api/Admin/orders?page=2&pageSize=100');

    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pager).getByRole('button', { name: 'Go to page 2' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(pager).getByRole('button', { name: 'Go to page 12' })).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    expect(await within(table).findByText('31')).toBeTruthy();
    // Next twice in quick succession: two pages on, not the same page twice.
    await clickTwiceQuickly(router, () => within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=5'));

    const form = screen.getByRole('form', { name: 'Order filters' });
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'SUCCESS' } });
    fireEvent.change(within(form).getByLabelText('Phone'), { target: { value: ' 1555 ' } });
    expect(orderCalls(fetch).some((p) => p.includes('status='))).toBe(false);
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?phone=1555&status=SUCCESS'));
    await waitFor(() =>
      expect(orderCalls(fetch)).toContain(
        '/api/Admin/orders?page=1&pageSize=100&status=SUCCESS&phoneNumber=1555',
      ),
    );
    expect(await screen.findByText('2 orders')).toBeTruthy();
    expect(
      (
        within(screen.getByRole('form', { name: 'Order filters' })).getByLabelText(
          'Status',
        ) as HTMLSelectElement
      ).value,
    ).toBe('SUCCESS');
  });

  it('a long list: the total and the last page marked as estimates, and each page asked from the one on screen', async () => {
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
    const fetch = mockFetch((path) => {
      if (path === '/api/user/info') return { body: admin };
      if (path === '/admin/orderfilter') return { body: { gateways: [], statuses: [], groupPipeline: [] } };
      if (path.startsWith('/api/Admin/orders')) {
        const page = Number(new URL(path, 'http://x').searchParams.get('page'));
        return {
          body: {
            items: [order(page * 10 + 1, 'SUCCESS')],
            page,
            totalPages: 19980,
            total: 1998000,
            totalEstimated: true,
            firstCursor: `first-${page}`,
            lastCursor: `last-${page}`,
          },
        };
      }
      return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
    });
    const { router } = renderApp('/ordermanager');
    expect(await screen.findByText('≈ 1,998,000 orders')).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pager).getByRole('button', { name: 'Go to the last page (≈ 19,980)' }).textContent).toBe(
      '≈ 19,980',
    );
    fireEvent.click(within(pager).getByRole('button', { name: 'Go to page 4' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=4'));
    await waitFor(() =>
      expect(orderCalls(fetch)).toContain(
        '/api/Admin/orders?after=last-1&before=first-1&page=4&pageSize=100',
      ),
    );
    expect(await screen.findByText('41')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Prev' }));
    await waitFor(() =>
      expect(orderCalls(fetch)).toContain(
        '/api/Admin/orders?after=last-4&before=first-4&page=3&pageSize=100',
      ),
    );
  });

  it('keeps the Unmatched SMS page in the URL beside the orders’ page: ?smsPage=2 opens it, both move apart', async () => {
    const fetch = serve();
    const { router } = renderApp('/ordermanager?page=2&smsPage=2');
    const card = () => screen.getByRole('navigation', { name: 'Incoming SMS without an order' });
    await screen.findByText('sender-p2');
    await within(card()).findByText('Page 2 / 4');
    const inboxPages = () =>
      fetch.mock.calls
        .map(([p]) => String(p))
        .filter((p) => p.startsWith('/api/Admin/inbox'))
        .map((p) => new URL(p, 'http://x').searchParams.get('page'));
    expect(inboxPages()[0]).toBe('2');
    fireEvent.click(within(card()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2&smsPage=3'));
    await screen.findByText('sender-p3');
    // The orders' pager keeps the SMS page, and the SMS pager the orders' page.
    const orders = screen.getByRole('navigation', { name: 'Pagination' });
    fireEvent.click(within(orders).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('page')).toBe('3'));
    expect(new URLSearchParams(router.state.location.search).get('smsPage')).toBe('3');
    // Back: the SMS list's page before.
    void router.navigate(-1);
    void router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?page=2&smsPage=2'));
    await screen.findByText('sender-p2');
  });
});
