import type { Gateway, Sim } from '@simdock/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';
import { simFixture } from './sim-fixture.ts';

const admin = userInfoFor('ann', ['Admin9']);

const gw: Gateway = {
  id: 'g1',
  name: 'Rack A',
  url: 'http://10.0.0.5',
  mac: '00:30:f1:aa:bb:cc',
  userName: 'root',
  isEnable: true,
  totalSIM: 16,
  lastUpdate: '2026-01-02T03:04:05.000Z',
  onlineStatus: 'Online',
  pushUrls: {
    status: 'http://x/api/gw/g1/s/status',
    sms: 'http://x/api/gw/g1/s/sms',
    report: 'http://x/api/gw/g1/s/report',
    base: 'http://x/api/gw/g1/s',
  },
  kind: 'ejoin',
  mode: null,
  deviceId: '00:30:f1:aa:bb:cc',
  model: null,
  hasSigningKey: false,
  webUser: null,
  hasWebPassword: false,
  deviceServer: null,
  canUssd: false,
};

/** An SMSGate phone reached through the public cloud. */
const phoneGw: Gateway = {
  id: 'g7',
  name: 'Pixel 7',
  url: '',
  mac: '',
  userName: 'ABCDEF',
  isEnable: true,
  totalSIM: 2,
  lastUpdate: '2026-01-02T03:04:05.000Z',
  onlineStatus: 'Online',
  pushUrls: {
    status: 'https://x/api/gw/g7/s/status',
    sms: 'https://x/api/gw/g7/s/sms',
    report: 'https://x/api/gw/g7/s/report',
    base: 'https://x/api/gw/g7/s',
  },
  kind: 'smsgate',
  mode: 'cloud',
  deviceId: 'PyDmBQZZXYmyxMwED8Fzy',
  model: 'google/panther',
  hasSigningKey: true,
  webUser: null,
  hasWebPassword: false,
  deviceServer: null,
  canUssd: false,
};

/** A GoIP box: its lines connect to SimDock's UDP port, so it has a device server and no MAC or URL. */
const goipGw: Gateway = {
  id: 'g9',
  name: 'Shop 7',
  url: '',
  mac: '',
  userName: 'shop7',
  isEnable: true,
  totalSIM: 2,
  lastUpdate: null,
  onlineStatus: 'Offline',
  pushUrls: {
    status: 'http://x/api/gw/g9/s/status',
    sms: 'http://x/api/gw/g9/s/sms',
    report: 'http://x/api/gw/g9/s/report',
    base: 'http://x/api/gw/g9/s',
  },
  kind: 'goip',
  mode: null,
  deviceId: 'shop7',
  model: null,
  hasSigningKey: false,
  webUser: null,
  hasWebPassword: false,
  deviceServer: { host: 'sms.example.com', port: 44444 },
  canUssd: true,
};

type Handler = (body: Record<string, unknown>) => { status?: number; body: unknown };

function signInAdmin(routes: Record<string, Handler>) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
  return mockFetch((path, init) => {
    const route = routes[path];
    if (route) return route(init?.body ? JSON.parse(String(init.body)) : {});
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: admin };
  });
}

const settings = (gateways: Gateway[]) => () => ({
  body: { gateways, serverTime: '2026-01-02T03:05:05.000Z', smsPricePerSegment: 0, mmsPrice: 0 },
});
const failure = (status: number, msg: string) => () => ({
  status,
  body: { code: 0, error: status === 409 ? 'conflict' : 'unavailable', msg },
});

/** The table is shown from 1280 px and one card per gateway below (jsdom has no media queries: the table). */
async function tableRow(name: string): Promise<HTMLElement> {
  const table = await screen.findByRole('table');
  return (await within(table).findByText(name)).closest('tr')!;
}

/** Opens a row's "More actions" menu (Radix opens it on Enter) and returns the menu. */
async function openMore(row: HTMLElement): Promise<HTMLElement> {
  fireEvent.keyDown(within(row).getByRole('button', { name: /^More actions/ }), { key: 'Enter' });
  return screen.findByRole('menu');
}

const sim: Sim = simFixture('1.01', { iccid: '8901', number: null, numberSource: null });

