import { endpoints, type ForgotBody, type ForgotResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** POST /api/Auth/forgot → the same neutral answer for every login. Public call. */
export function requestReset(body: ForgotBody): Promise<ForgotResponse> {
  return call(endpoints.auth.forgot, body);
}

export function useForgotMutation() {
  return useMutation({ mutationKey: ['auth', 'forgot'], mutationFn: requestReset });
}
