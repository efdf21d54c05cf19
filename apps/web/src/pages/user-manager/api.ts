import {
  type AdminUserInput,
  type AdminUserListBody,
  endpoints,
  type SetSmppLimitsBody,
} from '@simdock/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

/** Every query about users starts with this key; a mutation refreshes them all (and the audit log). */
export const USERS_KEY = ['admin-users'] as const;
const AUDIT_KEY = ['audit'] as const;

export type UserListParams = NonNullable<AdminUserListBody>;

/** POST /api/Admin/getUser {search, sort, dir, page, pageSize} → one page, totals and the stat figures. */
export function fetchUsers(params: UserListParams, signal?: AbortSignal) {
  return call(endpoints.userAdmin.getUser, params, { signal });
}

export const usersQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: [...USERS_KEY, params] as const,
    queryFn: ({ signal }) => fetchUsers(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: recoverInterval(),
  });

export function useUsersQuery(params: UserListParams) {
  return useQuery(usersQuery(params));
}

/** POST /api/Admin/updateUser {user}: adds (no id) or edits a user. */
export function saveUser(user: AdminUserInput) {
  return call(endpoints.userAdmin.updateUser, { user });
}

export function useSaveUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin-users', 'save'],
    mutationFn: saveUser,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}

/** POST /api/Admin/deleteUser {id} → {outcome: 'deleted' | 'deactivated'}. */
export function deleteUser(id: string) {
  return call(endpoints.userAdmin.deleteUser, { id });
}

export function useDeleteUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin-users', 'delete'],
    mutationFn: deleteUser,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}

/** POST /api/Admin/resetSecondFactor {id}: turns a user's two-factor authentication off (audited). */
export function resetSecondFactor(id: string) {
  return call(endpoints.secondFactor.reset, { id });
}

export function useResetSecondFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin-users', 'resetSecondFactor'],
    mutationFn: resetSecondFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: AUDIT_KEY }),
  });
}

/** POST /api/Admin/smppLimits {userId} → the user's SMPP rate and bind limit. */
export function useSmppLimitsQuery(userId: string) {
  return useQuery({
    queryKey: [...USERS_KEY, 'smppLimits', userId] as const,
    queryFn: ({ signal }) => call(endpoints.smpp.limits, { userId }, { signal }),
  });
}

/** POST /api/Admin/setSmppLimits {userId, ratePerSecond, bindLimit} (audited). */
export function useSetSmppLimitsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['admin-users', 'setSmppLimits'],
    mutationFn: (body: SetSmppLimitsBody) => call(endpoints.smpp.setLimits, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      await queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}
