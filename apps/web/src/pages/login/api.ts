import { type LoginBody, LoginResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../api/client.ts';

/** POST /api/Auth/login → { token }. Public call (no bearer). */
export function login(body: LoginBody): Promise<LoginResponse> {
  return apiPost('/api/Auth/login', body, LoginResponse, { auth: false });
}

export function useLoginMutation() {
  return useMutation({ mutationKey: ['auth', 'login'], mutationFn: login });
}
