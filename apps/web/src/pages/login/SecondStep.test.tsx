import { SECOND_FACTOR_CODE_MAX } from '@simdock/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { getToken } from '../../api/token.ts';
import { claimsFor, fakeToken, mockFetch, renderApp, userInfoFor } from '../../test/utils.tsx';
import { attemptsAfter } from './SecondStep.tsx';

const CHALLENGE = 'challenge-abc';
const challengeAnswer = { secondFactor: true, challenge: CHALLENGE, expiresIn: 300, attemptsLeft: 5 };
const wrongCode = (left: number) => ({
  status: 400,
  body: {
    code: 0,
    error: 'second_factor_invalid',
    // The server's own wording: the last wrong code voids the challenge.
    msg:
      left > 0
        ? `The code is not correct. ${left} attempts left.`
        : 'The code is not correct. Please sign in again.',
    field: 'code',
  },
});

/**
 * A fake server: the password step answers with a challenge; the second step takes `good` (the
 * app's code or a recovery code) for a token, anything else counts as a wrong code.
 */
function fakeServer(good: string, token: string, second?: () => { status: number; body: unknown }) {
  const codes: unknown[] = [];
  let left = 5;
  mockFetch((path, init) => {
    if (path === '/api/Auth/login') return { body: challengeAnswer };
    if (path === '/api/Auth/secondFactor') {
      const body = JSON.parse(String(init?.body)) as { challenge: string; code: string };
      codes.push(body);
      if (second) return second();
      if (body.challenge === CHALLENGE && body.code === good) return { body: { token } };
      left -= 1;
      return wrongCode(left);
    }
    if (path === '/api/user/info') return { body: userInfoFor('alice', ['User']) };
    return { body: { code: 1, data: [] } };
  });
  return codes;
}

async function passwordStep() {
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'alice' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right-pass' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  await screen.findByText('Enter the 6-digit code from your authenticator app.');
}

describe('attemptsAfter', () => {
  it('counts down on a wrong code only, never below zero', () => {
    const wrong = new ApiError('The code is not correct.', 400, 'second_factor_invalid');
    expect(attemptsAfter(5, wrong)).toBe(4);
    expect(attemptsAfter(0, wrong)).toBe(0);
    expect(attemptsAfter(3, new ApiError('Server error', 500, 'internal'))).toBe(3);
    expect(attemptsAfter(3, new Error('offline'))).toBe(3);
  });
});

describe('login: the second step', () => {
  it('a wrong code shows the error and the attempts left; the right one signs in to the dashboard', async () => {
    const token = fakeToken(claimsFor('alice'));
    const codes = fakeServer('123456', token);
    const { router } = renderApp('/login');
    await passwordStep();
    // No session yet: the password alone gives a challenge, not a token.
    expect(getToken()).toBeNull();
    const code = screen.getByLabelText('Code');
    expect(document.activeElement).toBe(code);
    expect(code.getAttribute('inputmode')).toBe('numeric');

    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    // The attempts left said once, and the password step's welcome text is gone.
    await screen.findByText('The code is not correct. Attempts left: 4');
    expect(screen.queryByText(/attempts left/i, { selector: '*' })).toBe(
      screen.getByText('The code is not correct. Attempts left: 4'),
    );
    expect(screen.queryByText(/Welcome back/)).toBeNull();

    fireEvent.change(screen.getByLabelText('Code'), { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToken()).toBe(token);
    expect(codes).toEqual([
      { challenge: CHALLENGE, code: '000000' },
      { challenge: CHALLENGE, code: '123456' },
    ]);
  }, 20_000);

  it('says under the field that a code is needed, or too long for the contract, and sends nothing', async () => {
    const codes = fakeServer('123456', 'unused');
    renderApp('/login');
    await passwordStep();
    const code = screen.getByLabelText('Code');
    expect(code.getAttribute('maxlength')).toBe(String(SECOND_FACTOR_CODE_MAX));
    fireEvent.change(code, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('Code is required');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(code, { target: { value: '1'.repeat(SECOND_FACTOR_CODE_MAX + 1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText(`Code must be at most ${SECOND_FACTOR_CODE_MAX} characters.`);
    // Switching to a recovery code starts the field afresh.
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    expect(screen.queryByText(/^Code must be at most/)).toBeNull();
    expect(codes).toEqual([]);
  }, 20_000);

  it('takes a recovery code instead, with its own label and a text keyboard', async () => {
    const token = fakeToken(claimsFor('alice'));
    const codes = fakeServer('abcde-fghjk', token);
    const { router } = renderApp('/login');
    await passwordStep();
    // There and back: the label and help text follow, and the typed text is cleared.
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    screen.getByText('Enter one of your recovery codes.');
    expect((screen.getByLabelText('Recovery code') as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    screen.getByText('Enter the 6-digit code from your authenticator app.');
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const input = screen.getByLabelText('Recovery code');
    expect(input.getAttribute('inputmode')).toBe('text');
    fireEvent.change(input, { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(codes).toEqual([{ challenge: CHALLENGE, code: 'abcde-fghjk' }]);
  }, 20_000);

  it('a void challenge leaves only "Back to sign in", which returns to the password form', async () => {
    fakeServer('123456', 'unused', () => ({
      status: 401,
      body: {
        code: 0,
        error: 'second_factor_challenge_invalid',
        msg: 'This sign-in has expired or had too many wrong codes. Please sign in again.',
      },
    }));
    renderApp('/login');
    await passwordStep();
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('This sign-in has expired or had too many wrong codes. Please sign in again.');
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
    expect(screen.queryByText(/^Attempts left/)).toBeNull();

    fireEvent.click(screen.getAllByRole('button', { name: 'Back to sign in' })[0]!);
    await screen.findByLabelText('Password');
    expect(screen.queryByText('Two-factor authentication')).toBeNull();
    expect(getToken()).toBeNull();
  }, 20_000);

  it('after the last wrong code the form stops sending codes', async () => {
    const codes = fakeServer('123456', 'unused');
    renderApp('/login');
    await passwordStep();
    for (let left = 4; left >= 1; left--) {
      fireEvent.change(screen.getByLabelText('Code'), { target: { value: '000000' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      await screen.findByText(`The code is not correct. Attempts left: ${left}`);
      expect(screen.queryByText(`The code is not correct. ${left} attempts left.`)).toBeNull();
    }
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('The code is not correct. Please sign in again.');
    expect(screen.queryByText(/^Attempts left/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Back to sign in' }).length).toBeGreaterThan(0);
    expect(codes).toHaveLength(5);
  }, 20_000);
});
