import { endpoints, type ResetBody } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** POST /api/Auth/reset: sets the password with a mailed link's token. Public call. */
export function resetPassword(body: ResetBody) {
  return call(endpoints.auth.reset, body);
}

export function useResetMutation() {
  return useMutation({ mutationKey: ['auth', 'reset'], mutationFn: resetPassword });
}
