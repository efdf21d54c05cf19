import { endpoints, type LoginBody, type LoginResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** POST /api/Auth/login → { token }. Public call (no bearer). */
export function login(body: LoginBody): Promise<LoginResponse> {
  return call(endpoints.auth.login, body);
}

export function useLoginMutation() {
  return useMutation({ mutationKey: ['auth', 'login'], mutationFn: login });
}
