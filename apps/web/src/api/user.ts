import { endpoints, type UserInfo } from '@simdock/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from './client.ts';

/**
 * The signed-in user's info (POST /api/user/info). The session owns this query; pages read the user
 * from useSession(). After anything that changes the balance, refresh it with
 * `queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY })` (or useSession().refresh()).
 */
export const SESSION_QUERY_KEY = ['session'] as const;

export function fetchUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return call(endpoints.user.info, undefined, { signal });
}

export function userInfoQuery(token: string | null) {
  return queryOptions({
    queryKey: [...SESSION_QUERY_KEY, 'userInfo', token] as const,
    queryFn: ({ signal }) => fetchUserInfo(signal),
    staleTime: 30_000,
  });
}
