import { AdminOverview } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPost } from '../../api/client.ts';

/** POST /api/Admin/overview → the admin home's figures; refreshed every 30 s. */
export const overviewQuery = queryOptions({
  queryKey: ['admin', 'overview'],
  queryFn: ({ signal }) => apiPost('/api/Admin/overview', {}, AdminOverview, { signal }),
  refetchInterval: 30_000,
});

export const useOverview = () => useQuery(overviewQuery);
