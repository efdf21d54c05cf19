import {
  AdminServiceListResponse,
  endpoints,
  type MarkSpentBody,
  type ReturnAllToPoolBody,
  type ReturnToPoolBody,
  type ServiceInput,
  type SetServicePriceBody,
  type UnmarkSpentBody,
} from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, requireCode1 } from '../../api/client.ts';
import { recoverInterval } from '../../lib/recover.ts';

/** Every query about services starts with this key; a mutation refreshes them all (the Dashboard's too). */
export const SERVICES_KEY = ['services'] as const;

/**
 * POST /api/Service/getall with the admin's token → every service with the admin fields. The
 * declaration answers admin or public rows; an admin's answer is read as admin rows only.
 */
const getAllAsAdmin = { ...endpoints.service.getAll, response: { 200: AdminServiceListResponse } };

export async function fetchAdminServices(signal?: AbortSignal) {
  const res = await call(getAllAsAdmin, undefined, { signal, auth: true });
  return res.services;
}

export const adminServicesQuery = () =>
  queryOptions({
    queryKey: [...SERVICES_KEY, 'admin'] as const,
    queryFn: ({ signal }) => fetchAdminServices(signal),
    refetchInterval: recoverInterval(),
  });

export function useAdminServicesQuery() {
  return useQuery(adminServicesQuery());
}

/** POST /api/service/update: adds (no id) or edits a service; answers the saved service. */
export function saveService(input: ServiceInput) {
  return call(endpoints.service.update, input);
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
  return requireCode1(await call(endpoints.service.delete, { service: id }));
}

export function useDeleteServiceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'delete'],
    mutationFn: deleteService,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

// ---- spent numbers (the number reuse rule) ----

/** POST /api/service/spentCounts → how many numbers are spent, per service (missing: none). */
export const spentCountsQuery = () =>
  queryOptions({
    queryKey: [...SERVICES_KEY, 'spentCounts'] as const,
    queryFn: async ({ signal }) => {
      const res = await call(endpoints.service.spentCounts, {}, { signal });
      return new Map(res.counts.map((c) => [c.serviceId, c.spent]));
    },
  });

export function useSpentCountsQuery() {
  return useQuery(spentCountsQuery());
}

/** POST /api/service/spentNumbers {serviceId, search?} → the service's spent numbers and why. */
export function useSpentNumbersQuery(serviceId: string, search: string) {
  return useQuery({
    queryKey: [...SERVICES_KEY, 'spentNumbers', serviceId, search] as const,
    queryFn: ({ signal }) =>
      call(endpoints.service.spentNumbers, search ? { serviceId, search } : { serviceId }, { signal }),
  });
}

/** POST /api/service/markSpent {serviceId, phoneNumber, reason} → {code: 1, msg}. */
export function useMarkSpentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'markSpent'],
    mutationFn: async (body: MarkSpentBody) => requireCode1(await call(endpoints.service.markSpent, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

/** POST /api/service/unmarkSpent {serviceId, phoneNumber} → {code: 1, msg}; only an admin's mark. */
export function useUnmarkSpentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'unmarkSpent'],
    mutationFn: async (body: UnmarkSpentBody) =>
      requireCode1(await call(endpoints.service.unmarkSpent, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

/** POST /api/service/returnToPool {serviceId, phoneNumber, includeSms?} → {code: 1, msg}. */
export function useReturnToPoolMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'returnToPool'],
    mutationFn: async (body: ReturnToPoolBody) =>
      requireCode1(await call(endpoints.service.returnToPool, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

/** POST /api/service/returnAllToPool {serviceId} → {code: 1, msg, returned}. */
export function useReturnAllToPoolMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'returnAllToPool'],
    mutationFn: async (body: ReturnAllToPoolBody) =>
      requireCode1(await call(endpoints.service.returnAllToPool, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}

// ---- prices per country ----

/** POST /api/service/prices {serviceId} → the service's own price and its prices per country. */
export const servicePricesQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...SERVICES_KEY, 'prices', serviceId] as const,
    queryFn: ({ signal }) => call(endpoints.catalogue.servicePrices, { serviceId }, { signal }),
  });

export function useServicePricesQuery(serviceId: string) {
  return useQuery(servicePricesQuery(serviceId));
}

/** POST /api/service/setPrice: sets (a price) or removes (null) one country's or operator's price. */
export function setServicePrice(body: SetServicePriceBody) {
  return call(endpoints.catalogue.setServicePrice, body);
}

export function useSetServicePriceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['services', 'setPrice'],
    mutationFn: setServicePrice,
    onSuccess: (res) => queryClient.setQueryData(servicePricesQuery(res.serviceId).queryKey, res),
    // The catalogues (the Dashboard's per country) show the new price.
    onSettled: () => queryClient.invalidateQueries({ queryKey: SERVICES_KEY }),
  });
}
