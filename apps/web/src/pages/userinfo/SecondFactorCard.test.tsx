import { SECOND_FACTOR_CODE_MAX, type SecondFactorStatus } from '@simdock/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forgetReauth } from '../../api/reauth.ts';
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

const PASSWORD = 'alice-password-1';
const PROOF = 'proof-1';

/**
 * A fake server holding one user's factor: start gives a secret, confirm takes GOOD and answers the
 * recovery codes, disable takes GOOD or a recovery code, or none after a re-authentication with a
 * code. The factor's calls need the re-authentication proof (403 reauth_required without it), which
 * /api/Auth/reauth gives for PASSWORD (and GOOD when the factor is on). Records every code sent, by path.
 */
function fakeServer(initial: Partial<SecondFactorStatus> = {}) {
  localStorage.setItem(TOKEN_KEY, fakeToken(claimsFor('alice')));
  forgetReauth();
  let proofHasCode = false;
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
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const guarded = path.startsWith('/api/user/secondFactor/') && path !== '/api/user/secondFactor/status';
    if (guarded && headers['x-reauth'] !== PROOF)
      return {
        status: 403,
        body: { code: 0, error: 'reauth_required', msg: 'Confirm your password to continue.' },
      };
    switch (path) {
      case '/api/Auth/reauth': {
        const b = JSON.parse(String(init?.body)) as { password: string; code?: string };
        if (b.password !== PASSWORD)
          return {
            status: 400,
            body: { code: 0, error: 'bad_input', msg: 'The password is not correct.', field: 'password' },
          };
        if (status.enabled && b.code !== GOOD) return wrong;
        proofHasCode = status.enabled;
        return { body: { code: 1, reauth: PROOF, expiresIn: 600 } };
      }
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
        if (!(code === '' && proofHasCode) && code !== GOOD && !RECOVERY.includes(code ?? '')) return wrong;
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

    // The shared re-authentication dialog comes first: a wrong password is said there.
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    const password = within(reauth).getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'not-it' } });
    fireEvent.click(within(reauth).getByRole('button', { name: 'Confirm' }));
    expect(await within(reauth).findByText('The password is not correct.')).toBeTruthy();
    fireEvent.change(password, { target: { value: PASSWORD } });
    fireEvent.click(within(reauth).getByRole('button', { name: 'Confirm' }));

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
      { path: '/api/user/secondFactor/start', code: undefined },
      { path: '/api/user/secondFactor/confirm', code: '000000' },
      { path: '/api/user/secondFactor/confirm', code: GOOD },
    ]);
  }, 20_000);

  it('enrolment code: required and held to the contract limit under the field, nothing sent', async () => {
    const sent = fakeServer();
    renderApp('/userinfo');
    const section = await card();
    fireEvent.click(await within(section).findByRole('button', { name: 'Turn on' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.change(within(reauth).getByLabelText('Password'), { target: { value: PASSWORD } });
    fireEvent.click(within(reauth).getByRole('button', { name: 'Confirm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor authentication' });
    const code = within(dialog).getByLabelText('6-digit code');
    expect(code.getAttribute('maxlength')).toBe(String(SECOND_FACTOR_CODE_MAX));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await within(dialog).findByText('Code is required');
    fireEvent.change(code, { target: { value: '1'.repeat(SECOND_FACTOR_CODE_MAX + 1) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await within(dialog).findByText(`Code must be at most ${SECOND_FACTOR_CODE_MAX} characters.`);
    expect(sent.filter((s) => s.path === '/api/user/secondFactor/confirm')).toEqual([]);
  }, 20_000);

  it('turns off through the re-authentication dialog (password and a code) and shows Off again', async () => {
    const sent = fakeServer({ enabled: true, enabledAt: ENABLED_AT, recoveryCodesLeft: 2 });
    renderApp('/userinfo');
    const section = await card();
    await within(section).findByText('Recovery codes left: 2');
    fireEvent.click(within(section).getByRole('button', { name: 'Turn off' }));

    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    const reauth = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.change(within(reauth).getByLabelText('Password'), { target: { value: PASSWORD } });
    const input = await within(reauth).findByLabelText('Code from the app, or a recovery code');
    fireEvent.change(input, { target: { value: GOOD } });
    fireEvent.click(within(reauth).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await within(section).findByText('Off');
    within(section).getByRole('button', { name: 'Turn on' });
    // Refused once for want of a re-authentication, then sent with the dialog's proof and no second code.
    expect(sent.filter((s) => s.path === '/api/user/secondFactor/disable')).toEqual([
      { path: '/api/user/secondFactor/disable', code: '' },
      { path: '/api/user/secondFactor/disable', code: '' },
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
