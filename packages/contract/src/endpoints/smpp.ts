import { SmppPasswordBody, SmppPasswordResponse } from '../api/smpp.ts';
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
};
