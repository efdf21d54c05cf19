import { type DailyStatsBody, endpoints, type QueryMsgBody } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** POST /api/MassOutreach/querymsg {current, size, params: {strTime, endTime}} → {sum, records, total}. */
export function fetchHistory(body: QueryMsgBody, signal?: AbortSignal) {
  return call(endpoints.history.queryMsg, body, { signal });
}

export const historyQuery = (body: QueryMsgBody) =>
  queryOptions({
    queryKey: ['history', body] as const,
    queryFn: ({ signal }) => fetchHistory(body, signal),
    placeholderData: keepPreviousData,
  });

export function useHistory(body: QueryMsgBody) {
  return useQuery(historyQuery(body));
}

/** POST /api/MassOutreach/dailyStats {strTime, endTime} → sent, delivered and replies per day. */
export const dailyStatsQuery = (body: DailyStatsBody) =>
  queryOptions({
    queryKey: ['history', 'daily', body] as const,
    queryFn: ({ signal }) => call(endpoints.history.dailyStats, body, { signal }),
    placeholderData: keepPreviousData,
  });
