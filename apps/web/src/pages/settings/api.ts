import { Ok, type UpdateSettingsBody } from '@simdock/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../api/client.ts';
import { SETTINGS_KEY } from '../../api/outreach.ts';

export { useSettings } from '../../api/outreach.ts';

/** POST /api/Admin/updateSettings {MaxBatchSendSms, MaxMsgPerDay} (Admin9). */
export function saveSettings(body: UpdateSettingsBody) {
  return apiPost('/api/Admin/updateSettings', body, Ok);
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['outreach-settings', 'save'],
    mutationFn: saveSettings,
    onSuccess: () => qc.invalidateQueries({ queryKey: SETTINGS_KEY }),
  });
}
