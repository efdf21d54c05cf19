import { type RegisterBody, RegisterResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../api/client.ts';

/** POST /api/Auth/register {username, email, passwordHash} (the plain password travels in passwordHash). */
export function registerAccount(body: RegisterBody) {
  return apiPost('/api/Auth/register', body, RegisterResponse, { auth: false });
}

export function useRegisterMutation() {
  return useMutation({ mutationKey: ['auth', 'register'], mutationFn: registerAccount });
}
