import {
  SetSmppLimitsBody,
  SmppLimitsBody,
  SmppLimitsResponse,
  SmppPasswordBody,
  SmppPasswordResponse,
} from '../api/smpp.ts';
import { endpoint } from '../endpoint.ts';

/** SMPP access of the caller's API keys. */
export const smpp = {
  password: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/apikeys/smppPassword',
    access: 'user',
    tag: 'api key',
    summary: 'Make (or replace) the SMPP password of one of the caller’s API keys',
    description:
      'The key needs the `messaging:send` scope. Answers the bind credentials; the 8-character password in clear this once (only its hash is kept). A new password replaces the old one at once (bound sessions stay until they unbind).',
    body: SmppPasswordBody,
    response: { 200: SmppPasswordResponse },
  }),
  /** An admin reads a user's SMPP rate and bind limit. */
  limits: endpoint({
    method: 'POST',
    path: '/api/Admin/smppLimits',
    access: 'admin',
    tag: 'admin',
    summary: 'A user’s SMPP rate (messages per second) and bind limit',
    body: SmppLimitsBody,
    response: { 200: SmppLimitsResponse },
    errors: ['user_not_found'],
  }),
  /** An admin sets them (audited `smpp.limits`); bound sessions pick up the rate within a minute. */
  setLimits: endpoint({
    method: 'POST',
    path: '/api/Admin/setSmppLimits',
    access: 'admin',
    tag: 'admin',
    summary: 'Set a user’s SMPP rate and bind limit (every SMPP credential of the user; audited)',
    description:
      'Applies to each of the user’s SMPP credentials: new binds at once, the rate of bound sessions within a minute.',
    body: SetSmppLimitsBody,
    response: { 200: SmppLimitsResponse },
    errors: ['user_not_found'],
  }),
};
