import { endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './client.ts';

/** GET /api/meta: public facts about this server (demo mode). */
export const metaQuery = queryOptions({
  queryKey: ['meta'],
  queryFn: ({ signal }) => call(endpoints.meta.get, undefined, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const useMeta = () => useQuery(metaQuery);
