import { endpoints } from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** GET /api/Admin/mail/outbox → the mails kept instead of sent (demo), newest first. */
export const useMailOutbox = () =>
  useQuery({
    queryKey: ['admin', 'mail-outbox'],
    queryFn: ({ signal }) => call(endpoints.auth.mailOutbox, undefined, { signal }),
    refetchInterval: 10_000,
  });
