import { AppMeta } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './client.ts';

/** GET /api/meta: public facts about this server (demo mode). */
export const metaQuery = queryOptions({
  queryKey: ['meta'],
  queryFn: ({ signal }) => apiGet('/api/meta', AppMeta, { auth: false, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const useMeta = () => useQuery(metaQuery);
