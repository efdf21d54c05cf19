import type { HistoryRecord } from '@simdock/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { loadLanguage } from '../../i18n/index.tsx';
import { formatDate } from '../../lib/format.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';
import { presetRange } from './history-range.ts';

const FAILED: HistoryRecord = {
  id: '1',
  receiver: '15550001111',
  sms: 'hello',
  userAlias: 'ann',
  status: 0,
  statusReason: '6 Timeout; 21 Short message transfer rejected',
  smsGateway: null,
  smsPort: null,
  timestamp: 1_772_600_000,
  cost: 0.02,
  refunded: true,
  mms: false,
};

const OK_BODY = {
  code: 1,
  data: {
    sum: { numCnt: 1, success: 0, replyUserCnt: 3, successRate: 0, replyRate: 0 },
    records: [FAILED],
    total: 1,
  },
};

type Answer = { status?: number; body: unknown };

function serve(history: () => Answer, daily?: () => Answer) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('ann')));
  return mockFetch((path) => {
    if (path === '/api/user/info') return { body: userInfoFor('ann', ['User']) };
    if (path === '/api/MassOutreach/querymsg') return history();
    if (path === '/api/MassOutreach/dailyStats' && daily) return daily();
    if (path === '/api/MassOutreach/dailyStats')
      // An empty period: the chart itself (recharts) does not load in this test environment.
      return {
        body: { code: 1, data: { days: [{ dayStart: 1_772_600_000, sent: 0, delivered: 0, replies: 0 }] } },
      };
    return { status: 404, body: { code: 0, error: 'not_found', msg: 'no' } };
  });
}

const sentBodies = (fetch: ReturnType<typeof serve>) =>
  fetch.mock.calls
    .filter(([p]) => p === '/api/MassOutreach/querymsg')
    .map(([, init]) => JSON.parse(String(init?.body)) as { params: { strTime: number; endTime: number } });

