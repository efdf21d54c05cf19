import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';

/**
 * Shared TanStack Query defaults. Client errors (4xx) are not retried; polling (refetchInterval)
 * pauses while the tab is hidden, because refetchIntervalInBackground stays false.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, err) =>
          !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
