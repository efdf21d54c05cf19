import { endpoints, type RegisterBody } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** POST /api/Auth/register {username, email, passwordHash} (the plain password travels in passwordHash). */
export function registerAccount(body: RegisterBody) {
  return call(endpoints.auth.register, body);
}

export function useRegisterMutation() {
  return useMutation({ mutationKey: ['auth', 'register'], mutationFn: registerAccount });
}
