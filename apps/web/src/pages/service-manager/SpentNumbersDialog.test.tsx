import type { SpentNumbersResponse } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/utils.tsx';
import { type Answer, calls, serveAdmin, tg } from './test-fixtures.ts';

const spent: SpentNumbersResponse = {
  code: 1,
  serviceId: tg.id,
  reuseLimit: 3,
  total: 3,
  numbers: [
    { phoneNumber: '15550000001', reason: 'code', at: '2026-01-02T10:00:00.000Z', rentals: 1, mark: null },
    { phoneNumber: '15550000002', reason: 'limit', at: '2026-01-02T09:00:00.000Z', rentals: 4, mark: null },
    {
      phoneNumber: '15550000003',
      reason: 'admin',
      at: '2026-01-01T08:00:00.000Z',
      rentals: 0,
      mark: { reason: 'Banned by Telegram', markedBy: 'root', markedAt: '2026-01-01T08:00:00.000Z' },
    },
  ],
};

/** The service list with Telegram, its spent numbers and the mark/unmark calls; `overrides` first. */
const serve = (overrides: Record<string, Answer> = {}) =>
  serveAdmin([tg], {
    '/api/service/spentCounts': { body: { code: 1, counts: [{ serviceId: tg.id, spent: 3 }] } },
    '/api/service/spentNumbers': { body: spent },
    '/api/service/markSpent': { body: { code: 1, msg: 'ok' } },
    '/api/service/unmarkSpent': { body: { code: 1, msg: 'ok' } },
    '/api/service/returnToPool': { body: { code: 1, msg: 'ok' } },
    '/api/service/returnAllToPool': { body: { code: 1, msg: 'ok', returned: 1 } },
    ...overrides,
  });

async function openDialog() {
  renderApp('/servicemanager');
  const table = await screen.findByRole('table', { name: 'Services' });
  expect(within(table).getByRole('columnheader', { name: 'Spent numbers' })).toBeTruthy();
  fireEvent.click(await within(table).findByRole('button', { name: 'Spent numbers of Telegram: 3' }));
  return screen.findByRole('dialog', { name: 'Spent numbers — Telegram' });
}

describe('Service Manager: spent numbers', () => {
  it('returns a number spent by the reuse limit to the pool after a confirmation; all of them too', async () => {
    const fetch = serve();
    const dialog = await openDialog();
    const list = await within(dialog).findByRole('table', { name: 'Spent numbers' });
    const row = (n: string) => within(list).getByText(n).closest('tr')!;
    // A number with a code can never go back; an admin's mark is undone instead.
    expect(within(row('+1 555-000-0001')).queryByRole('button', { name: /pool/ })).toBeNull();
    expect(within(row('+1 555-000-0003')).queryByRole('button', { name: /pool/ })).toBeNull();
    fireEvent.click(
      within(row('+1 555-000-0002')).getByRole('button', { name: 'Return +1 555-000-0002 to the pool' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Return +1 555-000-0002 to the pool?' });
    expect(calls(fetch, '/api/service/returnToPool')).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Return to pool' }));
    await waitFor(() =>
      expect(calls(fetch, '/api/service/returnToPool')).toEqual([
        { serviceId: tg.id, phoneNumber: '15550000002' },
      ]),
    );
    expect(await screen.findByText('+1 555-000-0002 is back in the pool of Telegram.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Return all spent by the reuse limit' }));
    const all = await screen.findByRole('dialog', { name: 'Return every number spent by the reuse limit?' });
    fireEvent.click(within(all).getByRole('button', { name: 'Return all spent by the reuse limit' }));
    await waitFor(() => expect(calls(fetch, '/api/service/returnAllToPool')).toEqual([{ serviceId: tg.id }]));
    expect(await screen.findByText('1 numbers are back in the pool of Telegram.')).toBeTruthy();
  });

  it('lists every spent number with why, and undoes only admin marks', async () => {
    const fetch = serve();
    const dialog = await openDialog();
    expect(await within(dialog).findByText(/more than 3 times/)).toBeTruthy();
    const list = await within(dialog).findByRole('table', { name: 'Spent numbers' });
    // Numbers shown as people read them (the raw digits stay on the cell).
    const row = (n: string) => within(list).getByText(n).closest('tr')!;
    expect(within(list).getByText('+1 555-000-0001').getAttribute('data-value')).toBe('15550000001');
    expect(within(row('+1 555-000-0001')).getByText('Received a code')).toBeTruthy();
    expect(within(row('+1 555-000-0002')).getByText('Reuse limit reached (4 empty rentals)')).toBeTruthy();
    expect(within(row('+1 555-000-0003')).getByText('Marked by root: Banned by Telegram')).toBeTruthy();
    expect(within(row('+1 555-000-0001')).queryByRole('button')).toBeNull();
    // Spent by the reuse limit: Return to pool (tested below); no Undo mark.
    expect(within(row('+1 555-000-0002')).queryByRole('button', { name: /Undo/ })).toBeNull();
    fireEvent.click(
      within(row('+1 555-000-0003')).getByRole('button', { name: 'Undo the mark on +1 555-000-0003' }),
    );
    await waitFor(() =>
      expect(calls(fetch, '/api/service/unmarkSpent')).toEqual([
        { serviceId: tg.id, phoneNumber: '15550000003' },
      ]),
    );
    expect(await screen.findByText('The mark on +1 555-000-0003 is removed.')).toBeTruthy();
  });

  it('checks the number and the reason before marking, then sends them cleaned', async () => {
    const fetch = serve();
    const dialog = await openDialog();
    const mark = within(dialog).getByRole('button', { name: 'Mark spent' });
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: 'abc' } });
    fireEvent.click(mark);
    expect(
      await within(dialog).findByText('Enter the phone number as digits, for example 12025550123.'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Enter a reason (at most 200 characters).')).toBeTruthy();
    expect(calls(fetch, '/api/service/markSpent')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Phone number'), {
      target: { value: '+1 (555) 000-0009' },
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Banned  ' } });
    fireEvent.click(mark);
    await waitFor(() =>
      expect(calls(fetch, '/api/service/markSpent')).toEqual([
        { serviceId: tg.id, phoneNumber: '+15550000009', reason: 'Banned' },
      ]),
    );
    expect(await screen.findByText('+1 555-000-0009 is marked spent for Telegram.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Phone number') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal under the field it names", async () => {
    const msg = 'Enter the phone number as digits, for example 12025550123.';
    serve({
      '/api/service/markSpent': {
        status: 400,
        body: { code: 0, error: 'bad_input', msg: 'Number refused by the server.', field: 'phoneNumber' },
      },
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: '15550000009' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark spent' }));
    expect(await within(dialog).findByText('Number refused by the server.')).toBeTruthy();
    expect(within(dialog).queryByText(msg)).toBeNull();
  });
});
