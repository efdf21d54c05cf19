import { type CampaignProgress, endpoints } from '@simdock/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call } from './client.ts';

/** Campaign progress queries: ['campaign', id]; the live `campaign` event writes into them. */
export const CAMPAIGN_KEY = ['campaign'] as const;

/** POST /api/MassOutreach/campaign {campaignId} → its progress (queued, sent, delivered, failed…). */
export const campaignQuery = (campaignId: string) =>
  queryOptions({
    queryKey: [...CAMPAIGN_KEY, campaignId] as const,
    queryFn: ({ signal }) => call(endpoints.outreach.campaign, { campaignId }, { signal }),
    // The polling fallback while it runs (the live stream updates it at once when it is up).
    refetchInterval: (q) => (q.state.data?.data && !q.state.data.data.finished ? 3000 : false),
  });

/** A live `campaign` event: the progress as the server rendered it. */
export function applyCampaign(qc: QueryClient, progress: CampaignProgress): void {
  qc.setQueryData(campaignQuery(progress.campaignId).queryKey, { code: 1 as const, data: progress });
}
