import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.ts';
import { I18nProvider, loadLanguage, translateIn } from '../i18n/index.tsx';
import { failureText } from '../lib/errors.ts';
import { DataTable } from './DataTable.tsx';
import { OrderStatusBadge } from './OrderStatusBadge.tsx';
import { EmptyState, ErrorState, QueryState } from './StateViews.tsx';

const wrap = (ui: ReactNode, lang: 'en' | 'vi' = 'en') =>
  render(<I18nProvider initial={lang}>{ui}</I18nProvider>);
const t = (key: Parameters<typeof translateIn>[1], p?: Record<string, string | number>) =>
  translateIn('en', key, p);

// Vietnamese is loaded on demand in the app.
beforeAll(() => loadLanguage('vi'));

describe('failureText', () => {
  it('turns a lost connection into plain words and keeps the server’s own message', () => {
    expect(failureText(new ApiError('Failed to fetch', 0), t)).toBe(
      'No connection to the server. Check your connection and try again.',
    );
    // As the client builds it: the message is the server's msg as the user reads it (English here).
    expect(failureText(new ApiError('Code taken.', 409, 'conflict', undefined, 'Code taken.'), t)).toBe(
      'Code taken.',
    );
    expect(failureText(new ApiError('Bad Gateway', 502), t)).toBe(
      'The server had a problem answering. Try again in a moment.',
    );
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(failureText(new ApiError('Failed to fetch', 0), t)).toMatch(/^You are offline/);
    online.mockRestore();
  });
});

describe('ErrorState and EmptyState', () => {
  it('ErrorState: what failed, why in plain words, and a Retry that stays busy until done', async () => {
    let finish: () => void = () => {};
    const onRetry = vi.fn(() => new Promise<void>((r) => (finish = r)));
    wrap(<ErrorState title="Load failed" error={new ApiError('Failed to fetch', 0)} onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Load failed');
    expect(alert.textContent).toContain('No connection to the server.');
    expect(alert.textContent).not.toContain('Failed to fetch');
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect((screen.getByText('Trying again…').closest('button') as HTMLButtonElement).disabled).toBe(true);
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy());
  });

  it('EmptyState shows the text and the next step, and is not an alert', () => {
    wrap(
      <EmptyState title="No gateways found. Please add one." action={<button type="button">Add</button>} />,
    );
    expect(screen.getByText('No gateways found. Please add one.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('QueryState', () => {
  const base = { data: undefined, error: null, isError: false, isPending: true, refetch: vi.fn() };
  const view = (q: typeof base | Record<string, unknown>) =>
    wrap(
      <QueryState
        // biome-ignore lint/suspicious/noExplicitAny: partial query objects for the test
        query={q as any}
        errorTitle="Overview failed"
        isEmpty={(d: string[]) => d.length === 0}
        empty={<p>Nothing yet</p>}
        loading={<p>Loading rows</p>}
      >
        {(d: string[]) => <p>{d.join(',')}</p>}
      </QueryState>,
    );

  it('loading, then error (never the empty text), then empty, then content', () => {
    const { unmount } = view(base);
    expect(screen.getByText('Loading rows')).toBeTruthy();
    unmount();
    const failed = view({ ...base, isPending: false, isError: true, error: new ApiError('x', 500) });
    expect(screen.getByRole('alert').textContent).toContain('Overview failed');
    expect(screen.queryByText('Nothing yet')).toBeNull();
    failed.unmount();
    const empty = view({ ...base, isPending: false, data: [] });
    expect(screen.getByText('Nothing yet')).toBeTruthy();
    empty.unmount();
    view({ ...base, isPending: false, data: ['a', 'b'] });
    expect(screen.getByText('a,b')).toBeTruthy();
  });
});

describe('DataTable states', () => {
  const columns = [{ key: 'name', header: 'Name', cell: (r: { id: string }) => r.id }];
  it('a failure shows the error with Retry and never the empty text', () => {
    const onRetry = vi.fn();
    wrap(
      <DataTable
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        emptyText="No services found"
        error={new ApiError('Failed to fetch', 0)}
        errorTitle="The services could not be loaded"
        onRetry={onRetry}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The services could not be loaded');
    expect(screen.queryByText('No services found')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('on phones (phoneCards) each row is a card with labelled fields', () => {
    const mq = vi.fn((query: string) => ({
      matches: query.includes('max-width'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    vi.stubGlobal('matchMedia', mq);
    wrap(
      <DataTable
        phoneCards
        columns={[...columns, { key: 'price', header: 'Price', cell: () => '$1.00' }]}
        rows={[{ id: 'Telegram' }]}
        rowKey={(r) => r.id}
        caption="Services"
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const card = screen.getByRole('list', { name: 'Services' });
    expect(card.textContent).toContain('Telegram');
    expect(screen.getByText('Price').tagName).toBe('DT');
  });
});

describe('OrderStatusBadge', () => {
  it('shows the friendly, translated name and keeps the colour', () => {
    const { unmount } = wrap(<OrderStatusBadge status="WAIT_CODE" />);
    expect(screen.getByText('Waiting for code').className).toContain('text-warn');
    unmount();
    wrap(<OrderStatusBadge status="SUCCESS" />, 'vi');
    expect(screen.getByText('Đã nhận mã').className).toContain('text-ok');
  });
});
