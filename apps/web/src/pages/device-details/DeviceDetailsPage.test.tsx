import { cleanup, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const admin = userInfoFor('ann', ['Admin9']);

function signInAdmin(stats: (body: { mac: string }) => { status?: number; body: unknown }) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  return mockFetch((path, init) => {
    if (path === '/api/Admin/deviceStats') return stats(JSON.parse(String(init?.body)));
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: admin };
  });
}

describe('Device Statistics (/details/{id})', () => {
  it('asks by the route id as MAC and colours Success green at 50% of Used or more, else red', async () => {
    const fetch = signInAdmin(({ mac }) => ({
      body: {
        mac: '00:30:f1:aa:bb:cc',
        name: 'Rack A',
        totalSIM: 16,
        serviceStatss: [
          { name: 'Telegram', using: 1, used: 10, success: 5 },
          { name: 'WhatsApp', using: 0, used: 8, success: 3 },
          { name: 'Fresh', using: 2, used: 0, success: 0 },
        ].map((s) => ({ ...s, name: mac === '00-30-F1-AA-BB-CC' ? s.name : 'wrong mac' })),
      },
    }));
    renderApp('/details/00-30-F1-AA-BB-CC');
    await screen.findByRole('heading', { level: 1, name: 'Device Statistics · Rack A' });
    const telegram = (await screen.findByText('Telegram')).closest('tr')!;
    const summary = screen.getByTestId('device-summary');
    expect(within(summary).getByText('00:30:f1:aa:bb:cc')).toBeTruthy();
    expect(within(summary).getByText('Total SIM')).toBeTruthy();
    expect(within(summary).getByText('16')).toBeTruthy();

    const success = (row: Element) => within(row as HTMLElement).getByText(/\(\d+\.\d%\)/);
    expect(success(telegram).textContent).toBe('5 (50.0%)');
    expect(success(telegram).className).toContain('text-ok');
    const whatsapp = screen.getByText('WhatsApp').closest('tr')!;
    expect(success(whatsapp).textContent).toBe('3 (37.5%)');
    expect(success(whatsapp).className).toContain('text-bad');
    const fresh = screen.getByText('Fresh').closest('tr')!;
    expect(success(fresh).textContent).toBe('0 (0.0%)');
    expect(success(fresh).className).toContain('text-bad');
    expect(fetch).toHaveBeenCalledWith('/api/Admin/deviceStats', expect.anything());
    expect(screen.getByRole('link', { name: 'Back to Gateway Manager' }).getAttribute('href')).toBe(
      '/gatewaymanager',
    ); // The sidebar lights Gateway Manager: Device Details is reached from it.
    const nav = await screen.findByRole('link', { name: 'Gateway Manager' });
    expect(nav.className).toContain('bg-accent-soft');
    expect(screen.getByRole('link', { name: 'Order Manager' }).className).not.toContain('bg-accent-soft');
  });

  it('says so when the device has no data', async () => {
    signInAdmin(() => ({
      body: { mac: '00:30:f1:aa:bb:cc', name: 'Rack A', totalSIM: 0, serviceStatss: [] },
    }));
    renderApp('/details/00:30:f1:aa:bb:cc');
    expect(await screen.findByText('No data available for this device.')).toBeTruthy();
  });

  it('shows a loading indicator while fetching, then the failure in plain words with Retry', async () => {
    signInAdmin(() => ({
      status: 503,
      body: { code: 0, error: 'unavailable', msg: 'The database is not reachable.' },
    }));
    renderApp('/details/00:30:f1:aa:bb:cc');
    await screen.findByRole('heading', { level: 1, name: 'Device Statistics' });
    expect(screen.getByText('Loading…')).toBeTruthy();
    const alert = await screen.findByRole('alert', {}, { timeout: 14_000 });
    expect(alert.textContent).toContain('Load failed');
    expect(alert.textContent).toContain('The database is not reachable.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    expect(screen.queryByText('No data available for this device.')).toBeNull();
  });

  it('says plainly that an unknown id is not found: a MAC as a MAC, anything else as an id', async () => {
    const notFound = ({ mac }: { mac: string }) => ({
      status: 404,
      body: { code: 0, error: 'not_found', msg: `No gateway has the MAC address ${mac}.` },
    });
    signInAdmin(notFound);
    renderApp('/details/00:30:f1:aa:bb:00');
    expect(await screen.findByText('No gateway has this address')).toBeTruthy();
    expect(screen.getByText(/There is no gateway with the MAC address 00:30:f1:aa:bb:00/)).toBeTruthy();
    expect(screen.queryByText('No data available for this device.')).toBeNull();
    cleanup();
    signInAdmin(notFound);
    renderApp('/details/nope');
    expect(await screen.findByText('No gateway has this address')).toBeTruthy();
    expect(screen.getByText(/There is no gateway with the id nope\./)).toBeTruthy();
  });

  it('a phone (no MAC) is asked for by its gateway id and shown by it', async () => {
    const fetch = signInAdmin(({ mac }) => ({
      body: {
        mac: '',
        name: 'Pixel 7',
        totalSIM: mac === 'g7' ? 2 : 0,
        serviceStatss: [{ name: 'Telegram', using: 0, used: 4, success: 3 }],
      },
    }));
    renderApp('/details/g7');
    await screen.findByRole('heading', { level: 1, name: 'Device Statistics · Pixel 7' });
    const summary = screen.getByTestId('device-summary');
    expect(within(summary).getByText('Gateway ID')).toBeTruthy();
    expect(within(summary).getByText('g7')).toBeTruthy();
    expect(within(summary).queryByText('MAC')).toBeNull();
    expect(within(summary).getByText('2')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Orders per service on device g7' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith(
      '/api/Admin/deviceStats',
      expect.objectContaining({ body: JSON.stringify({ mac: 'g7' }) }),
    );
  });
});
