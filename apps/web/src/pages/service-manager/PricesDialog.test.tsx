import { COUNTRY_CODE_MESSAGE, type ServiceCountryPrice } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';
import { sortedPrices } from './PricesDialog.tsx';
import { calls, tg } from './test-fixtures.ts';

/** The admin's Service Manager with a service whose prices the stub keeps as the calls change them. */
function serveGrid(start: ServiceCountryPrice[]) {
  let prices = start;
  const grid = () => ({ body: { code: 1, serviceId: tg.id, price: tg.price, prices } });
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
  return mockFetch((path, init) => {
    if (path === '/api/user/info') return { body: userInfoFor('root', ['Admin9']) };
    if (path === '/api/Service/getall') return { body: { code: 1, services: [tg] } };
    if (path === '/api/service/prices') return grid();
    if (path === '/api/service/setPrice') {
      const b = JSON.parse(String(init?.body)) as {
        country: string;
        operator?: string | null;
        price: unknown;
      };
      // The server knows which codes are countries: XX is none.
      if (b.country === 'XX')
        return {
          status: 400,
          body: { code: 0, error: 'bad_input', field: 'country', msg: COUNTRY_CODE_MESSAGE },
        };
      const same = (p: ServiceCountryPrice) => p.country === b.country && p.operator === (b.operator ?? null);
      prices = prices.filter((p) => !same(p));
      if (b.price !== null)
        prices = [...prices, { country: b.country, operator: b.operator ?? null, price: Number(b.price) }];
      return grid();
    }
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

async function openGrid() {
  renderApp('/servicemanager');
  const table = await screen.findByRole('table', { name: 'Services' });
  const row = (await within(table).findByText('Telegram')).closest('tr')!;
  fireEvent.keyDown(within(row).getByRole('button', { name: 'More actions: Telegram' }), { key: 'Enter' });
  fireEvent.click(
    within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Prices by country' }),
  );
  return screen.findByRole('dialog', { name: 'Prices by country: Telegram' });
}

describe('Service Manager: prices by country', () => {
  it('sorts the grid by country name, the whole country before its operators', () => {
    const rows = sortedPrices(
      [
        { country: 'US', operator: null, price: 1 },
        { country: 'DE', operator: 'Vodafone', price: 2 },
        { country: 'DE', operator: null, price: 3 },
      ],
      'en',
    );
    expect(rows.map((r) => `${r.country}/${r.operator}`)).toEqual(['DE/null', 'DE/Vodafone', 'US/null']);
  });

  it('shows the default and the grid, adds, edits and removes a price, and says it is for new orders', async () => {
    const fetch = serveGrid([{ country: 'DE', operator: 'Vodafone', price: 0.8 }]);
    const dialog = await openGrid();
    expect(within(dialog).getByText(/new orders only/)).toBeTruthy();
    expect(within(dialog).getByText('Default price (every other country)')).toBeTruthy();
    expect(within(dialog).getByText('$0.50')).toBeTruthy();
    const grid = await within(dialog).findByRole('table', { name: 'Prices by country and operator' });
    const de = within(grid).getByText('Germany').closest('tr')!;
    expect(within(de).getByText('Vodafone')).toBeTruthy();
    expect(within(de).getByText('$0.80')).toBeTruthy();

    // Add: the code's country shows as it is typed; the operator left empty is every operator.
    fireEvent.change(within(dialog).getByLabelText('Country code'), { target: { value: 'gb' } });
    expect(within(dialog).getByText(/United Kingdom/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '1.25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save price' }));
    const gb = (await within(grid).findByText('United Kingdom')).closest('tr')!;
    expect(within(gb).getByText('All operators')).toBeTruthy();
    expect(within(gb).getByText('$1.25')).toBeTruthy();
    expect(calls(fetch, '/api/service/setPrice')).toEqual([
      { serviceId: tg.id, country: 'GB', operator: null, price: '1.25' },
    ]);

    // Edit fills the form; saving sends the same country and operator.
    fireEvent.click(within(de).getByRole('button', { name: 'Edit' }));
    expect((within(dialog).getByLabelText('Country code') as HTMLInputElement).value).toBe('DE');
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '0.9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save price' }));
    await waitFor(() =>
      expect(within(within(grid).getByText('Germany').closest('tr')!).getByText('$0.90')).toBeTruthy(),
    );
    expect(calls(fetch, '/api/service/setPrice')[1]).toEqual({
      serviceId: tg.id,
      country: 'DE',
      operator: 'Vodafone',
      price: '0.9',
    });

    fireEvent.click(
      within(within(grid).getByText('Germany').closest('tr')!).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(within(grid).queryByText('Germany')).toBeNull());
    expect(calls(fetch, '/api/service/setPrice')[2]).toEqual({
      serviceId: tg.id,
      country: 'DE',
      operator: 'Vodafone',
      price: null,
    });
  });

  it('checks the form before sending and shows the server’s refusal under its field', async () => {
    const fetch = serveGrid([]);
    const dialog = await openGrid();
    expect(await within(dialog).findByText(/No country has its own price/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Country code'), { target: { value: 'Germany' } });
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText(/two-letter code/)).toBeTruthy();
    expect(within(dialog).getByText(/Enter a price above 0/)).toBeTruthy();
    expect(calls(fetch, '/api/service/setPrice')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Country code'), { target: { value: 'xx' } });
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '2' } });
    expect(await within(dialog).findByText('No country has this code.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText(COUNTRY_CODE_MESSAGE)).toBeTruthy();
    expect(calls(fetch, '/api/service/setPrice')).toEqual([
      { serviceId: tg.id, country: 'XX', operator: null, price: '2' },
    ]);
  });
});
