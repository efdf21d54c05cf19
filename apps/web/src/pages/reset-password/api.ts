import { endpoints, type ResetBody } from '@simdock/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/**
 * POST /api/Auth/resetCheck on load: whether the link still works, without using it (a dead link is
 * a 400 on `token`). Asked once per token; a refusal is not retried (it is the answer).
 */
export function useResetLinkCheck(token: string) {
  return useQuery({
    queryKey: ['auth', 'resetCheck', token],
    queryFn: () => call(endpoints.auth.resetCheck, { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** POST /api/Auth/reset: sets the password with a mailed link's token. Public call. */
export function resetPassword(body: ResetBody) {
  return call(endpoints.auth.reset, body);
}

export function useResetMutation() {
  return useMutation({ mutationKey: ['auth', 'reset'], mutationFn: resetPassword });
}
