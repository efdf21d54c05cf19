import { LoginAnswer, LoginBody, RegisterBody, RegisterResponse } from '../api/auth.ts';
import {
  ForgotBody,
  ForgotResponse,
  OutboxResponse,
  ResetBody,
  ResetCheckBody,
  ResetCheckResponse,
  ResetResponse,
} from '../api/recovery.ts';
import { endpoint } from '../endpoint.ts';

/** Sign-up and sign-in (Login and Register pages). */
export const auth = {
  register: endpoint({
    method: 'POST',
    path: '/api/Auth/register',
    access: 'public',
    tag: 'auth',
    body: RegisterBody,
    response: { 200: RegisterResponse },
  }),
  login: endpoint({
    method: 'POST',
    path: '/api/Auth/login',
    access: 'public',
    tag: 'auth',
    body: LoginBody,
    response: { 200: LoginAnswer },
  }),
  /** Password recovery: always the same neutral answer (no enumeration); a link is mailed when the account exists. */
  forgot: endpoint({
    method: 'POST',
    path: '/api/Auth/forgot',
    access: 'public',
    tag: 'auth',
    body: ForgotBody,
    response: { 200: ForgotResponse },
  }),
  /** Sets a new password with a mailed link's token (single use) and ends every session. */
  reset: endpoint({
    method: 'POST',
    path: '/api/Auth/reset',
    access: 'public',
    tag: 'auth',
    body: ResetBody,
    response: { 200: ResetResponse },
  }),
  /**
   * Whether a mailed link's token still works (unused, unexpired, not superseded), without using it:
   * the reset page asks on load, so a dead link says so before anyone types a password.
   */
  resetCheck: endpoint({
    method: 'POST',
    path: '/api/Auth/resetCheck',
    access: 'public',
    tag: 'auth',
    body: ResetCheckBody,
    response: { 200: ResetCheckResponse },
  }),
  /** The last 50 mails kept instead of sent (demo, development without SMTP). */
  mailOutbox: endpoint({
    method: 'GET',
    path: '/api/Admin/mail/outbox',
    access: 'admin',
    tag: 'auth',
    response: { 200: OutboxResponse },
  }),
};
