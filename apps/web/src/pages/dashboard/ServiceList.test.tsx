import type { Order, PublicService } from '@simdock/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { createQueryClient } from '../../lib/queryClient.ts';
import { orderFor } from '../../test/utils.tsx';
import { COUNTRY_STORAGE_KEY } from './country-choice.ts';
import { OrderList } from './OrderList.tsx';
import { ServiceList } from './ServiceList.tsx';

const telegram = (price: number, available: number, country?: string): PublicService => ({
  id: 'tg',
  code: 'tg',
  name: 'Telegram',
  description: '',
  price,
  available,
  rentTimeMinutes: 20,
  isRepeatable: false,
  ...(country ? { country } : {}),
});

const COUNTRIES = {
  code: 1,
  defaultCountry: 'US',
  countries: [
    { country: 'US', name: 'United States', sims: 5, operators: [{ name: 'T-Mobile', sims: 5 }] },
    { country: 'DE', name: 'Germany', sims: 1, operators: [{ name: 'Vodafone', sims: 1 }] },
  ],
};

/** fetch answering the catalogue (each country's prices), the countries and rents; records each call. */
function stubFetch() {
  const calls: { path: string; body: unknown }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    let answer: unknown = { code: 1 };
    if (path === '/api/Service/getall') {
      const country = (body as { country?: string } | undefined)?.country;
      answer = { code: 1, services: [country === 'DE' ? telegram(0.9, 1, 'DE') : telegram(0.5, 6)] };
    } else if (path === '/api/Catalogue/countries') answer = COUNTRIES;
    else if (path === '/api/Order/create')
      answer = { code: 1, data: orderFor({ id: '9', phoneNumber: '4915201234567', country: 'DE' }) };
    else if (path === '/api/Order/getbyuser') answer = { code: 1, orders: [] };
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

function renderList() {
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <ServiceList />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const priceCell = async () =>
  (await screen.findByRole('table', { name: 'Rent a number' })).querySelector('tbody tr td:nth-child(2)');

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Dashboard’s country filter', () => {
  it('lists the countries with SIMs; a choice fetches its prices, is sent on rent and is remembered', async () => {
    const calls = stubFetch();
    renderList();
    const select = (await screen.findByLabelText('Country')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(3));
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'All countries',
      '🇺🇸 United States · 5 SIMs',
      '🇩🇪 Germany · 1 SIM',
    ]);
    await waitFor(async () => expect((await priceCell())?.textContent).toBe('$0.50'));
    expect(calls.find((c) => c.path === '/api/Service/getall')?.body).not.toHaveProperty('country');

    fireEvent.change(select, { target: { value: 'DE' } });
    await waitFor(async () => expect((await priceCell())?.textContent).toBe('$0.90'));
    expect(calls.filter((c) => c.path === '/api/Service/getall').at(-1)?.body).toEqual({ country: 'DE' });
    expect(screen.getByText('Prices and numbers available in Germany.')).toBeTruthy();
    expect(localStorage.getItem(COUNTRY_STORAGE_KEY)).toBe('DE');

    fireEvent.click(screen.getByRole('button', { name: 'Rent a Telegram number' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/Order/create')).toBe(true));
    expect(calls.find((c) => c.path === '/api/Order/create')?.body).toEqual({
      serviceCode: 'tg',
      country: 'DE',
    });
  });

  it('starts with the remembered country; All countries forgets it and rents from any', async () => {
    localStorage.setItem(COUNTRY_STORAGE_KEY, 'DE');
    const calls = stubFetch();
    renderList();
    const select = (await screen.findByLabelText('Country')) as HTMLSelectElement;
    expect(select.value).toBe('DE');
    await waitFor(async () => expect((await priceCell())?.textContent).toBe('$0.90'));
    // The every-country catalogue is not fetched first (its prices would flash).
    expect(
      calls
        .filter((c) => c.path === '/api/Service/getall')
        .every((c) => (c.body as { country?: string }).country === 'DE'),
    ).toBe(true);

    fireEvent.change(select, { target: { value: '' } });
    await waitFor(async () => expect((await priceCell())?.textContent).toBe('$0.50'));
    expect(localStorage.getItem(COUNTRY_STORAGE_KEY)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Rent a Telegram number' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/Order/create')).toBe(true));
    expect(calls.find((c) => c.path === '/api/Order/create')?.body).toEqual({ serviceCode: 'tg' });
  });

  it('My numbers shows the number’s country flag when the order has one', async () => {
    stubFetch();
    const orders: Order[] = [
      orderFor({ id: '1', country: 'DE' }),
      orderFor({ id: '2', phoneNumber: '15550002' }),
    ];
    const qc = createQueryClient();
    qc.setQueryData(['dashboard', 'orders'], orders);
    render(
      <I18nProvider initial="en">
        <QueryClientProvider client={qc}>
          <MemoryRouter>
            <OrderList />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    const flags = await screen.findAllByTestId('order-country');
    expect(flags).toHaveLength(1);
    expect(flags[0]!.getAttribute('aria-label')).toBe('Number from Germany');
    expect(within(flags[0]!.closest('tr')!).getByText('🇩🇪')).toBeTruthy();
  });
});