/** Opens the SIM panel of a gateway row and returns the SIM table. */
async function openSims(name: string): Promise<HTMLElement> {
  fireEvent.click(within(await tableRow(name)).getByRole('button', { name: 'SIMs' }));
  return screen.findByRole('table', { name: `SIMs of ${name}` });
}

describe('Gateway Manager (/gatewaymanager)', () => {
  it('shows the spec texts, badges and count, and links Details to /details/<mac>', async () => {
    signInAdmin({
      '/api/Admin/getSettings': settings([
        gw,
        {
          ...gw,
          id: 'g2',
          name: 'Rack B',
          mac: '00:30:f1:aa:bb:cd',
          isEnable: false,
          onlineStatus: 'Offline',
          lastUpdate: null,
        },
      ]),
    });
    renderApp('/gatewaymanager');
    await screen.findByRole('heading', { level: 1, name: /Gateway Manager/ });
    expect(screen.getByText('Add / Edit / Delete device gateway')).toBeTruthy();
    const rowA = await tableRow('Rack A');
    expect(within(rowA).getByText('Online')).toBeTruthy();
    expect(within(rowA).getByText('Enabled')).toBeTruthy();
    expect(within(rowA).getByText('16')).toBeTruthy();
    expect(within(rowA).getByText('Last report 1 min ago')).toBeTruthy();
    const menu = await openMore(rowA);
    expect(within(menu).getByRole('menuitem', { name: 'Details' }).getAttribute('href')).toBe(
      '/details/00:30:f1:aa:bb:cc',
    );
    fireEvent.keyDown(menu, { key: 'Escape' });
    const rowB = await tableRow('Rack B');
    expect(within(rowB).getByText('Offline')).toBeTruthy();
    expect(within(rowB).getByText('Disabled')).toBeTruthy();
    expect(within(rowB).getByText('Not scanned yet')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('2');
  });

  it('the empty state, and Load failed with the server message', async () => {
    signInAdmin({ '/api/Admin/getSettings': settings([]) });
    renderApp('/gatewaymanager');
    expect(await screen.findByText('No gateways found. Please add one.')).toBeTruthy();
    cleanup();
    // A 4xx is not retried, so the banner shows at once.
    signInAdmin({ '/api/Admin/getSettings': failure(400, 'Database is down.') });
    renderApp('/gatewaymanager');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Load failed');
    expect(alert.textContent).toContain('Database is down.');
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeTruthy();
    // Failure is never an empty state: no empty text, no count of 0.
    expect(screen.queryByText('No gateways found. Please add one.')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Gateway Manager');
  });

  it('add: the live validity message, Save disabled until valid, Save failed with the server message', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return failure(409, 'Another gateway already uses the MAC address 00:30:f1:aa:bb:cc.')();
      },
    });
    renderApp('/gatewaymanager');
    await screen.findByText('No gateways found. Please add one.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Add Gateway' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add Gateway' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    const type = (label: string | RegExp, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy();
    expect(save.disabled).toBe(true);

    type(/^Name/, 'Rack A');
    type('URL', 'http://10.0.0.5');
    type('MAC', '00-30-F1-AA-BB-CC');
    type('User name', 'root');
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy(); // no password yet
    expect(save.disabled).toBe(true);
    type('Password', 'secret');
    expect(within(dialog).getByText('Data is valid')).toBeTruthy();
    expect(save.disabled).toBe(false);
    type('MAC', '00-30-F1-AA-BB');
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy();
    // The field's own error follows the form's (asynchronous) validation.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('MAC').getAttribute('aria-invalid')).toBe('true'),
    );
    type('MAC', '00-30-F1-AA-BB-CC');
    await waitFor(() => expect(within(dialog).getByLabelText('MAC').getAttribute('aria-invalid')).toBeNull());

    fireEvent.click(save);
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Save failed');
    expect(alert.textContent).toContain('Another gateway already uses the MAC address');
    expect(saved).toEqual([
      {
        gateway: {
          name: 'Rack A',
          url: 'http://10.0.0.5',
          mac: '00-30-F1-AA-BB-CC',
          userName: 'root',
          password: 'secret',
          isEnable: true,
        },
      },
    ]);
  });

  it('edit: a blank password is not sent; the push URLs are shown', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([gw]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return { body: { ...gw, name: 'Rack Z' } };
      },
    });
    renderApp('/gatewaymanager');
    fireEvent.click(within(await openMore(await tableRow('Rack A'))).getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Gateway' });
    expect(within(dialog).getByText('Leave blank to keep the current password.')).toBeTruthy();
    expect(within(dialog).getByText(gw.pushUrls.sms)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Rack Z' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Gateway Rack Z saved.')).toBeTruthy();
    expect(saved).toEqual([
      {
        gateway: {
          id: 'g1',
          name: 'Rack Z',
          url: gw.url,
          mac: gw.mac,
          userName: 'root',
          isEnable: true,
        },
      },
    ]);
  });

  it('scan: Scanning and 0 SIMs while busy; Scan failed with the server message', async () => {
    let reply: (r: { status?: number; body: unknown }) => void = () => {};
    const scanReply = new Promise<{ status?: number; body: unknown }>((resolve) => (reply = resolve));
    localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'Admin9')));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        const answer: { status?: number; body: unknown } =
          path === '/api/Admin/gatewayScan'
            ? await scanReply
            : path === '/api/Admin/getSettings'
              ? settings([gw])()
              : path === '/api/meta'
                ? { body: { demo: false, serverTime: new Date().toISOString() } }
                : { body: admin };
        return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
      }),
    );
    renderApp('/gatewaymanager');
    const row = await tableRow('Rack A');
    fireEvent.click(within(row).getByRole('button', { name: 'Scan' }));
    const busy = (await within(row).findByRole('button', { name: 'Scanning' })) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(within(row).getByTestId('gateway-sim-count').textContent).toBe('0');
    await act(async () => reply(failure(503, 'Gateway did not answer: connection refused.')()));
    // The result is a toast, where the admin is looking.
    expect(await screen.findByText('Scan failed')).toBeTruthy();
    expect(screen.getByText('Rack A: Gateway did not answer: connection refused.')).toBeTruthy();
    await waitFor(() => expect(within(row).getByTestId('gateway-sim-count').textContent).toBe('16'));
    // The row itself says the scan failed and when, above the last report it still has.
    const failed = within(row).getByText('Scan failed just now');
    expect(failed.getAttribute('title')).toMatch(/: Gateway did not answer: connection refused\.$/);
    expect(within(row).getByText('Last report 1 min ago')).toBeTruthy();
  });

  it('delete: the spec confirmation; Delete failed shows the server message', async () => {
    signInAdmin({
      '/api/Admin/getSettings': settings([gw]),
      '/api/Admin/deleteGateway': failure(409, 'This gateway has 2 orders waiting for a code.'),
    });
    renderApp('/gatewaymanager');
    fireEvent.click(
      within(await openMore(await tableRow('Rack A'))).getByRole('menuitem', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete gateway Rack A' });
    expect(
      within(dialog).getByText('Are you sure you want to delete this gateway? This action cannot be undone.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete failed')).toBeTruthy();
    expect(screen.getByText('This gateway has 2 orders waiting for a code.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
  it('a locked SIM is not counted usable and its badge says Locked, not Usable', async () => {
    const lockedSim: Sim = {
      ...sim,
      port: '1.02',
      iccid: '8902',
      // As an older server answered: the state alone made it "usable".
      usable: true,
      lock: { locked: true, kind: 'manual', reason: 'Spam', since: null, until: null, by: 'ann' },
    };
    signInAdmin({
      '/api/Admin/getSettings': settings([gw]),
      '/api/Admin/gatewayReport': () => ({ body: { gateway: gw, sims: [sim, lockedSim] } }),
    });
    renderApp('/gatewaymanager');
    const sims = await openSims('Rack A');
    const lockedRow = (await within(sims).findByText('8902')).closest('tr')!;
    expect(within(lockedRow).queryByText('Usable')).toBeNull();
    expect(within(lockedRow).getByTestId('sim-lock').textContent).toContain('Locked');
    const freeRow = within(sims).getByText('8901').closest('tr')!;
    expect(within(freeRow).getByText('Usable')).toBeTruthy();
    expect(screen.getByText(/2 SIMs · 1 usable · 1 locked/)).toBeTruthy();
  });

  it('SIM dialogs: the number takes a leading + as the server does; a lock needs a reason', async () => {
    const numbers: unknown[] = [];
    const locks: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([gw]),
      '/api/Admin/gatewayReport': () => ({ body: { gateway: gw, sims: [sim] } }),
      '/api/Admin/setSimNumber': (body) => {
        numbers.push(body);
        return {
          body: {
            code: 1,
            msg: 'Number +12025550123 saved for port 1.01.',
            sim: { ...sim, number: '+12025550123', numberSource: 'manual' },
            deviceUpdated: true,
          },
        };
      },
      '/api/Admin/lockSim': (body) => {
        locks.push(body);
        return { body: { code: 1, msg: 'SIM 1.01 locked.', sim } };
      },
    });
    renderApp('/gatewaymanager');
    const sims = await openSims('Rack A');
    const row = (await within(sims).findByText('8901')).closest('tr')!;

    fireEvent.click(within(row).getByRole('button', { name: 'Set Number' }));
    let dialog = await screen.findByRole('dialog', { name: 'Set number for port 1.01' });
    const number = within(dialog).getByLabelText('Phone number');
    await waitFor(() => expect(document.activeElement).toBe(number));
    fireEvent.change(number, { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter the number as 3 to 20 digits.')).toBeTruthy();
    fireEvent.change(number, { target: { value: '+1 (202) 555-0123' } });
    fireEvent.submit(number.closest('form')!);
    expect(await screen.findByText('Number +12025550123 saved for port 1.01.')).toBeTruthy();
    expect(numbers).toEqual([{ gatewayId: 'g1', port: '1.01', number: '+12025550123' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(row).getByRole('button', { name: 'Lock the SIM on port 1.01' }));
    dialog = await screen.findByRole('dialog', { name: 'Lock the SIM on port 1.01' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));
    expect(await within(dialog).findByText('Enter a reason (up to 200 characters).')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Spam  ' } });
    fireEvent.change(within(dialog).getByLabelText('For how long'), { target: { value: '60' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));
    expect(await screen.findByText('SIM 1.01 locked.')).toBeTruthy();
    expect(locks).toEqual([{ gatewayId: 'g1', port: '1.01', reason: 'Spam', minutes: 60 }]);
  });

  it('a phone row: its kind and mode, model and device id instead of a MAC, Details by gateway id', async () => {
    signInAdmin({ '/api/Admin/getSettings': settings([gw, phoneGw]) });
    renderApp('/gatewaymanager');
    const row = await tableRow('Pixel 7');
    expect(within(row).getByTestId('gateway-kind').textContent).toBe('Phone · Cloud');
    expect(within(row).getByText('google/panther')).toBeTruthy();
    // The id shortened in the middle, never broken mid-word; whole in its tooltip and on the copy button.
    const id = within(row).getByText('PyDmBQ…ED8Fzy');
    expect(id.closest('[title]')?.getAttribute('title')).toBe('PyDmBQZZXYmyxMwED8Fzy');
    expect(id.getAttribute('data-value')).toBe('PyDmBQZZXYmyxMwED8Fzy');
    // A Cloud phone saved without a URL goes to the public server.
    expect(within(row).getByText('https://api.sms-gate.app/3rdparty/v1')).toBeTruthy();
    const box = await tableRow('Rack A');
    expect(within(box).getByTestId('gateway-kind').textContent).toBe('SIM box');
    expect(within(box).getByText(gw.mac)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'MAC or device / User name' })).toBeTruthy();
    const menu = await openMore(row);
    expect(within(menu).getByRole('menuitem', { name: 'Details' }).getAttribute('href')).toBe('/details/g7');
  });

  it('on a phone or tablet: one card per gateway, with the same fields and its actions inside', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width: 1279.98px'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    signInAdmin({ '/api/Admin/getSettings': settings([gw, phoneGw]) });
    renderApp('/gatewaymanager');
    const card = await screen.findByRole('listitem', { name: 'Pixel 7' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(card).getByTestId('gateway-kind').textContent).toBe('Phone · Cloud');
    expect(within(card).getByText('PyDmBQ…ED8Fzy')).toBeTruthy();
    expect(within(card).getByText('Last report 1 min ago')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Scan' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'SIMs' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Rack A' })).toBeTruthy();
  });

  it('add a phone: mode help, Cloud URL may stay blank, signing key required; sends kind/mode/key, no MAC', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return { body: phoneGw };
      },
    });
    renderApp('/gatewaymanager');
    await screen.findByText('No gateways found. Please add one.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Add Gateway' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add Gateway' });
    const kind = within(dialog).getByRole('group', { name: 'Device kind' });
    expect(
      (within(kind).getByRole('radio', { name: 'Multi-port SIM box (Ejoin)' }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.click(within(kind).getByRole('radio', { name: 'Android phone (SMSGate)' }));
    expect(within(dialog).queryByLabelText('MAC')).toBeNull();
    const modes = within(dialog).getByRole('group', { name: 'Mode' });
    expect(
      within(modes).getByText(
        'The phone’s own server: http://<phone-ip>:8080, user and password from the app’s Local server screen',
      ),
    ).toBeTruthy();
    const type = (label: string | RegExp, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    type(/^Name/, 'Pixel 7');
    type('User name', 'ABCDEF');
    type('Password', 'p4ss-word');
    // No mode yet.
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy();
    fireEvent.click(within(modes).getByRole('radio', { name: 'Cloud' }));
    expect((within(dialog).getByLabelText('URL') as HTMLInputElement).placeholder).toBe(
      'https://api.sms-gate.app/3rdparty/v1',
    );
    // A new Cloud phone needs the key from the app.
    expect(within(dialog).getByText('From the app: Settings → Webhooks → Signing Key')).toBeTruthy();
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy();
    expect(save.disabled).toBe(true);
    type('Signing key', 'k3yk3yk3');
    expect(within(dialog).getByText('Data is valid')).toBeTruthy();
    // Private needs its server's URL.
    fireEvent.click(within(modes).getByRole('radio', { name: 'Private' }));
    expect(within(dialog).getByText('Please enter all fields correctly')).toBeTruthy();
    fireEvent.click(within(modes).getByRole('radio', { name: 'Cloud' }));
    type('Device ID', 'PyDmBQZZXYmyxMwED8Fzy');
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    expect(await screen.findByText(/Gateway Pixel 7 added/)).toBeTruthy();
    expect(saved).toEqual([
      {
        gateway: {
          kind: 'smsgate',
          mode: 'cloud',
          name: 'Pixel 7',
          url: '',
          userName: 'ABCDEF',
          password: 'p4ss-word',
          deviceId: 'PyDmBQZZXYmyxMwED8Fzy',
          signingKey: 'k3yk3yk3',
          isEnable: true,
        },
      },
    ]);
  });

  it('edit a phone: the kind is fixed, a blank key keeps the stored one, the one webhook URL is shown', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([phoneGw]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return { body: phoneGw };
      },
    });
    renderApp('/gatewaymanager');
    fireEvent.click(
      within(await openMore(await tableRow('Pixel 7'))).getByRole('menuitem', { name: 'Edit' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Gateway' });
    expect(within(dialog).queryByRole('radio', { name: 'Multi-port SIM box (Ejoin)' })).toBeNull();
    expect(within(dialog).getByText('Android phone (SMSGate)')).toBeTruthy();
    expect(within(dialog).getByText('The kind of a saved gateway does not change.')).toBeTruthy();
    expect((within(dialog).getByRole('radio', { name: 'Cloud' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText('Leave blank to keep the current key.')).toBeTruthy();
    expect(within(dialog).getByText('Webhook URL')).toBeTruthy();
    expect(within(dialog).getByText(phoneGw.pushUrls.base)).toBeTruthy();
    expect(
      within(dialog).getByText(
        'SimDock registers it on the phone at Scan. It contains the gateway’s secret: keep it private.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(phoneGw.pushUrls.sms)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Gateway Pixel 7 saved.')).toBeTruthy();
    expect(saved).toEqual([
      {
        gateway: {
          id: 'g7',
          kind: 'smsgate',
          mode: 'cloud',
          name: 'Pixel 7',
          url: '',
          userName: 'ABCDEF',
          deviceId: 'PyDmBQZZXYmyxMwED8Fzy',
          isEnable: true,
        },
      },
    ]);
  });

  it("a phone's SIM panel: slots as SIM 1 and SIM 2, masked ICCIDs as given, how to make a SIM rentable", async () => {
    const numbers: unknown[] = [];
    // The server's SIM list, as the fake keeps it: the cloud's masked data, no numbers until set.
    const phoneSims: Sim[] = [
      { ...sim, port: '1', iccid: '****************1234', operator: '****ttel', signal: null },
      { ...sim, port: '2', iccid: '****************5678', operator: '****fone', signal: null },
    ];
    signInAdmin({
      '/api/Admin/getSettings': settings([phoneGw]),
      '/api/Admin/gatewayReport': () => ({ body: { gateway: phoneGw, sims: phoneSims } }),
      '/api/Admin/setSimNumber': (body) => {
        numbers.push(body);
        const set: Sim = { ...phoneSims[0]!, number: String(body.number), numberSource: 'manual' };
        phoneSims[0] = set;
        return {
          body: { code: 1, msg: 'Number +84901234567 saved for SIM 1.', sim: set, deviceUpdated: false },
        };
      },
    });
    renderApp('/gatewaymanager');
    const sims = await openSims('Pixel 7');
    const row = (await within(sims).findByText('SIM 1')).closest('tr')!;
    expect(within(sims).getByText('SIM 2')).toBeTruthy();
    expect(within(row).getByText('****************1234')).toBeTruthy();
    expect(within(sims).queryByRole('columnheader', { name: /Signal/ })).toBeNull();
    expect(within(sims).queryByText(/^Signal/)).toBeNull();
    expect(
      screen.getByText('The phone’s cloud hides SIM numbers: enter each SIM’s number to rent it.'),
    ).toBeTruthy();
    expect(within(row).getByText('Set its number to rent it')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Set Number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set number for SIM 1' });
    fireEvent.change(within(dialog).getByLabelText('Phone number'), { target: { value: '+84 901 234 567' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Number +84901234567 saved for SIM 1.')).toBeTruthy();
    expect(numbers).toEqual([{ gatewayId: 'g7', port: '1', number: '+84901234567' }]);
    expect(await within(row).findByText('+84901234567')).toBeTruthy();
    expect(within(row).queryByText('Set its number to rent it')).toBeNull();
  });
  it('a GoIP box row: its kind, the IDs its lines log in with, no report yet, Details by gateway id', async () => {
    signInAdmin({ '/api/Admin/getSettings': settings([gw, goipGw]) });
    renderApp('/gatewaymanager');
    const row = await tableRow('Shop 7');
    expect(within(row).getByTestId('gateway-kind').textContent).toBe('GoIP box');
    expect(within(row).getByText('Lines shop71, shop72…')).toBeTruthy();
    expect(within(row).getByText('No report yet')).toBeTruthy();
    const menu = await openMore(row);
    expect(within(menu).getByRole('menuitem', { name: 'Details' }).getAttribute('href')).toBe('/details/g9');
  });

  it('add a GoIP box: its ID, password and optional URL; then the settings to enter on the box', async () => {
    const saved: unknown[] = [];
    signInAdmin({
      '/api/Admin/getSettings': settings([]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return { body: goipGw };
      },
    });
    renderApp('/gatewaymanager');
    await screen.findByText('No gateways found. Please add one.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Add Gateway' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add Gateway' });
    const kind = within(dialog).getByRole('group', { name: 'Device kind' });
    fireEvent.click(within(kind).getByRole('radio', { name: 'GoIP box' }));
    expect(within(dialog).queryByLabelText('MAC')).toBeNull();
    expect(within(dialog).queryByRole('group', { name: 'Mode' })).toBeNull();
    expect(within(dialog).queryByLabelText('Signing key')).toBeNull();
    expect(
      within(dialog).getByText('The ID set on the box’s SMS settings page; its lines log in as ID1, ID2…'),
    ).toBeTruthy();
    const type = (label: string | RegExp, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;

    type(/^Name/, 'Shop 7');
    type('Box ID', 'shop 7');
    type('Password', 'line-pass');
    expect(save.disabled).toBe(true);
    await waitFor(() =>
      expect(
        within(dialog).getByText('Enter the box’s ID: letters, digits and _ - . only, up to 64 characters.'),
      ).toBeTruthy(),
    );
    type('Box ID', 'shop7');
    // The web interface URL may stay blank.
    expect(within(dialog).getByText('Data is valid')).toBeTruthy();
    type('Web interface URL (optional)', '192.168.1.70');
    expect(save.disabled).toBe(true);
    type('Web interface URL (optional)', '');
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    const setup = await screen.findByRole('dialog', { name: 'Set up Shop 7' });
    expect(screen.getByText('Gateway Shop 7 added.')).toBeTruthy();
    expect(saved).toEqual([
      {
        gateway: {
          kind: 'goip',
          mode: 'udp',
          name: 'Shop 7',
          url: '',
          userName: 'shop7',
          password: 'line-pass',
          isEnable: true,
        },
      },
    ]);
    const value = (label: string) =>
      within(setup).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('SMS server')).toBe('sms.example.com');
    expect(value('SMS server port')).toBe('44444');
    expect(value('ID of line 1')).toBe('shop71');
    expect(value('ID of line 2')).toBe('shop72');
    // The password is copied, not shown.
    expect(value('Password')).not.toContain('line-pass');
    expect(within(setup).getByRole('button', { name: 'Copy Password' })).toBeTruthy();
    expect(within(setup).getByRole('button', { name: 'Copy shop71' })).toBeTruthy();
    expect(within(setup).queryByText(goipGw.pushUrls.sms)).toBeNull();
    fireEvent.click(within(setup).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('add a GoIP box SimDock reads through its web pages: URL and web login needed, nothing to enter on the box', async () => {
    const saved: unknown[] = [];
    const webGw: Gateway = {
      ...goipGw,
      mode: 'web',
      url: 'http://192.168.1.70',
      webUser: 'admin',
      hasWebPassword: true,
    };
    signInAdmin({
      '/api/Admin/getSettings': settings([]),
      '/api/Admin/updateGateway': (body) => {
        saved.push(body);
        return { body: webGw };
      },
    });
    renderApp('/gatewaymanager');
    await screen.findByText('No gateways found. Please add one.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Add Gateway' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add Gateway' });
    fireEvent.click(
      within(within(dialog).getByRole('group', { name: 'Device kind' })).getByRole('radio', {
        name: 'GoIP box',
      }),
    );
    const connection = within(dialog).getByRole('group', { name: 'Connection' });
    const udp = within(connection).getByRole('radio', {
      name: 'Lines connect to SimDock over UDP (recommended)',
    }) as HTMLInputElement;
    expect(udp.checked).toBe(true);
    fireEvent.click(
      within(connection).getByRole('radio', {
        name: 'SimDock uses the box’s web pages (the box cannot reach SimDock)',
      }),
    );
    const type = (label: string | RegExp, value: string) =>
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    type(/^Name/, 'Shop 7');
    type('Box ID', 'shop7');
    type('Password', 'line-pass');
    // The web pages are the only way to the box: their URL and login are required now.
    expect(save.disabled).toBe(true);
    type('Web interface URL', 'http://192.168.1.70');
    type('Web login', 'admin');
    expect(save.disabled).toBe(true);
    type('Web password', 'box-pass');
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByText('Gateway Shop 7 added.')).toBeTruthy());
    // No settings to enter on the box: its lines never connect.
    expect(screen.queryByRole('dialog', { name: 'Set up Shop 7' })).toBeNull();
    expect(saved).toEqual([
      {
        gateway: {
          kind: 'goip',
          mode: 'web',
          name: 'Shop 7',
          url: 'http://192.168.1.70',
          userName: 'shop7',
          password: 'line-pass',
          webUser: 'admin',
          webPassword: 'box-pass',
          isEnable: true,
        },
      },
    ]);
  });

  it('edit a GoIP box: its kind is fixed; the settings to enter on it instead of push URLs', async () => {
    signInAdmin({ '/api/Admin/getSettings': settings([goipGw]) });
    renderApp('/gatewaymanager');
    fireEvent.click(within(await openMore(await tableRow('Shop 7'))).getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Gateway' });
    expect(within(dialog).getByText('GoIP box')).toBeTruthy();
    expect((within(dialog).getByLabelText('Box ID') as HTMLInputElement).value).toBe('shop7');
    const settingsPanel = within(dialog).getByRole('region', { name: 'Settings to enter on the box' });
    expect(within(settingsPanel).getByText('sms.example.com')).toBeTruthy();
    expect(within(settingsPanel).getByText('shop72')).toBeTruthy();
    // The stored password is never returned: named, not shown.
    expect(within(settingsPanel).getByText('The password saved for this gateway')).toBeTruthy();
    expect(within(dialog).queryByText(goipGw.pushUrls.sms)).toBeNull();
    // A new password typed here is the one to copy to the box.
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'new-pass' } });
    expect(within(settingsPanel).getByRole('button', { name: 'Copy Password' })).toBeTruthy();
  });

  it("a GoIP box's SIM panel: its lines as Line 1 and Line 2, with their signal; no number: how to rent it", async () => {
    const lineSims: Sim[] = [
      { ...sim, port: '1', iccid: '8901', number: '+84901234567', numberSource: 'device' },
      { ...sim, port: '2', iccid: '8902' },
    ];
    signInAdmin({
      '/api/Admin/getSettings': settings([goipGw]),
      '/api/Admin/gatewayReport': () => ({ body: { gateway: goipGw, sims: lineSims } }),
    });
    renderApp('/gatewaymanager');
    const sims = await openSims('Shop 7');
    const row = (await within(sims).findByText('Line 2')).closest('tr')!;
    expect(within(sims).getByText('Line 1')).toBeTruthy();
    expect(within(sims).getByRole('columnheader', { name: 'Line' })).toBeTruthy();
    expect(within(row).getByText('Set its number to rent it')).toBeTruthy();
    expect(within(row).getByText('Signal 20')).toBeTruthy();
    expect(
      screen.getByText('Where a line reports no number, enter its SIM’s number to rent it.'),
    ).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Lock the SIM on line 2' })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Set Number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set number for line 2' });
    expect(
      within(dialog).getByText(
        'The platform keeps this number for the SIM (by its line and ICCID); the box itself is not changed.',
      ),
    ).toBeTruthy();
  });

  it('Check balance on a line: a bad code is refused before sending; the reply shows and stays on the row', async () => {
    const codes: unknown[] = [];
    let line: Sim = { ...sim, port: '1', iccid: '8901' };
    const reply = 'Your balance is 12.50 USD';
    signInAdmin({
      '/api/Admin/getSettings': settings([goipGw]),
      '/api/Admin/gatewayReport': () => ({ body: { gateway: goipGw, sims: [line] } }),
      '/api/Admin/simUssd': (body) => {
        codes.push(body);
        line = { ...line, ussd: { code: '*101#', reply, at: '2026-11-30T00:00:00Z' } };
        return { body: { code: 1, msg: reply, sim: line } };
      },
    });
    renderApp('/gatewaymanager');
    const sims = await openSims('Shop 7');
    const row = (await within(sims).findByText('Line 1')).closest('tr')!;
    fireEvent.click(within(await openMore(row)).getByRole('menuitem', { name: 'Check balance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check the balance of line 1' });
    const code = within(dialog).getByLabelText('USSD code') as HTMLInputElement;
    expect(code.value).toBe('*100#');
    fireEvent.change(code, { target: { value: 'balance' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByText('Enter a USSD code such as *100#: *, # and digits.')).toBeTruthy();
    expect(codes).toEqual([]);
    fireEvent.change(code, { target: { value: ' *101# ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(codes).toEqual([{ gatewayId: goipGw.id, port: '1', code: '*101#' }]);
    // On the SIM's row (the toast says it too), still there after the list refreshed.
    await waitFor(() => expect(within(sims).getByText(reply)).toBeTruthy());
  });
});
