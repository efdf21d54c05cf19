import { endpoints, type SetMessageCountryBody, type UpdateSettingsBody } from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { SETTINGS_KEY } from '../../api/outreach.ts';

/** POST /api/Admin/getOutreachSettings → the limits and who changed them last (Admin9). */
export const adminSettingsQuery = queryOptions({
  queryKey: [...SETTINGS_KEY, 'admin'] as const,
  queryFn: ({ signal }) => call(endpoints.settings.get, undefined, { signal }),
});

export function useAdminSettings() {
  return useQuery(adminSettingsQuery);
}

/** POST /api/Admin/updateSettings {MaxBatchSendSms, MaxMsgPerDay, Sim…} → the saved limits and SIM settings. */
export function saveSettings(body: UpdateSettingsBody) {
  return call(endpoints.settings.update, body);
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['outreach-settings', 'save'],
    mutationFn: saveSettings,
    onSuccess: () => qc.invalidateQueries({ queryKey: SETTINGS_KEY }),
  });
}

/** The destinations' prices and switches (Admin9), for the "Message prices by country" section. */
export const messageCountriesQuery = queryOptions({
  queryKey: ['message-countries'] as const,
  queryFn: ({ signal }) => call(endpoints.catalogue.messageCountries, undefined, { signal }),
});

export function useMessageCountries() {
  return useQuery(messageCountriesQuery);
}

/** Lists, changes or removes a country, or sets the rule for the others; the sending page's prices follow. */
export function useSetMessageCountry() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['message-countries', 'save'],
    mutationFn: (body: SetMessageCountryBody) => call(endpoints.catalogue.setMessageCountry, body),
    onSuccess: (answer) => {
      qc.setQueryData(messageCountriesQuery.queryKey, answer);
      return qc.invalidateQueries({ queryKey: SETTINGS_KEY });
    },
  });
}
