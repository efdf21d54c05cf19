import { SERVICE_DEFAULTS } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/utils.tsx';
import { calls, serveAdmin, tg } from './test-fixtures.ts';

describe('Service Manager (docs/product.md)', () => {
  it('lists services with the spec columns and filters them as one types', async () => {
    serveAdmin([tg, { ...tg, id: '2', name: 'Google', code: 'go', description: '', isEnable: false }]);
    const { router } = renderApp('/servicemanager');
    await screen.findByRole('heading', { level: 1, name: 'Service Manager' });
    const table = await screen.findByRole('table', { name: 'Services' });
    for (const h of ['Name', 'Code', 'Price', 'Stock', 'Available', 'Rent (min)', 'Repeatable', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: h })).toBeTruthy();
    }
    const row = within(table).getByText('Telegram').closest('tr')!;
    expect(within(row).getByText('$0.50')).toBeTruthy();
    expect(within(row).getByText('(\\d{5})')).toBeTruthy();
    expect(within(row).getByText('No')).toBeTruthy();
    expect(within(within(table).getByText('Google').closest('tr')!).getByText('Disabled')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search services'), { target: { value: 'LOGIN' } });
    await waitFor(() => expect(within(table).queryByText('Google')).toBeNull());
    expect(within(table).getByText('Telegram')).toBeTruthy();
    // The search is in the URL: a reload or Back shows the same list.
    expect(router.state.location.search).toBe('?q=LOGIN');
    fireEvent.change(screen.getByLabelText('Search services'), { target: { value: 'zzz' } });
    expect(await within(table).findByText('No services found')).toBeTruthy();
  });

  it('validates before sending, then creates with the coerced values', async () => {
    const created = { ...tg, id: '3', name: 'Viber', code: 'vb', price: 1 };
    const fetch = serveAdmin([], { '/api/service/update': { body: created } });
    renderApp('/servicemanager');
    await screen.findByText('No services found');
    fireEvent.click(screen.getByRole('button', { name: 'Add Service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Service' });
    const price = within(dialog).getByLabelText('Price (USD)') as HTMLInputElement;
    expect(price.value).toBe('1.00');
    // The shared money field: a decimal keyboard, no float spinner, amounts tidied on leaving it.
    expect([price.type, price.inputMode]).toEqual(['text', 'decimal']);
    fireEvent.change(price, { target: { value: '2.5' } });
    fireEvent.blur(price);
    expect(price.value).toBe('2.50');
    expect((within(dialog).getByLabelText('Rent time (minutes)') as HTMLInputElement).value).toBe('20');
    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '0' } });
    fireEvent.change(within(dialog).getByLabelText('Pattern'), { target: { value: '(\\d' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Price must be > 0')).toBeTruthy();
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('Code is required')).toBeTruthy();
    expect(within(dialog).getByText(/^Pattern is not a valid regular expression/)).toBeTruthy();
    expect(calls(fetch, '/api/service/update')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Viber ' } });
    fireEvent.change(within(dialog).getByLabelText('Code'), { target: { value: 'vb' } });
    fireEvent.change(within(dialog).getByLabelText('Price (USD)'), { target: { value: '1' } });
    fireEvent.change(within(dialog).getByLabelText('Pattern'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByLabelText('Repeatable'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Service "Viber" created.')).toBeTruthy();
    expect(calls(fetch, '/api/service/update')).toEqual([
      {
        name: 'Viber',
        code: 'vb',
        description: '',
        price: 1,
        stock: SERVICE_DEFAULTS.stock,
        rentTimeMinutes: 20,
        pattern: '\\d{4,8}',
        textContains: '',
        isRepeatable: true,
        isEnable: true,
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(calls(fetch, '/api/Service/getall').length).toBe(2));
  });

  it('shows a duplicate code under the Code field', async () => {
    const msg = 'A service with code "tg" already exists.';
    serveAdmin([tg], {
      '/api/service/update': { status: 409, body: { code: 0, error: 'conflict', msg, field: 'code' } },
    });
    renderApp('/servicemanager');
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Telegram' })).getByRole('button', {
        name: 'Edit',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Service' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Telegram');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText(msg)).toBeTruthy();
    expect(within(dialog).getByLabelText('Code').getAttribute('aria-invalid')).toBe('true');
  });

  it("asks before deleting and shows the server's refusal", async () => {
    const msg = 'This service has orders and cannot be deleted; disable it instead to stop new rentals.';
    const fetch = serveAdmin([tg], {
      '/api/service/delete': { status: 409, body: { code: 0, error: 'conflict', msg } },
    });
    renderApp('/servicemanager');
    fireEvent.click(
      within(await screen.findByRole('group', { name: 'Actions for Telegram' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete service' });
    expect(within(dialog).getByText('Delete service "Telegram"?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(msg)).toBeTruthy();
    expect(calls(fetch, '/api/service/delete')).toEqual([{ service: tg.id }]);
  });
});
