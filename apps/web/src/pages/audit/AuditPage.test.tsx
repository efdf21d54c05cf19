import type { AuditEntry } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const entry: AuditEntry = {
  id: 'a1',
  at: '2026-01-02T03:04:05.000Z',
  actorId: 'id-ann',
  actorName: 'ann',
  kind: 'gateway.update',
  targetId: 'g1',
  targetLabel: 'Rack A',
  before: { isEnable: true, name: 'Rack A' },
  after: { isEnable: false, name: 'Rack A', brandNewField: 'x' },
};

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  return mockFetch((path) => {
    if (path === '/api/Admin/audit')
      return { body: { code: 1, entries: [entry], total: 1, page: 1, totalPages: 1 } };
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: userInfoFor('ann', ['Admin9']) };
  });
}

const auditBodies = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls
    .filter(([p]) => p === '/api/Admin/audit')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

describe('Audit Log (/audit)', () => {
  it('names actions, fields and values for people, with no raw code even in a tooltip', async () => {
    serve();
    renderApp('/audit');
    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    const action = await within(table).findByText('Gateway edited');
    expect(action.getAttribute('title')).toBeNull();
    const field = within(table).getByText('Enabled');
    expect(field.getAttribute('title')).toBeNull();
    expect(field.closest('li')?.textContent).toBe('Enabled: Yes → No');
    // A field without a name yet reads as words, not as its code.
    expect(within(table).getByText('Brand new field')).toBeTruthy();
    expect(within(table).queryByText('brandNewField')).toBeNull();
    expect(within(table).queryByText('gateway.update')).toBeNull();
    expect(screen.getByRole('option', { name: 'Balance changed' })).toBeTruthy();
  });

  it('keeps the filters and page in the URL; a reload asks for the same entries', async () => {
    const fetch = serve();
    const { router } = renderApp('/audit?actor=bob&kind=user.balance&from=2026-01-01&page=3');
    await screen.findByRole('table', { name: 'Audit log entries' });
    await waitFor(() =>
      expect(auditBodies(fetch)[0]).toEqual({
        actor: 'bob',
        kind: 'user.balance',
        from: '2026-01-01',
        page: 3,
      }),
    );
    expect((screen.getByLabelText('Who (username)') as HTMLInputElement).value).toBe('bob');
    // The day in the app's date format, in a text field (a native date field shows the browser's).
    const from = screen.getByLabelText('From') as HTMLInputElement;
    expect([from.type, from.value]).toEqual(['text', '2026-01-01']);
    fireEvent.change(screen.getByLabelText('Who (username)'), { target: { value: 'carol' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?actor=carol&kind=user.balance&from=2026-01-01'),
    );
    // Back: the earlier filters again.
    await router.navigate(-1);
    await waitFor(
      () => expect((screen.getByLabelText('Who (username)') as HTMLInputElement).value).toBe('bob'),
      { timeout: 14_000 },
    );
  }, 15_000);
});
