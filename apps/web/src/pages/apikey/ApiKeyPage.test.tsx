import { type ApiKeyInfo, WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const key = (over: Partial<ApiKeyInfo>): ApiKeyInfo => ({
  id: 'k1',
  name: 'Default',
  prefix: 'sd_Abc1234',
  scopes: ['rental', 'messaging:send', 'messaging:read'],
  allowedIps: [],
  expiresAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  lastUsedAt: null,
  isDefault: false,
  expired: false,
  ...over,
});

const KEYS: ApiKeyInfo[] = [
  key({ id: 'k-default', isDefault: true, lastUsedAt: '2026-03-02T08:30:00.000Z' }),
  key({
    id: 'k-ci',
    name: 'ci runner',
    prefix: 'sd_Zyx9876',
    scopes: ['rental'],
    allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
    expiresAt: '2030-01-01T00:00:00.000Z',
  }),
  key({
    id: 'k-old',
    name: 'old bot',
    scopes: ['messaging:read'],
    expiresAt: '2026-01-01T00:00:00.000Z',
    expired: true,
  }),
];

const HOOK: Webhook = {
  id: 'w1',
  url: 'https://hooks.example/in',
  events: ['code.received', 'message.failed'],
  format: 'simdock',
  secret: 'whsec_x',
  createdAt: '2026-03-01T10:00:00.000Z',
};

const DELIVERY: WebhookDelivery = {
  id: '77',
  url: HOOK.url,
  event: 'message.failed',
  eventId: 'evt_0123456789',
  status: 'failed',
  attempts: 8,
  lastStatus: 500,
  lastError: null,
  createdAt: '2026-03-02T09:00:00.000Z',
  deliveredAt: null,
  nextAttemptAt: null,
};

const NEW_KEY = `sd_${'N'.repeat(43)}`;

interface Served {
  keys?: () => { status?: number; body: unknown };
  webhooks?: Webhook[];
  smpp?: () => { status?: number; body: unknown };
}

function serve(opts: Served = {}) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  let keys = [...KEYS];
  return mockFetch((path, init) => {
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    switch (path) {
      case '/api/user/info':
        return { body: userInfoFor('ann', ['User']) };
      case '/api/user/apikey':
        return { body: { code: 1, apiKey: null } };
      case '/api/user/apikeys':
        return opts.keys ? opts.keys() : { body: { code: 1, keys, max: 10 } };
      case '/api/user/apikeys/create': {
        const made = key({
          id: 'k-new',
          name: body.name,
          scopes: body.scopes,
          allowedIps: body.allowedIps ?? [],
        });
        keys = [...keys, made];
        return { body: { code: 1, msg: 'API key created.', apiKey: NEW_KEY, key: made } };
      }
      case '/api/user/apikeys/smppPassword':
        return opts.smpp ? opts.smpp() : { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
      case '/api/user/reset-key':
        return { body: { code: 1, msg: 'API key reset success!', apiKey: NEW_KEY } };
      case '/api/user/apikeys/delete':
        keys = keys.filter((k) => k.id !== body.id);
        return { body: { code: 1, msg: 'API key deleted!' } };
      case '/api/user/webhooks':
        return { body: { code: 1, webhooks: opts.webhooks ?? [HOOK], max: 3 } };
      case '/api/user/webhooks/deliveries':
        return { body: { code: 1, deliveries: [DELIVERY] } };
      case '/api/user/webhooks/add':
        return {
          body: { code: 1, msg: 'ok', webhook: { ...HOOK, id: 'w2', url: body.url, events: body.events } },
        };
      case '/api/user/webhooks/events':
        return { body: { code: 1, msg: 'ok', webhook: { ...HOOK, events: body.events } } };
      case '/api/user/webhooks/redeliver':
        return {
          body: { code: 1, msg: 'Sent again.', deliveries: [{ ...DELIVERY, id: '78', status: 'delivered' }] },
        };
      default:
        return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
    }
  });
}

const bodiesTo = (fetch: ReturnType<typeof serve>, path: string) =>
  fetch.mock.calls.filter(([p]) => String(p) === path).map(([, init]) => JSON.parse(String(init?.body)));

const keysTable = () => screen.getByRole('table', { name: 'Your API keys' });

describe('API Key page: keys for programs', () => {
  it('lists every key with its scopes, addresses, expiry and last use; expired ones marked', async () => {
    serve();
    renderApp('/apikey');
    await screen.findByRole('heading', { name: 'Keys for programs' });
    await within(await screen.findByRole('table', { name: 'Your API keys' })).findByText('ci runner');
    // The default key is the card above, shown once: not a row here too.
    const rows = within(keysTable()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(keysTable()).queryByText('Default')).toBeNull();
    const [ci, old] = rows.map((r) => within(r));
    expect(ci!.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Rental API',
      '203.0.113.0/24',
      '2001:db8::/32',
    ]);
    expect(ci!.getByText('Not used yet')).toBeTruthy();
    expect(old!.getByText('Expired')).toBeTruthy();
    expect(old!.getByText('Read messages')).toBeTruthy();
    // The spec's single-key view is still there, above.
    expect(screen.getByTestId('api-key-none').textContent).toBe('No Apikey');
  });

  it('creates a key with checked input, then shows it once with a copy button', async () => {
    const fetch = serve();
    renderApp('/apikey');
    await within(await screen.findByRole('table', { name: 'Your API keys' })).findByText('ci runner');
    fireEvent.click(screen.getByRole('button', { name: 'New key' }));
    const dialog = await screen.findByRole('dialog', { name: 'New key for a program' });
    const d = within(dialog);

    fireEvent.click(d.getByRole('button', { name: 'Create key' }));
    await d.findByText('Enter a name for the key.');
    expect(d.getByText('Choose at least one scope.')).toBeTruthy();

    fireEvent.change(d.getByLabelText('Name'), { target: { value: ' billing ' } });
    fireEvent.click(d.getByRole('checkbox', { name: /Rental API/ }));
    fireEvent.click(d.getByRole('checkbox', { name: /Read messages/ }));
    fireEvent.change(d.getByLabelText('Allowed addresses (optional)'), {
      target: { value: '10.1.2.3/8\nexample.com' },
    });
    fireEvent.click(d.getByRole('button', { name: 'Create key' }));
    await d.findByText('"example.com" is not an IPv4 or IPv6 address or CIDR range.');
    expect(bodiesTo(fetch, '/api/user/apikeys/create')).toHaveLength(0);

    fireEvent.change(d.getByLabelText('Allowed addresses (optional)'), {
      target: { value: '10.1.2.3/8\n\n2001:DB8::1' },
    });
    fireEvent.change(d.getByLabelText('Expires on (optional)'), { target: { value: '2099-06-30' } });
    fireEvent.click(d.getByRole('button', { name: 'Create key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new key' });
    expect(bodiesTo(fetch, '/api/user/apikeys/create')).toEqual([
      {
        name: 'billing',
        scopes: ['rental', 'messaging:read'],
        allowedIps: ['10.0.0.0/8', '2001:db8::1'],
        expiresAt: new Date(2099, 6, 1).toISOString(),
      },
    ]);
    expect(within(shown).getByTestId('new-api-key').textContent).toBe(NEW_KEY);
    expect(within(shown).getByText(/you will not see it again/)).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy' })).toBeTruthy();
    fireEvent.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByText(NEW_KEY)).toBeNull());
    // The list read again: the new key is there, never in clear.
    await within(keysTable()).findByText('billing');
  });

  it('deletes a key after a confirmation; Cancel keeps it', async () => {
    const fetch = serve();
    renderApp('/apikey');
    await within(await screen.findByRole('table', { name: 'Your API keys' })).findByText('ci runner');
    fireEvent.click(screen.getByRole('button', { name: 'Delete key ci runner' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this key?' });
    expect(
      within(dialog).getByText(/Programs using "ci runner" \(sd_Zyx9876…\) stop working at once/),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fetch, '/api/user/apikeys/delete')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete key ci runner' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(keysTable()).queryByText('ci runner')).toBeNull());
    expect(bodiesTo(fetch, '/api/user/apikeys/delete')).toEqual([{ id: 'k-ci' }]);
  });

  it('says when there is no key yet, and when the list failed (with a retry)', async () => {
    let answer: { status?: number; body: unknown } = {
      status: 500,
      body: { code: 0, error: 'internal', msg: 'Server error' },
    };
    serve({ keys: () => answer });
    renderApp('/apikey');
    await screen.findByText('Could not load your API keys', undefined, { timeout: 14_000 });
    expect(screen.queryByText('No keys for programs yet.')).toBeNull();
    answer = { body: { code: 1, keys: [], max: 10 } };
    fireEvent.click(within(keysTable()).getByRole('button', { name: /try again/i }));
    await screen.findByText('No keys for programs yet.');
  }, 15_000);

  it('refuses a new key once the limit is reached', async () => {
    serve({
      keys: () => ({
        body: {
          code: 1,
          keys: Array.from({ length: 10 }, (_, i) => key({ id: `k${i}`, name: `k${i}` })),
          max: 10,
        },
      }),
    });
    renderApp('/apikey');
    await screen.findByText('You have 10 keys, the most allowed. Delete one to make another.');
    expect((screen.getByRole('button', { name: 'New key' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('API Key page: SMPP access', () => {
  const SENDER = key({ id: 'k-send', name: 'smpp box', scopes: ['messaging:send'] });
  const withSender = () => ({ body: { code: 1, keys: [...KEYS, SENDER], max: 10 } });
  const ANSWER = {
    code: 1,
    msg: 'SMPP password set: it is shown this once.',
    systemId: 'sd0a1b2c3d4e',
    password: 'Xy7pQ2mK',
    host: 'sms.example.com',
    port: 2775,
    tlsPort: null,
  };

  it('offers a new SMPP password only on keys with messaging:send', async () => {
    serve({ keys: withSender });
    renderApp('/apikey');
    await within(await screen.findByRole('table', { name: 'Your API keys' })).findByText('smpp box');
    expect(screen.getByRole('button', { name: 'New SMPP password for smpp box' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New SMPP password for ci runner' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New SMPP password for old bot' })).toBeNull();
    // The help names this page's host and the default ports before any answer.
    expect(screen.getByTestId('smpp-help').textContent).toMatch(/port 2775/);
  });

  it('asks first, then shows the answer once with a copy button per field', async () => {
    const fetch = serve({ keys: withSender, smpp: () => ({ body: ANSWER }) });
    renderApp('/apikey');
    fireEvent.click(await screen.findByRole('button', { name: 'New SMPP password for smpp box' }));
    const ask = await screen.findByRole('dialog', { name: 'New SMPP password?' });
    expect(within(ask).getByText(/old SMPP password stops working for new binds/)).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Make a new password' }));

    const shown = await screen.findByRole('dialog', { name: 'Your SMPP access' });
    expect(bodiesTo(fetch, '/api/user/apikeys/smppPassword')).toEqual([{ id: 'k-send' }]);
    const s = within(shown);
    expect(s.getByTestId('smpp-host').textContent).toBe('sms.example.com');
    expect(s.getByTestId('smpp-port').textContent).toBe('2775');
    expect(s.getByTestId('smpp-tls-port').textContent).toBe('TLS off');
    expect(s.getByTestId('smpp-system-id').textContent).toBe('sd0a1b2c3d4e');
    expect(s.getByTestId('smpp-password').textContent).toBe('Xy7pQ2mK');
    expect(s.getByText(/shown this once/)).toBeTruthy();
    for (const name of ['Host', 'Port', 'system_id', 'Password']) {
      expect(s.getByRole('button', { name: `Copy ${name}` })).toBeTruthy();
    }
    fireEvent.click(s.getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByText('Xy7pQ2mK')).toBeNull());
    // The help now names the server's own host and port.
    expect(screen.getByTestId('smpp-help').textContent).toMatch(/sms\.example\.com, port 2775 \(TLS off\)/);
  });

  it('shows a TLS port when the server has one', async () => {
    serve({ keys: withSender, smpp: () => ({ body: { ...ANSWER, tlsPort: 3550 } }) });
    renderApp('/apikey');
    fireEvent.click(await screen.findByRole('button', { name: 'New SMPP password for smpp box' }));
    const ask = await screen.findByRole('dialog', { name: 'New SMPP password?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Make a new password' }));
    const shown = await screen.findByRole('dialog', { name: 'Your SMPP access' });
    expect(within(shown).getByTestId('smpp-tls-port').textContent).toBe('3550');
    expect(within(shown).getByRole('button', { name: 'Copy TLS port' })).toBeTruthy();
  });

  it("shows the server's refusal in the dialog and no credentials", async () => {
    serve({
      keys: withSender,
      smpp: () => ({
        status: 400,
        body: {
          code: 0,
          error: 'api_key_scope_missing',
          msg: 'SMPP sends messages: choose a key with the messaging:send scope.',
          field: 'id',
        },
      }),
    });
    renderApp('/apikey');
    fireEvent.click(await screen.findByRole('button', { name: 'New SMPP password for smpp box' }));
    const ask = await screen.findByRole('dialog', { name: 'New SMPP password?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Make a new password' }));
    const alert = await within(ask).findByRole('alert');
    expect(alert.textContent).toMatch(/^Could not make the SMPP password: /);
    expect(screen.queryByRole('dialog', { name: 'Your SMPP access' })).toBeNull();
  });
});

describe('API Key page: webhook events', () => {
  it('adds a URL with the events left checked (all by default)', async () => {
    const fetch = serve({ webhooks: [] });
    renderApp('/apikey');
    await screen.findByText('No webhooks yet. Add a URL to receive codes as they arrive.');
    const boxes = within(screen.getByRole('group', { name: 'Events to send' })).getAllByRole('checkbox');
    expect(boxes).toHaveLength(WEBHOOK_EVENTS.length);
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /Message received/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Campaign finished/ }));
    fireEvent.change(screen.getByLabelText('Webhook URL'), {
      target: { value: 'https://hooks.example/new' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    await waitFor(() => expect(bodiesTo(fetch, '/api/user/webhooks/add')).toHaveLength(1));
    expect(bodiesTo(fetch, '/api/user/webhooks/add')[0]).toEqual({
      url: 'https://hooks.example/new',
      events: ['code.received', 'message.sent', 'message.delivered', 'message.failed'],
    });
  });

  it('needs at least one event to add a URL', async () => {
    const fetch = serve({ webhooks: [] });
    renderApp('/apikey');
    await screen.findByText('No webhooks yet. Add a URL to receive codes as they arrive.');
    for (const box of within(screen.getByRole('group', { name: 'Events to send' })).getAllByRole(
      'checkbox',
    )) {
      fireEvent.click(box);
    }
    fireEvent.change(screen.getByLabelText('Webhook URL'), {
      target: { value: 'https://hooks.example/new' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    await screen.findByText('Choose at least one event.');
    expect(bodiesTo(fetch, '/api/user/webhooks/add')).toHaveLength(0);
  });

  it("shows a URL's events and changes them in a dialog", async () => {
    const fetch = serve();
    renderApp('/apikey');
    const events = await screen.findByTestId('webhook-events');
    expect(events.textContent).toBe('Events: Incoming code (rental), Message failed');
    fireEvent.click(screen.getByRole('button', { name: `Choose the events for ${HOOK.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Events for this URL' });
    const d = within(dialog);
    expect((d.getByRole('checkbox', { name: /Incoming code/ }) as HTMLInputElement).checked).toBe(true);
    expect((d.getByRole('checkbox', { name: /Message sent/ }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(d.getByRole('checkbox', { name: /Message sent/ }));
    fireEvent.click(d.getByRole('checkbox', { name: /Incoming code/ }));
    fireEvent.click(d.getByRole('button', { name: 'Save events' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fetch, '/api/user/webhooks/events')).toEqual([
      { id: 'w1', events: ['message.sent', 'message.failed'] },
    ]);
  });

  it('shows each delivery’s event id and sends one again', async () => {
    const fetch = serve();
    renderApp('/apikey');
    const log = await screen.findByRole('table', { name: 'Webhook deliveries' });
    await within(log).findByText('evt_0123456789');
    fireEvent.click(within(log).getByRole('button', { name: 'Send delivery 77 again' }));
    await waitFor(() => expect(bodiesTo(fetch, '/api/user/webhooks/redeliver')).toEqual([{ id: '77' }]));
    await screen.findByText('Sent again.');
  });
});

describe('API Key page: the key of the spec', () => {
  it("says 'API key created' for a first key and 'API key reset success!' when it replaces one", async () => {
    serve();
    renderApp('/apikey');
    await screen.findByText('No Apikey');
    fireEvent.click(screen.getByRole('button', { name: 'New API Key' }));
    await screen.findByText('API key created');
    expect(screen.queryByText('API key reset success!')).toBeNull();
    expect(screen.getByTestId('api-key').textContent).toBe(NEW_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'New API Key' }));
    await screen.findByText('API key reset success!');
    expect(screen.queryByText('API key created')).toBeNull();
  });
});

describe('API Key page: the key banner belongs to its own action', () => {
  it('goes away once another action on the page starts (a webhook added, a key deleted)', async () => {
    const fetch = serve({ webhooks: [] });
    renderApp('/apikey');
    await screen.findByText('No Apikey');
    fireEvent.click(screen.getByRole('button', { name: 'New API Key' }));
    await screen.findByText('API key created');
    fireEvent.change(screen.getByLabelText('Webhook URL'), {
      target: { value: 'https://hooks.example/new' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    await waitFor(() => expect(bodiesTo(fetch, '/api/user/webhooks/add')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('API key created')).toBeNull());
    // And again with a program key's deletion.
    fireEvent.click(screen.getByRole('button', { name: 'New API Key' }));
    await screen.findByText('API key reset success!');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete key ci runner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('API key reset success!')).toBeNull());
  });
});
