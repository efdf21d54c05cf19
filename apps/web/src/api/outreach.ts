import { endpoints } from '@simdock/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './client.ts';

/** The outreach limits (Settings edits them; SMS Sending shows and enforces them). */
export const SETTINGS_KEY = ['outreach-settings'] as const;

/** POST /api/MassOutreach/getSettings → {maxBatchSendSms, maxMsgPerDay}. */
export const settingsQuery = queryOptions({
  queryKey: SETTINGS_KEY,
  queryFn: ({ signal }) => call(endpoints.outreach.getSettings, undefined, { signal }),
  staleTime: 30_000,
});

export function useSettings() {
  return useQuery(settingsQuery);
}
