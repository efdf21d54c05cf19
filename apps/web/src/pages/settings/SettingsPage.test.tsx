import type { AdminOutreachSettings } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const SETTINGS: AdminOutreachSettings = {
  maxBatchSendSms: 100,
  maxMsgPerDay: 1000,
  simMaxSmsPerDay: 0,
  simMaxSmsPerMonth: 0,
  simLockAfterFailures: 5,
  simCooldownMinutes: 60,
  simsKeptForSendingPercent: 20,
  noFreeSim: false,
  smsPricePerSegment: 0.0075,
  mmsPrice: 0.02,
  countries: [],
  otherCountriesEnabled: true,
  updatedAt: null,
  updatedBy: null,
};

type Countries = { otherCountriesEnabled: boolean; countries: Record<string, unknown>[] };

function serve(countries: Countries = { otherCountriesEnabled: true, countries: [] }) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
  let now = countries;
  return mockFetch((path, init) => {
    if (path === '/api/user/info') return { body: userInfoFor('root', ['Admin9']) };
    if (path === '/api/Admin/messageCountries') return { body: { code: 1, ...now } };
    if (path === '/api/Admin/setMessageCountry') {
      const b = JSON.parse(String(init?.body));
      if (b.otherCountriesEnabled !== undefined)
        now = { ...now, otherCountriesEnabled: b.otherCountriesEnabled };
      if (b.country && b.remove)
        now = { ...now, countries: now.countries.filter((c) => c.country !== b.country) };
      else if (b.country) {
        const row = {
          country: b.country.toUpperCase(),
          name: 'Canada',
          smsPricePerSegment: b.smsPricePerSegment === null ? null : Number(b.smsPricePerSegment),
          mmsPrice: b.mmsPrice === null ? null : Number(b.mmsPrice),
          enabled: b.enabled,
        };
        now = { ...now, countries: [...now.countries.filter((c) => c.country !== row.country), row] };
      }
      return { body: { code: 1, ...now } };
    }
    if (path === '/api/Admin/getOutreachSettings') return { body: SETTINGS };
    if (path === '/api/Admin/updateSettings') {
      const b = JSON.parse(String(init?.body));
      return {
        body: { ...SETTINGS, smsPricePerSegment: Number(b.SmsPricePerSegment), mmsPrice: Number(b.MmsPrice) },
      };
    }
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

describe('Settings: message prices', () => {
  it('shows the prices exactly, refuses a fifth decimal, and saves them as decimal text', async () => {
    const fetch = serve();
    renderApp('/settings');
    const sms = (await screen.findByLabelText('Price per SMS segment (USD)')) as HTMLInputElement;
    const mms = screen.getByLabelText('Price per MMS (USD)') as HTMLInputElement;
    await waitFor(() => expect(sms.value).toBe('0.0075'));
    expect(mms.value).toBe('0.02');
    expect(screen.getByText(/160 GSM-7 characters/)).toBeTruthy();
    // A row nobody saved says so (the demo's starting values have no author).
    expect(screen.getByText('Default limits, never changed.')).toBeTruthy();
    expect(screen.queryByText(/Last changed by/)).toBeNull();

    // Money fields: "$" in front, a decimal keyboard, the amount tidied on leaving the field.
    expect(sms.inputMode).toBe('decimal');
    expect(sms.parentElement?.textContent).toBe('$');
    fireEvent.change(mms, { target: { value: '.5' } });
    fireEvent.blur(mms);
    expect(mms.value).toBe('0.50');

    fireEvent.change(sms, { target: { value: '0.00751' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Price per SMS segment must be an amount ≥ 0 with at most four decimals (USD).');
    const saves = () => fetch.mock.calls.filter(([p]) => String(p) === '/api/Admin/updateSettings');
    expect(saves()).toHaveLength(0);

    fireEvent.change(sms, { target: { value: '0.0100' } });
    fireEvent.change(mms, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    // The spec's text, its mark drawn as an icon (no emoji glyph to fall back to an empty box).
    const notice = (await screen.findByText('Success!')).closest('[role="status"]') as HTMLElement;
    expect(notice.textContent).toBe('✅ Success!');
    expect(within(notice).getByText('✅').className).toContain('sr-only');
    expect(notice.querySelector('svg.lucide-circle-check')).not.toBeNull();
    expect(JSON.parse(String(saves()[0]![1]?.body))).toMatchObject({
      MaxBatchSendSms: 100,
      SmsPricePerSegment: '0.0100',
      MmsPrice: '0',
    });
  });
});

describe('Settings: message prices by country', () => {
  const setCalls = (fetch: ReturnType<typeof serve>) =>
    fetch.mock.calls
      .filter(([p]) => String(p) === '/api/Admin/setMessageCountry')
      .map(([, init]) => JSON.parse(String(init?.body)));

  it('lists the countries, switches the others off, adds, switches off and removes a country', async () => {
    const fetch = serve({
      otherCountriesEnabled: true,
      countries: [
        { country: 'JM', name: 'Jamaica', smsPricePerSegment: 0.05, mmsPrice: null, enabled: true },
      ],
    });
    renderApp('/settings');
    const table = await screen.findByTestId('message-countries');
    const jm = within(table).getByRole('row', { name: /Jamaica/ });
    expect(jm.textContent).toContain('$0.0500');
    expect(jm.textContent).toContain('Default');

    const others = screen.getByRole('switch', { name: /Allow countries not listed/ }) as HTMLInputElement;
    expect(others.checked).toBe(true);
    fireEvent.click(others);
    await waitFor(() => expect(setCalls(fetch)).toEqual([{ otherCountriesEnabled: false }]));
    await waitFor(() => expect(others.checked).toBe(false));

    fireEvent.click(screen.getByRole('button', { name: 'Add country' }));
    const dialog = await screen.findByRole('dialog');
    const code = within(dialog).getByLabelText('Country code');
    fireEvent.change(code, { target: { value: 'Canada' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Enter a country by its two-letter code (for example DE).');
    fireEvent.change(code, { target: { value: 'ca' } });
    expect(within(dialog).getByTestId('country-name').textContent).toContain('Canada');
    fireEvent.change(within(dialog).getByLabelText('Price per SMS segment (USD)'), {
      target: { value: '0.0913' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(setCalls(fetch)[1]).toEqual({
      country: 'ca',
      smsPricePerSegment: '0.0913',
      mmsPrice: null,
      enabled: true,
    });
    const ca = await within(table).findByRole('row', { name: /Canada/ });
    expect(ca.textContent).toContain('$0.0913');

    fireEvent.click(within(ca).getByRole('switch', { name: 'Messages to Canada enabled' }));
    await waitFor(() => expect(setCalls(fetch)[2]).toEqual({ country: 'CA', enabled: false }));
    fireEvent.click(within(jm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(setCalls(fetch)[3]).toEqual({ country: 'JM', remove: true }));
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Jamaica/ })).toBeNull());
  });
});
