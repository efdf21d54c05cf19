import { type AuditListBody, endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

export type AuditParams = NonNullable<AuditListBody>;

/** POST /api/Admin/audit {actor, kind, from, to, page, pageSize} → one page of entries, newest first. */
export function fetchAudit(params: AuditParams, signal?: AbortSignal) {
  return call(endpoints.audit.list, params, { signal });
}

export const auditQuery = (params: AuditParams) =>
  queryOptions({
    queryKey: ['audit', params] as const,
    queryFn: ({ signal }) => fetchAudit(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: recoverInterval(),
  });

export function useAuditQuery(params: AuditParams) {
  return useQuery(auditQuery(params));
}