describe('History page', () => {
  it('names the tile by people (the chart names its bars by messages: chart-series.test.ts)', async () => {
    serve(() => ({ body: OK_BODY }));
    renderApp('/History');
    const label = await screen.findByText('Replied (people)');
    await waitFor(() => expect(label.closest('div')?.parentElement?.textContent).toContain('3'));
    expect(screen.queryByText('Reply')).toBeNull();
  });

  it('tells delivered (handset), sent (carrier took it, no delivery report yet), pending and failed apart', async () => {
    const row = (id: string, status: number): HistoryRecord => ({
      ...FAILED,
      id,
      receiver: `1555000${id.padStart(4, '0')}`,
      status,
      statusReason: null,
      refunded: false,
    });
    serve(() => ({
      body: {
        code: 1,
        data: { ...OK_BODY.data, records: [row('1', 1), row('2', 3), row('3', 2), row('4', 0)], total: 4 },
      },
    }));
    renderApp('/History');
    const table = await screen.findByRole('table', { name: 'Message Details' });
    const rows = async () => {
      await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(4), {
        timeout: 5000,
      });
      return within(table)
        .getAllByRole('row')
        .map((r) => r.textContent ?? '');
    };
    const statusIn = async (receiver: string) => (await rows()).find((r) => r.includes(receiver)) ?? '';
    expect(await statusIn('0001')).toContain('Success');
    expect(await statusIn('0002')).toContain('Sent');
    expect(await statusIn('0003')).toContain('Pending');
    expect(await statusIn('0004')).toContain('Failed');
  });

  it("shows a device's reason in plain words, with the device's text as its detail", async () => {
    serve(() => ({ body: OK_BODY }));
    renderApp('/History');
    const table = await screen.findByRole('table', { name: 'Message Details' });
    const summary = await within(table).findByText("The recipient's network refused it");
    expect(summary.tagName).toBe('SUMMARY');
    // The device's text is the detail, opened on demand; never a tooltip of raw codes.
    expect(summary.getAttribute('title')).toBeNull();
    expect(within(summary.closest('details')!).getByText(FAILED.statusReason!)).toBeTruthy();
  });

  it("shows a phone's failure as a plain reason, not its RESULT_ERROR_… code", async () => {
    const phone = 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)';
    serve(() => ({
      body: { ...OK_BODY, data: { ...OK_BODY.data, records: [{ ...FAILED, statusReason: phone }] } },
    }));
    renderApp('/History');
    const table = await screen.findByRole('table', { name: 'Message Details' });
    const summary = await within(table).findByText('The phone could not send it');
    expect(summary.tagName).toBe('SUMMARY');
    expect(within(summary.closest('details')!).getByText(phone)).toBeTruthy();
  });

  it('says a failed load failed, with a retry that loads it', async () => {
    let fail = true;
    serve(() =>
      fail
        ? { status: 400, body: { code: 0, error: 'bad_input', msg: 'The history could not be read.' } }
        : { body: OK_BODY },
    );
    renderApp('/History');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the history');
    // No figures of nothing: the tiles stay empty while the load failed.
    expect(screen.queryByText('Replied (people)')?.parentElement?.textContent).not.toContain('3');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await screen.findByText('hello');
  });

  it("says the chart's failed load failed, with a retry that loads it", async () => {
    let fail = true;
    serve(
      () => ({ body: OK_BODY }),
      () =>
        fail
          ? { status: 400, body: { code: 0, error: 'bad_input', msg: 'The chart could not be read.' } }
          : {
              body: {
                code: 1,
                data: { days: [{ dayStart: 1_772_600_000, sent: 0, delivered: 0, replies: 0 }] },
              },
            },
    );
    renderApp('/History');
    await screen.findByText('hello');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The chart could not be read.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await screen.findByText('Nothing was sent in this period.');
  });

  it('Apply with the same range loads it again (after a failure it is a retry too)', async () => {
    const fetch = serve(() => ({ body: OK_BODY }));
    renderApp('/History');
    await screen.findByText('hello');
    const before = sentBodies(fetch).length;
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(sentBodies(fetch).length).toBe(before + 1));
  });

  it('offers Today, 7 days and 30 days, and shows the range in the app format', async () => {
    const fetch = serve(() => ({ body: OK_BODY }));
    renderApp('/History');
    await screen.findByText('hello');
    const presets = screen.getByRole('group', { name: 'Quick ranges' });
    expect(within(presets).getByRole('button', { name: 'Today' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(presets).getByRole('button', { name: '7 days' }));
    const week = presetRange('days7');
    const start = new Date(`${week.start}T00:00:00`);
    await waitFor(() => expect(sentBodies(fetch).at(-1)?.params.strTime).toBe(start.getTime() / 1000));
    expect(within(presets).getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText('Start date') as HTMLInputElement).value).toBe(formatDate(start));
    expect(
      screen.getByText(`Showing ${formatDate(start)} to ${formatDate(new Date(`${week.end}T00:00:00`))}`),
    ).toBeTruthy();
  });

  it('keeps the preset and the range in the URL: a reload or a link shows the same days', async () => {
    const fetch = serve(() => ({ body: OK_BODY }));
    const { router } = renderApp('/History');
    await screen.findByText('hello');
    const presets = screen.getByRole('group', { name: 'Quick ranges' });
    fireEvent.click(within(presets).getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(router.state.location.search).toBe('?preset=days30'));
    // A range of its own: its days, typed in the app's format.
    const startField = screen.getByLabelText('Start date') as HTMLInputElement;
    const endField = screen.getByLabelText('End date') as HTMLInputElement;
    fireEvent.change(startField, { target: { value: '2026-03-01' } });
    fireEvent.change(endField, { target: { value: '2026-03-04' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?start=2026-03-01&end=2026-03-04'));
    await waitFor(() =>
      expect(sentBodies(fetch).at(-1)?.params.strTime).toBe(new Date('2026-03-01T00:00:00').getTime() / 1000),
    );
    // Back: the preset again, in the fields too.
    await router.navigate(-1);
    const month = presetRange('days30');
    await waitFor(() =>
      expect((screen.getByLabelText('Start date') as HTMLInputElement).value).toBe(month.start),
    );
    cleanup();
    // Opened from a link.
    renderApp('/History?start=2026-02-10&end=2026-02-12');
    await screen.findByText('hello');
    expect((screen.getByLabelText('End date') as HTMLInputElement).value).toBe('2026-02-12');
    expect(sentBodies(fetch).at(-1)?.params.strTime).toBe(new Date('2026-02-10T00:00:00').getTime() / 1000);
  });

  it("writes and reads the date fields in the app's format (Vietnamese: day/month/year)", async () => {
    await loadLanguage('vi');
    const fetch = serve(() => ({ body: OK_BODY }));
    renderApp('/History?start=2026-02-10&end=2026-02-12', { lang: 'vi' });
    await screen.findByText('hello');
    const startField = (await screen.findByLabelText('Từ ngày')) as HTMLInputElement;
    expect(startField.value).toBe('10/02/2026');
    fireEvent.change(startField, { target: { value: '09/02/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Áp dụng' }));
    await waitFor(() =>
      expect(sentBodies(fetch).at(-1)?.params.strTime).toBe(new Date('2026-02-09T00:00:00').getTime() / 1000),
    );
  });

  it('marks MMS rows', async () => {
    serve(() => ({
      body: {
        ...OK_BODY,
        data: { ...OK_BODY.data, records: [{ ...FAILED, id: '2', sms: 'a picture', mms: true }, FAILED] },
      },
    }));
    renderApp('/History');
    const table = await screen.findByRole('table', { name: 'Message Details' });
    const picture = (await within(table).findByText(/a picture/)).closest('tr')!;
    expect(within(picture).getByText('MMS')).toBeTruthy();
    const text = within(table).getByText('hello').closest('tr')!;
    expect(within(text).queryByText('MMS')).toBeNull();
  });
});
