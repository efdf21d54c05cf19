import { type ChangePassBody, ChangePassResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost, requireCode1 } from '../../api/client.ts';

// The user info itself is the session's query: see src/api/user.ts (userInfoQuery) and useSession().user.
export { fetchUserInfo, userInfoQuery } from '../../api/user.ts';

/** POST /api/user/changepass {newPass, oldPass} → {code, msg}; succeeds only with code 1. */
export async function changePassword(body: ChangePassBody) {
  return requireCode1(await apiPost('/api/user/changepass', body, ChangePassResponse));
}

export function useChangePasswordMutation() {
  return useMutation({ mutationKey: ['user', 'changepass'], mutationFn: changePassword });
}
