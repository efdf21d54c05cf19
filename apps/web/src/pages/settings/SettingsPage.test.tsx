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
  updatedAt: null,
  updatedBy: null,
};

function serve() {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('root', 'Admin9')));
  return mockFetch((path, init) => {
    if (path === '/api/user/info') return { body: userInfoFor('root', ['Admin9']) };
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
