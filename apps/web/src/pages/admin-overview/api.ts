import { endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

/** POST /api/Admin/overview → the admin home's figures; refreshed every 30 s. */
export const overviewQuery = queryOptions({
  queryKey: ['admin', 'overview'],
  queryFn: ({ signal }) => call(endpoints.overview.get, undefined, { signal }),
  refetchInterval: recoverInterval(30_000),
});

export const useOverview = () => useQuery(overviewQuery);

/** GET /api/Admin/mail/outbox → the mails kept instead of sent (demo), newest first. */
export const useMailOutbox = () =>
  useQuery({
    queryKey: ['admin', 'mail-outbox'],
    queryFn: ({ signal }) => call(endpoints.auth.mailOutbox, undefined, { signal }),
    refetchInterval: 10_000,
  });
