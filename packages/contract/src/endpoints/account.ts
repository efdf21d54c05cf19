import { ChangePassBody, ChangePassResponse } from '../api/auth.ts';
import { endpoint } from '../endpoint.ts';

/** The signed-in user's own account (User Info page). Apart from `auth`: the sign-in bundle carries that. */
export const account = {
  /** Ends every other session; the answer's `token` replaces the caller's. */
  changePass: endpoint({
    method: 'POST',
    path: '/api/user/changepass',
    access: 'user',
    tag: 'user',
    body: ChangePassBody,
    response: { 200: ChangePassResponse },
  }),
};
