import { endpoints, type LoginAnswer, type LoginBody } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { deviceTokenFor, keepDeviceToken } from '../../session/device-token.ts';

/** POST /api/Auth/login → { token }. Public call (no bearer). */
export async function login(body: LoginBody): Promise<LoginAnswer> {
  // This browser's device token for the account exempts it from the per-account failure limit.
  const deviceToken = body.deviceToken ?? deviceTokenFor(body.username);
  const answer = await call(endpoints.auth.login, deviceToken ? { ...body, deviceToken } : body);
  keepDeviceToken(body.username, answer.deviceToken);
  return answer;
}

export function useLoginMutation() {
  return useMutation({ mutationKey: ['auth', 'login'], mutationFn: login });
}
