import { type ChangePassBody, endpoints } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call, requireCode1 } from '../../api/client.ts';
import { setToken } from '../../api/token.ts';

// The user info itself is the session's query: see src/api/user.ts (userInfoQuery) and useSession().user.

/**
 * POST /api/user/changepass {newPass, oldPass} → {code, msg, token}; succeeds only with code 1. The
 * change ends every other session; this browser stays signed in with the new token.
 */
export async function changePassword(body: ChangePassBody) {
  const res = requireCode1(await call(endpoints.account.changePass, body));
  if (res.token) setToken(res.token);
  return res;
}

export function useChangePasswordMutation() {
  return useMutation({ mutationKey: ['user', 'changepass'], mutationFn: changePassword });
}
