import { endpoints, type MassSendBody } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

export { useSettings } from '../../api/outreach.ts';

/** POST /api/MassOutreach/sendMassSMS {number, mess}: newline-joined recipients and message lines. */
export function sendMassSms(body: MassSendBody) {
  return call(endpoints.outreach.sendMassSms, body);
}

export function useSendMassSms() {
  return useMutation({ mutationKey: ['mass-send'], mutationFn: sendMassSms });
}

/** POST /api/MassOutreach/cancel {campaignId}: messages not yet handed to a device become cancelled. */
export function cancelCampaign(campaignId: string) {
  return call(endpoints.outreach.cancel, { campaignId });
}

/** POST /api/MassOutreach/campaign without an id: the user's latest campaign (null: none). */
export function fetchLatestCampaign(signal?: AbortSignal) {
  return call(endpoints.outreach.campaign, {}, { signal });
}
