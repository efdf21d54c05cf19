import type { MassOutreachSettings } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

type Answer = { status?: number; body: unknown };
type Handler = (body: { number: string; mess: string }) => Answer;

const settings = (over: Partial<MassOutreachSettings> = {}): MassOutreachSettings => ({
  maxBatchSendSms: 20,
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
  ...over,
});

const ok = (over: Record<string, unknown> = {}): Answer => ({
  body: {
    code: 1,
    msg: 'Send successful!',
    data: {
      campaignId: '7',
      queued: 1,
      duplicatesRemoved: 0,
      skippedOptOut: 0,
      cost: 0.0075,
      balance: 9.9925,
      ...over,
    },
  },
});

/** Signs in as ann (balance `balance`) with these outreach settings; `send` answers sendMassSMS. */
function open(opts: { settings?: MassOutreachSettings; balance?: number; send?: Handler } = {}) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann', 'User')));
  const sent: { number: string; mess: string }[] = [];
  const fetch = mockFetch((path, init) => {
    if (path === '/api/MassOutreach/getSettings') return { body: opts.settings ?? settings() };
    if (path === '/api/MassOutreach/campaign') return { body: { code: 1, data: null } };
    if (path === '/api/MassOutreach/sendMassSMS') {
      const body = JSON.parse(String(init?.body)) as { number: string; mess: string };
      sent.push(body);
      return (opts.send ?? (() => ok()))(body);
    }
    if (path === '/api/livechat/unreadCount')
      return { body: { code: 1, data: { conversations: 0, replies: 0 } } };
    if (path === '/api/meta') return { body: { demo: false, serverTime: new Date().toISOString() } };
    return { body: userInfoFor('ann', ['User'], opts.balance ?? 10) };
  });
  renderApp('/SMS_SendingPage');
  return { fetch, sent };
}

const numbers = () =>
  screen.getByLabelText('Phone numbers, one per line: 1 followed by 10 digits (1XXXXXXXXXX)');
const content = () => screen.getByLabelText(/^Messages, one per line/);
const start = () => screen.getByRole('button', { name: 'Start Mass Send' });
const ready = async () => {
  await screen.findByRole('heading', { level: 1, name: 'SMS Sending (Max: 20)' });
  await waitFor(() => expect((start() as HTMLButtonElement).disabled).toBe(false));
};
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });
/** The exact amount behind a shown amount (<data value>), by its label in the cost summary. */
const amount = (label: string) =>
  within(screen.getByTestId('send-cost')).getByText(label).parentElement!.querySelector('data')!;

describe('SMS Sending: one attempt, one message', () => {
  it('a new attempt clears the last success before its own error shows', async () => {
    open();
    await ready();
    type(numbers(), '15551234567');
    type(content(), 'Hello');
    fireEvent.click(start());
    await screen.findByText('Send successful!');
    expect(screen.getByText(/Charged \$0\.0075; your balance is now \$9\.9925\./)).toBeTruthy();

    type(numbers(), '15551234567\nabc');
    type(content(), 'Hello again');
    fireEvent.click(start());
    await screen.findByText('Invalid numbers (only accept format: 1XXXXXXXXXX): abc');
    expect(screen.queryByText('Send successful!')).toBeNull();
  });

  it('a new attempt clears the last failure, even one the rules refuse before sending', async () => {
    let answer: Answer = {
      status: 409,
      body: { code: 0, error: 'daily_limit_reached', msg: 'Daily limit reached!' },
    };
    open({ send: () => answer });
    await ready();
    type(numbers(), '15551234567');
    type(content(), 'Hello');
    fireEvent.click(start());
    await screen.findByText(/Daily limit reached!/);

    // Refused by the rules before any request: the server's old answer is not this attempt's.
    type(numbers(), '15551234567\n123');
    fireEvent.click(start());
    await screen.findByText('Invalid numbers (only accept format: 1XXXXXXXXXX): 123');
    expect(screen.queryByText(/Daily limit reached!/)).toBeNull();

    answer = ok();
    type(numbers(), '15551234567');
    fireEvent.click(start());
    await screen.findByText('Send successful!');
    expect(screen.queryByText(/Daily limit reached!/)).toBeNull();
  });

  it('a 402 shows its message and a link to Top up', async () => {
    open({
      send: () => ({
        status: 402,
        body: {
          code: 0,
          error: 'balance_too_low',
          msg: 'This costs $0.0075 and your balance is $0.0050. Please top up.',
        },
      }),
    });
    await ready();
    type(numbers(), '15551234567');
    type(content(), 'Hello');
    fireEvent.click(start());
    const alert = await screen.findByText(
      /This costs \$0\.0075 and your balance is \$0\.0050\. Please top up\./,
    );
    const link = within(alert.closest('[role=alert]') as HTMLElement).getByRole('link', { name: 'Top up' });
    expect(link.getAttribute('href')).toBe('/topup');
  });
});

