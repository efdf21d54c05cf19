import { ReadableStream, type ReadableStreamDefaultController, TextDecoderStream } from 'node:stream/web';
import type { Order, PublicService } from '@simdock/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { myOrdersQuery, servicesQuery } from '../../api/orders.ts';
import { TOKEN_KEY } from '../../api/token.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import { createQueryClient } from '../../lib/queryClient.ts';
import { claimsFor, fakeToken, orderFor, renderApp, userInfoFor } from '../../test/utils.tsx';
import { formatCountdown, isPinnedRental, PinnedRentals } from './RentalCards.tsx';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');

const order = (o: Partial<Order> = {}) => orderFor({ id: '7', ...o });

/** An expiry 20 minutes from now (real time). */
const soon = () => new Date(Date.now() + 20 * 60_000).toISOString();

const service = (code: string, name: string, isRepeatable: boolean): PublicService => ({
  id: code,
  code,
  name,
  description: '',
  price: 0.5,
  available: 3,
  rentTimeMinutes: 20,
  isRepeatable,
});
const SERVICES = [service('tg', 'Telegram', false), service('go', 'Google', true)];

type Answer = { status?: number; body: unknown } | undefined;
type Handler = (path: string, body: unknown) => Answer | Promise<Answer>;

/** fetch answering JSON per path (recording each call); the live stream takes events from `push`. */
function stubFetch(handler: Handler) {
  // The test DOM lacks web streams: Node's serve the live stream.
  vi.stubGlobal('TextDecoderStream', TextDecoderStream);
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const calls: { path: string; body: unknown }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    if (path === '/api/Order/stream') {
      const live = new ReadableStream<Uint8Array>({
        start: (c) => {
          stream = c;
        },
      });
      return new Response(live as unknown as BodyInit, { headers: { 'content-type': 'text/event-stream' } });
    }
    const answer = (await handler(path, body)) ?? { body: { code: 1 } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  const push = (event: string, data: unknown) =>
    stream?.enqueue(new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  return { calls, push, streamOpen: () => stream !== undefined };
}

function renderPinned(orders: Order[]) {
  const qc = createQueryClient();
  qc.setQueryData(myOrdersQuery.queryKey, orders);
  qc.setQueryData(servicesQuery.queryKey, SERVICES);
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={qc}>
        <PinnedRentals />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return qc;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('isPinnedRental and formatCountdown', () => {
  it('pins waiting rentals and rentals with a code until finished or expired', () => {
    expect(isPinnedRental(order(), T0)).toBe(true);
    expect(isPinnedRental(order({ status: 'SUCCESS', codeText: '1' }), T0)).toBe(true);
    expect(isPinnedRental(order({ status: 'SUCCESS', codeText: '1', finished: true }), T0)).toBe(false);
    expect(isPinnedRental(order({ status: 'CANCEL' }), T0)).toBe(false);
    expect(isPinnedRental(order(), Date.parse('2026-11-22T10:20:00.000Z'))).toBe(false);
  });
  it('counts down as m:ss, h:mm:ss from an hour, never below zero', () => {
    expect(formatCountdown(20 * 60_000)).toBe('20:00');
    expect(formatCountdown(61_500)).toBe('1:01');
    expect(formatCountdown(3_600_000 + 5_000)).toBe('1:00:05');
    expect(formatCountdown(-3000)).toBe('0:00');
  });
});

describe('the pinned rental card', () => {
  it('ticks its countdown every second until the rental expires', () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date', 'setInterval', 'clearInterval'] });
    stubFetch((path) =>
      path === '/api/Order/getbyuser' ? { body: { code: 1, orders: [order()] } } : undefined,
    );
    renderPinned([order()]);
    const countdown = screen.getByTestId('rental-countdown');
    expect(countdown.textContent).toBe('20:00');
    expect(countdown.getAttribute('role')).toBe('timer');
    act(() => vi.advanceTimersByTime(1000));
    expect(countdown.textContent).toBe('19:59');
    act(() => vi.advanceTimersByTime(59_000));
    expect(countdown.textContent).toBe('19:00');
    expect(screen.getByText('Waiting for SMS…')).toBeTruthy();
  });

  it('shows an arrived code large, in the same card, with Copy and Finish; Finish closes the rental', async () => {
    const done = order({
      status: 'SUCCESS',
      codeText: '48213',
      smsText: 'Telegram code: 48213',
      expiresAt: soon(),
    });
    const { calls } = stubFetch((path) =>
      path === '/api/Order/finish'
        ? { body: { code: 1, msg: 'Order finished.', data: { ...done, finished: true } } }
        : undefined,
    );
    renderPinned([done]);
    const card = screen.getByRole('article', { name: 'Telegram number +1 555-000-0001' });
    const code = within(card).getByTestId('rental-code');
    expect(code.textContent).toBe('48213');
    expect(code.className).toMatch(/text-4xl/);
    expect(within(card).getByRole('button', { name: 'Copy code' })).toBeTruthy();
    // One code per number on this service: no "Another SMS".
    expect(within(card).queryByRole('button', { name: 'Another SMS' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Cancel' })).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(screen.queryByTestId('rental-card')).toBeNull());
    expect(calls.find((c) => c.path === '/api/Order/finish')?.body).toEqual({ orderId: '7' });
  });

  it('offers "Another SMS" only on a repeatable service, then waits for the next code', async () => {
    const withCode = order({
      id: '8',
      serviceCode: 'go',
      serviceName: 'Google',
      status: 'SUCCESS',
      codeText: '100001',
      expiresAt: soon(),
    });
    const { calls } = stubFetch((path) =>
      path === '/api/Order/anothersms' ? { body: { code: 1, msg: 'ok', data: withCode } } : undefined,
    );
    renderPinned([withCode, order({ id: '9', status: 'SUCCESS', codeText: '55555', expiresAt: soon() })]);
    const google = screen.getByRole('article', { name: 'Google number +1 555-000-0001' });
    const telegram = screen.getByRole('article', { name: 'Telegram number +1 555-000-0001' });
    expect(within(telegram).queryByRole('button', { name: 'Another SMS' })).toBeNull();
    fireEvent.click(within(google).getByRole('button', { name: 'Another SMS' }));
    await within(google).findByText('Waiting for another SMS…');
    expect(calls.find((c) => c.path === '/api/Order/anothersms')?.body).toEqual({ orderId: '8' });
    expect((within(google).getByRole('button', { name: 'Another SMS' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    // The last code stays in view meanwhile.
    expect(within(google).getByTestId('rental-code').textContent).toBe('100001');
  });
});

describe('on the Dashboard', () => {
  const signIn = () => localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));

  it('“My numbers” shows its times like every page: words, with the exact date and time as the tooltip', async () => {
    signIn();
    const waiting = order({
      id: '41',
      expiresAt: soon(),
      cancelableAt: new Date(Date.now() + 90_000).toISOString(),
    });
    stubFetch((path) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
      if (path === '/api/Service/getall') return { body: { code: 1, services: SERVICES } };
      if (path === '/api/Order/getbyuser') return { body: { code: 1, orders: [waiting] } };
      if (path === '/api/Order/stats') return { body: { activeNumbers: 1, dailyRentals: 1, uptime: null } };
      return undefined;
    });
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'My numbers' });
    const left = await within(table).findByText('expires in 20 min');
    expect(left.tagName).toBe('TIME');
    expect(left.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const cancel = within(table).getByText(/^You can cancel in /);
    expect(cancel.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('moves the focus to the new rental’s card after Rent', async () => {
    signIn();
    const rented = order({ id: '21', expiresAt: soon() });
    let orders: Order[] = [];
    stubFetch((path) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
      if (path === '/api/Service/getall') return { body: { code: 1, services: SERVICES } };
      if (path === '/api/Order/getbyuser') return { body: { code: 1, orders } };
      if (path === '/api/Order/create') {
        orders = [rented];
        return { body: { code: 1, data: rented } };
      }
      if (path === '/api/Order/stats') return { body: { activeNumbers: 0, dailyRentals: 0, uptime: null } };
      return undefined;
    });
    renderApp('/dashboard');
    const rent = await screen.findByRole('button', { name: 'Rent a Telegram number' });
    rent.focus();
    fireEvent.click(rent);
    const card = await screen.findByRole('article', { name: 'Telegram number +1 555-000-0001' });
    await waitFor(() => expect(document.activeElement).toBe(card));
  });

  it('badges the tab title and favicon when a code arrives in a hidden tab, and clears them when shown', async () => {
    signIn();
    const waiting = order({ id: '31', expiresAt: soon() });
    const live = stubFetch((path) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
      if (path === '/api/Service/getall') return { body: { code: 1, services: SERVICES } };
      if (path === '/api/Order/getbyuser') return { body: { code: 1, orders: [waiting] } };
      if (path === '/api/Order/stats') return { body: { activeNumbers: 1, dailyRentals: 1, uptime: null } };
      return undefined;
    });
    const icon = document.createElement('link');
    icon.rel = 'icon';
    icon.href = '/favicon.svg';
    document.head.append(icon);
    renderApp('/dashboard');
    await screen.findByRole('article', { name: 'Telegram number +1 555-000-0001' });
    await waitFor(() => expect(live.streamOpen()).toBe(true));
    const title = document.title;

    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange'));
    await act(async () => {
      live.push('order', {
        ...waiting,
        status: 'SUCCESS',
        codeText: '48213',
        smsText: 'Telegram code 48213',
      });
    });
    await waitFor(() => expect(document.title).toBe('(1) New code 48213'));
    expect(icon.getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    // The code is in the pinned card, large.
    expect(screen.getByTestId('rental-code').textContent).toBe('48213');
    // The code toast and the bell's notification show the number as people read it.
    expect(await screen.findByText('Number +1 555-000-0001')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Notifications/ }));
    // (Not the rent toast of an earlier test, "Number … rented for …": toasts outlive a render.)
    await waitFor(() => expect(screen.getAllByText(/^Number \+1 555-000-0001( ·|$)/)).toHaveLength(2));

    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(document.title).toBe(title);
    expect(icon.getAttribute('href')).toBe('/favicon.svg');
    icon.remove();
  });

  /** The Dashboard of "ann" with these orders; `more` answers other calls. */
  function dashboard(orders: () => Order[], more: Handler = () => undefined) {
    signIn();
    return stubFetch((path, body) => {
      if (path === '/api/user/info') return { body: userInfoFor('ann', ['User'], 5) };
      if (path === '/api/Service/getall') return { body: { code: 1, services: SERVICES } };
      if (path === '/api/Order/getbyuser') return { body: { code: 1, orders: orders() } };
      if (path === '/api/Order/stats') return { body: { activeNumbers: 1, dailyRentals: 1, uptime: null } };
      return more(path, body);
    });
  }

  it('an SMS without a recognised code: the card shows it whole with Copy; toast, tab title and bell fire', async () => {
    const waiting = order({ id: '51', expiresAt: soon() });
    const live = dashboard(() => [waiting]);
    renderApp('/dashboard');
    const card = await screen.findByRole('article', { name: 'Telegram number +1 555-000-0001' });
    await waitFor(() => expect(live.streamOpen()).toBe(true));
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    const text = 'Welcome to Telegram! Your account is being set up, reply STOP to opt out.';
    await act(async () => {
      live.push('order', { ...waiting, smsText: text });
    });
    const sms = await within(card).findByTestId('rental-sms');
    expect(within(sms).getByText('SMS received, no code recognised')).toBeTruthy();
    expect(within(sms).getByText(text)).toBeTruthy();
    expect(within(sms).getByRole('button', { name: 'Copy SMS' })).toBeTruthy();
    expect(within(card).queryByText('Waiting for SMS…')).toBeNull();
    // "My numbers" says the same, not "Waiting for SMS…" above the SMS.
    const table = screen.getByRole('table', { name: 'My numbers' });
    expect(await within(table).findByText('SMS received, no code recognised')).toBeTruthy();
    expect(within(table).queryByText('Waiting for SMS…')).toBeNull();
    // As for a code: the tab's title, the toast, the bell.
    await waitFor(() => expect(document.title).toBe('(1) New SMS'));
    expect(await screen.findByText('SMS for Telegram: no code recognised')).toBeTruthy();
    expect(screen.getByText(`Number +1 555-000-0001: ${text}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Notifications, 1 unread/ }));
    const panel = await screen.findByRole('dialog');
    expect(within(panel).getByText('SMS for Telegram: no code recognised')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Copy the SMS to +1 555-000-0001' })).toBeTruthy();
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
  });

  it('a one-code rental stops counting down once its code is in; a repeatable one keeps counting', async () => {
    dashboard(() => [
      order({ id: '61', status: 'SUCCESS', codeText: '11111', expiresAt: soon() }),
      order({
        id: '62',
        serviceCode: 'go',
        serviceName: 'Google',
        status: 'SUCCESS',
        codeText: '22222',
        expiresAt: soon(),
      }),
    ]);
    renderApp('/dashboard');
    const once = await screen.findByRole('article', { name: 'Telegram number +1 555-000-0001' });
    const repeatable = screen.getByRole('article', { name: 'Google number +1 555-000-0001' });
    expect(within(once).queryByRole('timer')).toBeNull();
    expect(within(once).getByTestId('rental-done').textContent).toBe('Done');
    expect(within(repeatable).getByRole('timer')).toBeTruthy();
  });

  it('“My numbers” says a finished rental is done, not when it expires', async () => {
    dashboard(() => [
      order({
        id: '71',
        serviceCode: 'go',
        serviceName: 'Google',
        status: 'SUCCESS',
        codeText: '1',
        expiresAt: soon(),
        finished: true,
      }),
    ]);
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'My numbers' });
    expect(await within(table).findByText('Done')).toBeTruthy();
    expect(within(table).queryByText(/^expires /)).toBeNull();
  });

  it('Cancel says the refund even when the live event removed the card first, and keeps the focus on the page', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const a = order({ id: '81', expiresAt: soon(), cancelableAt: past });
    const b = order({
      id: '82',
      phoneNumber: '15550000002',
      price: 0.75,
      expiresAt: soon(),
      cancelableAt: past,
    });
    let orders = [a, b];
    const live: { push: (e: string, d: unknown) => void } = dashboard(
      () => orders,
      async (path, body) => {
        if (path !== '/api/Order/cancel') return undefined;
        const id = (body as { orderId: string }).orderId;
        const cancelled = { ...(id === a.id ? a : b), status: 'CANCEL' as const };
        orders = orders.map((o) => (o.id === id ? cancelled : o));
        // The change's live event comes before the answer: the card is gone when it arrives.
        live.push('order', cancelled);
        await waitFor(() => expect(document.querySelector(`[data-order-id="${id}"]`)).toBeNull());
        return { body: { code: 1, msg: 'Order cancelled.', data: cancelled } };
      },
    );
    renderApp('/dashboard');
    const second = await screen.findByRole('article', { name: 'Telegram number +1 555-000-0002' });
    const first = screen.getByRole('article', { name: 'Telegram number +1 555-000-0001' });
    const cancelFirst = within(first).getByRole('button', { name: 'Cancel' });
    cancelFirst.focus();
    fireEvent.click(cancelFirst);
    expect(await screen.findByText('Order cancelled; $0.50 was refunded to your balance.')).toBeTruthy();
    // The next rental's card takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(second));
    const cancelSecond = within(second).getByRole('button', { name: 'Cancel' });
    cancelSecond.focus();
    fireEvent.click(cancelSecond);
    expect(await screen.findByText('Order cancelled; $0.75 was refunded to your balance.')).toBeTruthy();
    // The last one gone: "My numbers", where the rental now is.
    await waitFor(() => expect(document.activeElement?.id).toBe('my-numbers'));
  });

  it('Finish and “Another SMS” keep the focus on the page', async () => {
    const once = order({ id: '91', status: 'SUCCESS', codeText: '33333', expiresAt: soon() });
    const rep = order({
      id: '92',
      serviceCode: 'go',
      serviceName: 'Google',
      status: 'SUCCESS',
      codeText: '44444',
      expiresAt: soon(),
    });
    let orders = [rep, once];
    dashboard(
      () => orders,
      (path) => {
        if (path === '/api/Order/anothersms') return { body: { code: 1, msg: 'ok', data: rep } };
        if (path !== '/api/Order/finish') return undefined;
        orders = [rep, { ...once, finished: true }];
        return { body: { code: 1, msg: 'Order finished.', data: { ...once, finished: true } } };
      },
    );
    renderApp('/dashboard');
    const google = await screen.findByRole('article', { name: 'Google number +1 555-000-0001' });
    const telegram = screen.getByRole('article', { name: 'Telegram number +1 555-000-0001' });
    const finish = within(telegram).getByRole('button', { name: 'Finish' });
    finish.focus();
    fireEvent.click(finish);
    await waitFor(() => expect(screen.queryByRole('article', { name: /^Telegram/ })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(google));
    const another = within(google).getByRole('button', { name: 'Another SMS' });
    another.focus();
    fireEvent.click(another);
    await within(google).findByText('Waiting for another SMS…');
    expect(document.activeElement).toBe(google);
  });

  it('the rent toast and the copy buttons name the number as it is shown', async () => {
    const rented = order({ id: '99', phoneNumber: '12025550123', expiresAt: soon() });
    let orders: Order[] = [];
    dashboard(
      () => orders,
      (path) => {
        if (path !== '/api/Order/create') return undefined;
        orders = [rented];
        return { body: { code: 1, data: rented } };
      },
    );
    renderApp('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Rent a Telegram number' }));
    expect(await screen.findByText(/^Number \+1 202-555-0123 rented for Telegram\./)).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Telegram number +1 202-555-0123' });
    expect(within(card).getByRole('button', { name: 'Copy +1 202-555-0123' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy 12025550123' })).toBeNull();
  });
});
