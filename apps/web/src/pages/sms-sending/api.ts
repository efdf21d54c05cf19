import { CancelCampaignResponse, type MassSendBody, MassSendResponse } from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../api/client.ts';

export { useSettings } from '../../api/outreach.ts';

/** POST /api/MassOutreach/sendMassSMS {number, mess}: newline-joined recipients and message lines. */
export function sendMassSms(body: MassSendBody) {
  return apiPost('/api/MassOutreach/sendMassSMS', body, MassSendResponse);
}

export function useSendMassSms() {
  return useMutation({ mutationKey: ['mass-send'], mutationFn: sendMassSms });
}

/** POST /api/MassOutreach/cancel {campaignId}: messages not yet handed to a device become cancelled. */
export function cancelCampaign(campaignId: string) {
  return apiPost('/api/MassOutreach/cancel', { campaignId }, CancelCampaignResponse);
}