describe('SMS Sending: numbers', () => {
  it('formatted numbers are sent as 1XXXXXXXXXX, a number written two ways once', async () => {
    const { sent } = open();
    await ready();
    type(numbers(), '+1 (555) 123-4567\n15551234567\n1.555.123.4568');
    type(content(), 'Hello');
    expect(screen.getByText('2 valid · 0 invalid · 1 repeated')).toBeTruthy();
    fireEvent.click(start());
    await screen.findByText('Send successful!');
    expect(sent).toEqual([{ number: '15551234567\n15551234568', mess: 'Hello' }]);
  });

  it('a paste over the limit is kept and marked; Start Mass Send waits until it fits', async () => {
    const { sent } = open({ settings: settings({ maxBatchSendSms: 2 }) });
    await screen.findByRole('heading', { level: 1, name: 'SMS Sending (Max: 2)' });
    const three = '15551234567\n15551234568\n15551234569';
    type(numbers(), three);
    type(content(), 'Hello');
    expect((numbers() as HTMLTextAreaElement).value).toBe(three);
    await screen.findByText('Limit is 2 numbers. 1 over the limit: remove some to send.');
    expect(numbers().getAttribute('aria-invalid')).toBe('true');
    expect((start() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(start());
    expect(sent).toEqual([]);

    type(numbers(), '15551234567\n15551234568');
    await waitFor(() => expect((start() as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByText(/over the limit/)).toBeNull();
  });

  it('a CSV with a header: the phone column, only really invalid numbers listed', async () => {
    open();
    await ready();
    fireEvent.mouseDown(screen.getAllByRole('tab', { name: 'Upload File' })[0]!);
    const input = await waitFor(() => {
      const el = document.querySelector<HTMLInputElement>('input[type=file]');
      if (!el) throw new Error('no file input yet');
      return el;
    });
    const csv =
      'Name,Phone,Note\n"Lee, Ann",+1 (555) 123-4567,"VIP, call first"\nBob,15551234568,\nCy,999,\n';
    fireEvent.change(input, { target: { files: [new File([csv], 'contacts.csv', { type: 'text/csv' })] } });
    await screen.findByText('Loaded 2 numbers from contacts.csv. Numbers taken from the column "Phone".');
    expect(screen.getByText('Invalid numbers in file: 999')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Input Number' }));
    expect((numbers() as HTMLTextAreaElement).value).toBe('15551234567\n15551234568');

    // The file's notices belong to the list it gave: once that list is sent, they go with it.
    type(content(), 'Hello');
    fireEvent.click(start());
    await screen.findByText('Send successful!');
    fireEvent.mouseDown(screen.getAllByRole('tab', { name: 'Upload File' })[0]!);
    await waitFor(() => expect(document.querySelector('input[type=file]')).not.toBeNull());
    expect(screen.queryByText(/Loaded 2 numbers from contacts\.csv/)).toBeNull();
    expect(screen.queryByText('Invalid numbers in file: 999')).toBeNull();
  });
});

describe('SMS Sending: cost', () => {
  it('shows the cost of this send, the balance and the balance after', async () => {
    open({ balance: 10 });
    await ready();
    await screen.findByText(/Price: \$0\.0075 per SMS segment\./);
    type(numbers(), '15551234567\n15551234568\n15551234569');
    // Rotation: the 1st and 3rd get the short line (1 segment), the 2nd the long one (71 UCS-2: 2).
    type(content(), `Hello\nXin chào ${'ạ'.repeat(62)}`);
    await screen.findByText('Messages: 3 · SMS segments: 4');
    expect(amount('Cost of this send').value).toBe('0.0300');
    expect(amount('Your balance').value).toBe('10.0000');
    expect(amount('Balance after').value).toBe('9.9700');
    expect(amount('Balance after').textContent).toBe('$9.9700');
    expect(screen.queryByText('Your balance does not cover this send.')).toBeNull();
  });

  it('prices the valid numbers only; with no valid number Start waits and says why', async () => {
    const { sent } = open({ balance: 10 });
    await ready();
    type(content(), 'Hello');
    type(numbers(), '15551234567\n123\nabc\n15551234568');
    await screen.findByText('Messages: 2 · SMS segments: 2');
    expect(amount('Cost of this send').value).toBe('0.0150');
    expect((start() as HTMLButtonElement).disabled).toBe(false);

    type(numbers(), '123\nabc');
    await waitFor(() => expect((start() as HTMLButtonElement).disabled).toBe(true));
    const why = screen.getByText('Add at least one valid number to send.');
    expect(start().getAttribute('aria-describedby')).toBe(why.id);
    expect(screen.queryByTestId('send-cost')).toBeNull();
    fireEvent.click(start());
    expect(sent).toEqual([]);
  });

  it('the success text leaves out the parts that did not happen', async () => {
    let answer = ok({ queued: 3 });
    open({ send: () => answer });
    await ready();
    type(numbers(), '15551234567\n15551234568\n15551234569');
    type(content(), 'Hello');
    fireEvent.click(start());
    const done = (await screen.findByText('Send successful!')).closest('[role]') as HTMLElement;
    expect(done.textContent).toContain('3 messages queued. Charged');
    expect(done.textContent).not.toMatch(/repeated|opted out/);

    answer = ok({ queued: 1, duplicatesRemoved: 1, skippedOptOut: 2 });
    type(numbers(), '15551234567\n15551234567\n15551234568\n15551234569');
    type(content(), 'Hello');
    fireEvent.click(start());
    await screen.findByText(
      /1 message queued\. 1 repeated number sent once\. 2 recipients who opted out skipped\. Charged/,
    );
  });

  it('warns and keeps sending off when the balance does not cover it, with Top up', async () => {
    const { sent } = open({ balance: 0.01 });
    await screen.findByRole('heading', { level: 1, name: 'SMS Sending (Max: 20)' });
    type(numbers(), '15551234567\n15551234568');
    type(content(), 'Hello');
    const warning = await screen.findByText('Your balance does not cover this send.');
    expect(
      within(warning.closest('[role=alert]') as HTMLElement).getByRole('link', { name: 'Top up' }),
    ).toBeTruthy();
    expect(amount('Balance after').value).toBe('-0.0050');
    expect((start() as HTMLButtonElement).disabled).toBe(true);
    expect(start().getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(start());
    expect(sent).toEqual([]);

    type(numbers(), '15551234567');
    await waitFor(() => expect((start() as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByText('Your balance does not cover this send.')).toBeNull();
  });

  it('free sending is one quiet line, and never blocks', async () => {
    open({ settings: settings({ smsPricePerSegment: 0, mmsPrice: 0 }), balance: 0 });
    await ready();
    type(numbers(), '15551234567');
    type(content(), 'Hello');
    const line = await screen.findByText('Sending is free: these messages cost nothing.');
    expect(line.getAttribute('role')).toBeNull();
    expect(screen.queryByText('Cost of this send')).toBeNull();
    expect((start() as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('SMS Sending: prices by destination country', () => {
  it('groups the cost by country and refuses countries not enabled before sending', async () => {
    open({
      settings: settings({
        countries: [
          { country: 'CA', name: 'Canada', smsPricePerSegment: 0.0913, mmsPrice: null, enabled: true },
          { country: 'JM', name: 'Jamaica', smsPricePerSegment: null, mmsPrice: null, enabled: false },
        ],
      }),
    });
    await ready();
    // Two in Canada, one in the US, one in Jamaica.
    type(numbers(), '14165551001\n14165551002\n12025550123\n18765551234');
    type(content(), 'Hello');
    const table = await screen.findByTestId('send-cost-countries');
    const ca = within(table).getByRole('row', { name: /Canada/ });
    expect(ca.textContent).toContain('🇨🇦');
    expect(
      within(ca)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '2', '$0.1826']);
    const us = within(table).getByRole('row', { name: /United States/ });
    expect(
      within(us)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', '1', '$0.0075']);
    expect(within(table).getByRole('row', { name: /Jamaica/ }).textContent).toContain('not enabled');
    // 0.1826 + 0.0075 + 0.0075 (Jamaica at the default, though it cannot be sent to).
    expect(amount('Cost of this send').value).toBe('0.1976');
    const refused = screen.getByTestId('refused-countries');
    expect(refused.textContent).toContain('Messages to Jamaica (1) are not enabled');
    expect((start() as HTMLButtonElement).disabled).toBe(true);
    expect(start().getAttribute('aria-describedby')).toBe(refused.id);
    // Without the Jamaican number the send may go.
    type(numbers(), '14165551001\n12025550123');
    await waitFor(() => expect((start() as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByTestId('refused-countries')).toBeNull();
  });

  it('refuses every unlisted country when the operator allows only the listed ones', async () => {
    open({
      settings: settings({
        otherCountriesEnabled: false,
        countries: [
          { country: 'CA', name: 'Canada', smsPricePerSegment: null, mmsPrice: null, enabled: true },
        ],
      }),
    });
    await ready();
    type(numbers(), '12025550123\n14165551001');
    type(content(), 'Hello');
    expect((await screen.findByTestId('refused-countries')).textContent).toContain('United States (1)');
    expect((start() as HTMLButtonElement).disabled).toBe(true);
  });
});
