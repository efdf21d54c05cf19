import { AdminServiceListResponse, Ok, Service, type ServiceInput } from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPost, requireCode1 } from '../../api/client.ts';

/** Every query about services starts with this key; a mutation refreshes them all (the Dashboard's too). */
export const SERVICES_KEY = ['services'] as const;

/** POST /api/Service/getall with the admin's token → every service with the admin fields. */
export async function fetchAdminServices(signal?: AbortSignal) {
  const res = await apiPost('/api/Service/getall', {}, AdminServiceListResponse, { signal });
  return res.services;
}

export const adminServicesQuery = () =>
  queryOptions({
    queryKey: [...SERVICES_KEY, 'admin'] as const,
    queryFn: ({ signal }) => fetchAdminServices(signal),
  });

export function useAdminServicesQuery() {
  return useQuery(adminServicesQuery());
}

/** POST /api/service/update: adds (no id) or edits a service; answers the saved service. */
export function saveService(input: ServiceInput) {
  return apiPost('/api/service/update', input, Service);
}

export function useSaveServiceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'save'],
    mutationFn: saveService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

/** POST /api/service/delete {service: id} → {code: 1, msg}. 409 when the service has orders. */
export async function deleteService(id: string) {
  return requireCode1(await apiPost('/api/service/delete', { service: id }, Ok));
}

export function useDeleteServiceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'delete'],
    mutationFn: deleteService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}
