import { LoginResponse } from '../api/auth.ts';
import {
  ReauthBody,
  ReauthResponse,
  RecoveryCodesResponse,
  ResetSecondFactorBody,
  SecondFactorCodeBody,
  SecondFactorLoginBody,
  SecondFactorOk,
  SecondFactorStartResponse,
  SecondFactorStatus,
} from '../api/second-factor.ts';
import { endpoint } from '../endpoint.ts';

/** The TOTP second factor: User Info's section, the login page's second step, User Manager's reset. */
export const secondFactor = {
  status: endpoint({
    method: 'POST',
    path: '/api/user/secondFactor/status',
    access: 'user',
    tag: 'user',
    response: { 200: SecondFactorStatus },
  }),
  /** A new secret (replacing an unconfirmed one); refused while the factor is on. */
  start: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/secondFactor/start',
    access: 'user',
    tag: 'user',
    response: { 200: SecondFactorStartResponse },
  }),
  /** A current code from the app turns the factor on; the answer holds the recovery codes. */
  confirm: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/secondFactor/confirm',
    access: 'user',
    tag: 'user',
    body: SecondFactorCodeBody,
    response: { 200: RecoveryCodesResponse },
  }),
  /**
   * New recovery codes (the old ones stop working); needs a current code, or an empty one when the
   * re-authentication of the call checked a code.
   */
  regenerate: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/secondFactor/recoveryCodes',
    access: 'user',
    tag: 'user',
    body: SecondFactorCodeBody,
    response: { 200: RecoveryCodesResponse },
  }),
  /**
   * Turns the factor off; needs a current code or a recovery code, or an empty one when the
   * re-authentication of the call checked a code.
   */
  disable: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/secondFactor/disable',
    access: 'user',
    tag: 'user',
    body: SecondFactorCodeBody,
    response: { 200: SecondFactorOk },
  }),
  /** A fresh re-authentication for the guarded calls (see `reauth` in endpoint.ts). */
  reauth: endpoint({
    method: 'POST',
    path: '/api/Auth/reauth',
    access: 'user',
    tag: 'auth',
    summary: 'Confirm the password (and a code when two-factor authentication is on) for a sensitive call',
    description:
      'Answers a proof valid for `expiresIn` seconds: send it as the `X-Reauth` header with the calls that need it (turning the second factor on or off, new recovery codes, creating or resetting API keys, adding or changing webhooks); without it they answer 403 `reauth_required`. Wrong passwords count toward the password-change limit, wrong codes toward the second-factor limit (429 with `Retry-After`).',
    body: ReauthBody,
    response: { 200: ReauthResponse },
  }),
  /** The second sign-in step: the challenge of the login answer and a code (or a recovery code). */
  login: endpoint({
    method: 'POST',
    path: '/api/Auth/secondFactor',
    access: 'public',
    tag: 'auth',
    body: SecondFactorLoginBody,
    response: { 200: LoginResponse },
  }),
  /** An admin turns another user's factor off (audited `user.secondFactorReset`). */
  reset: endpoint({
    method: 'POST',
    path: '/api/Admin/resetSecondFactor',
    access: 'admin',
    tag: 'admin',
    body: ResetSecondFactorBody,
    response: { 200: SecondFactorOk },
  }),
};
