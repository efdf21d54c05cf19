import type { Gateway, Sim } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';
import { countryCodeOf } from './OriginDialog.tsx';
import { simFixture } from './sim-fixture.ts';

const gw = {
  id: 'g1',
  name: 'Rack A',
  url: 'http://10.0.0.5',
  mac: '00:30:f1:aa:bb:cc',
  userName: 'root',
  isEnable: true,
  totalSIM: 2,
  lastUpdate: '2026-01-02T03:04:05.000Z',
  onlineStatus: 'Online',
  pushUrls: { status: 'http://x/s', sms: 'http://x/m', report: 'http://x/r', base: 'http://x' },
  kind: 'ejoin',
  mode: null,
  deviceId: '00:30:f1:aa:bb:cc',
  model: null,
  hasSigningKey: false,
  webUser: null,
  hasWebPassword: false,
  deviceServer: null,
  canUssd: false,
} satisfies Gateway;

const de = simFixture('1.01', {
  iccid: '8949',
  operator: '26202 Vodafone',
  origin: { country: 'DE', operator: 'Vodafone', source: 'imsi', corrected: false },
});
const fixed = simFixture('2.01', {
  iccid: '8944',
  origin: { country: 'AT', operator: 'A1', source: 'admin', corrected: true },
});

function serve(onSet: (body: Record<string, unknown>) => Sim) {
  const sent: Record<string, unknown>[] = [];
  let sims = [de, fixed];
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  mockFetch((path, init) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (path === '/api/Admin/getSettings')
      return {
        body: { gateways: [gw], serverTime: '2026-01-02T03:05:05.000Z', smsPricePerSegment: 0, mmsPrice: 0 },
      };
    if (path === '/api/Admin/gatewayReport') return { body: { gateway: gw, sims } };
    if (path === '/api/Admin/setSimOrigin') {
      sent.push(body);
      const sim = onSet(body);
      sims = sims.map((x) => (x.port === sim.port ? sim : x));
      return { body: { code: 1, msg: 'SIM on port 1.01: AT.', sim, deviceUpdated: false } };
    }
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: userInfoFor('ann', ['Admin9']) };
  });
  return sent;
}

async function simTable() {
  renderApp('/gatewaymanager');
  const table = await screen.findByRole('table');
  fireEvent.click(
    within((await within(table).findByText('Rack A')).closest('tr')!).getByRole('button', { name: 'SIMs' }),
  );
  return screen.findByRole('table', { name: 'SIMs of Rack A' });
}

async function openOrigin(row: HTMLElement) {
  fireEvent.keyDown(within(row).getByRole('button', { name: /^More actions/ }), { key: 'Enter' });
  fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Correct country' }));
  return screen.findByRole('dialog', { name: /^Country and operator of port/ });
}

describe('Gateway Manager: a SIM’s country', () => {
  it('reads a typed code as the contract does', () => {
    expect(countryCodeOf(' de ')).toBe('DE');
    expect(countryCodeOf('Germany')).toBeUndefined();
  });

  it('shows each SIM’s country, operator and what told them', async () => {
    serve(() => de);
    const sims = await simTable();
    const row1 = (await within(sims).findByText('8949')).closest('tr')!;
    expect(within(row1).getByText('Germany')).toBeTruthy();
    expect(within(row1).getByText('Germany').closest('td')!.textContent).toContain('Vodafone');
    expect(within(row1).getByText('From IMSI')).toBeTruthy();
    const row2 = within(sims).getByText('8944').closest('tr')!;
    expect(within(row2).getByText('Austria')).toBeTruthy();
    expect(within(row2).getByText('Corrected by an admin')).toBeTruthy();
  });

  it('corrects the country with its name shown as typed, and the operator; a bad code is not sent', async () => {
    const sent = serve(() => ({
      ...de,
      origin: { country: 'AT', operator: 'A1', source: 'admin', corrected: true },
    }));
    const sims = await simTable();
    const row = (await within(sims).findByText('8949')).closest('tr')!;
    const dialog = await openOrigin(row);
    expect(within(dialog).getByText(/Now: .*Germany \(From IMSI\)/)).toBeTruthy();
    // No "Clear correction" while nothing is corrected.
    expect(within(dialog).queryByRole('button', { name: 'Clear correction' })).toBeNull();
    const country = within(dialog).getByLabelText('Country code') as HTMLInputElement;
    expect(country.value).toBe('DE');
    fireEvent.change(country, { target: { value: 'Austria' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/two-letter code/)).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(country, { target: { value: 'at' } });
    expect(await within(dialog).findByText(/Austria/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Operator'), { target: { value: ' A1 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('SIM on port 1.01: AT.')).toBeTruthy();
    expect(sent).toEqual([{ gatewayId: 'g1', port: '1.01', country: 'AT', operator: 'A1' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(within(sims).getAllByText('Austria')).toHaveLength(2));
  });

  it('clears a correction', async () => {
    const sent = serve(() => ({
      ...fixed,
      origin: { country: 'GB', operator: 'EE', source: 'imsi', corrected: false },
    }));
    const sims = await simTable();
    const row = (await within(sims).findByText('8944')).closest('tr')!;
    const dialog = await openOrigin(row);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear correction' }));
    await waitFor(() =>
      expect(sent).toEqual([{ gatewayId: 'g1', port: '2.01', country: null, operator: null }]),
    );
    await waitFor(() => expect(within(sims).getByText('United Kingdom')).toBeTruthy());
  });
});
