import type { SecondFactorStatus } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../api/token.ts';
import { formatDateTime } from '../../lib/format.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const GOOD = '123456';
const RECOVERY = ['abcde-fghjk', 'mnpqr-stvwx'];
const ENABLED_AT = '2026-03-04T05:06:07.000Z';

const wrong = {
  status: 400,
  body: { code: 0, error: 'second_factor_invalid', msg: 'The code is not correct.', field: 'code' },
};

/**
 * A fake server holding one user's factor: start gives a secret, confirm takes GOOD and answers the
 * recovery codes, disable takes GOOD or a recovery code. Records every code sent, by path.
 */
function fakeServer(initial: Partial<SecondFactorStatus> = {}) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('alice')));
  let status: SecondFactorStatus = {
    code: 1,
    enabled: false,
    enabledAt: null,
    recoveryCodesLeft: 0,
    required: false,
    ...initial,
  };
  const sent: { path: string; code?: string }[] = [];
  mockFetch((path, init) => {
    const code = init?.body ? (JSON.parse(String(init.body)) as { code?: string }).code : undefined;
    if (path.startsWith('/api/user/secondFactor/')) sent.push({ path, code });
    switch (path) {
      case '/api/user/secondFactor/status':
        return { body: status };
      case '/api/user/secondFactor/start':
        return {
          body: {
            code: 1,
            secret: SECRET,
            uri: `otpauth://totp/SimDock:alice?secret=${SECRET}&issuer=SimDock`,
            qr: 'data:image/svg+xml;base64,PHN2Zy8+',
          },
        };
      case '/api/user/secondFactor/confirm':
        if (code !== GOOD) return wrong;
        status = { ...status, enabled: true, enabledAt: ENABLED_AT, recoveryCodesLeft: RECOVERY.length };
        return { body: { code: 1, msg: 'Two-factor authentication is on.', recoveryCodes: RECOVERY } };
      case '/api/user/secondFactor/disable':
        if (code !== GOOD && !RECOVERY.includes(code ?? '')) return wrong;
        status = { ...status, enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
        return { body: { code: 1, msg: 'Two-factor authentication is off.' } };
      case '/api/meta':
        return { body: { demo: false, serverTime: new Date().toISOString() } };
      default:
        return { body: userInfoFor('alice', ['User']) };
    }
  });
  return sent;
}

const card = async () => screen.findByTestId('second-factor');

describe('User Info: two-factor authentication', () => {
  it('enrols: QR and key, a wrong code is refused in the dialog, the right one shows the recovery codes once', async () => {
    const sent = fakeServer();
    renderApp('/userinfo');
    const section = await card();
    await within(section).findByText('Off');
    fireEvent.click(within(section).getByRole('button', { name: 'Turn on' }));

    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor authentication' });
    expect(within(dialog).getByRole('img', { name: 'QR code for the authenticator app' })).toBeTruthy();
    expect(within(dialog).getByTestId('manual-key').textContent).toBe(SECRET);

    const code = within(dialog).getByLabelText('6-digit code');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The code is not correct.')).toBeTruthy();
    within(dialog).getByText('That did not work.');

    fireEvent.change(code, { target: { value: GOOD } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(
      within(within(codes).getByTestId('recovery-codes'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(RECOVERY);

    fireEvent.click(within(codes).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await within(section).findByText(`On since ${formatDateTime(ENABLED_AT)}`);
    within(section).getByText('Recovery codes left: 2');
    expect(within(section).queryByRole('button', { name: 'Turn on' })).toBeNull();
    expect(sent.filter((s) => s.path !== '/api/user/secondFactor/status')).toEqual([
      { path: '/api/user/secondFactor/start', code: undefined },
      { path: '/api/user/secondFactor/confirm', code: '000000' },
      { path: '/api/user/secondFactor/confirm', code: GOOD },
    ]);
  }, 20_000);

  it('turns off with a recovery code (the field says so) and shows Off again', async () => {
    const sent = fakeServer({ enabled: true, enabledAt: ENABLED_AT, recoveryCodesLeft: 2 });
    renderApp('/userinfo');
    const section = await card();
    await within(section).findByText('Recovery codes left: 2');
    fireEvent.click(within(section).getByRole('button', { name: 'Turn off' }));

    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication' });
    const input = within(dialog).getByLabelText('Code from the app, or a recovery code');
    expect(input.getAttribute('inputmode')).toBe('text');
    // An empty field sends nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    fireEvent.change(input, { target: { value: RECOVERY[0] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await within(section).findByText('Off');
    within(section).getByRole('button', { name: 'Turn on' });
    expect(sent.filter((s) => s.path === '/api/user/secondFactor/disable')).toEqual([
      { path: '/api/user/secondFactor/disable', code: RECOVERY[0] },
    ]);
  }, 20_000);

  it('tells an admin who must enrol that it comes first', async () => {
    fakeServer({ required: true });
    renderApp('/userinfo');
    const section = await card();
    expect(
      await within(section).findByText(
        'Your administrator account must turn on two-factor authentication before anything else.',
      ),
    ).toBeTruthy();
  }, 20_000);
});
