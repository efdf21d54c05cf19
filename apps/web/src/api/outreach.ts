import { MassOutreachSettings } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPost } from './client.ts';

/** The outreach limits (Settings edits them; SMS Sending shows and enforces them). */
export const SETTINGS_KEY = ['outreach-settings'] as const;

/** POST /api/MassOutreach/getSettings → {maxBatchSendSms, maxMsgPerDay}. */
export const settingsQuery = queryOptions({
  queryKey: SETTINGS_KEY,
  queryFn: ({ signal }) => apiPost('/api/MassOutreach/getSettings', {}, MassOutreachSettings, { signal }),
  staleTime: 30_000,
});

export function useSettings() {
  return useQuery(settingsQuery);
}
