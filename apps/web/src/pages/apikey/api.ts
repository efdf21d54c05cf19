import {
  type CreateApiKeyBody,
  endpoints,
  type SmppPasswordResponse,
  type WebhookEventName,
} from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

export const API_KEY_KEY = ['api-key'] as const;
export const WEBHOOKS_KEY = ['webhooks'] as const;
export const DELIVERIES_KEY = ['webhook-deliveries'] as const;
export const API_KEYS_KEY = ['api-keys'] as const;

/** POST /api/user/apikey → {apiKey | null}. */
export function fetchApiKey(signal?: AbortSignal) {
  return call(endpoints.apikey.get, undefined, { signal });
}

export const apiKeyQuery = queryOptions({
  queryKey: API_KEY_KEY,
  queryFn: ({ signal }) => fetchApiKey(signal),
});

export function useApiKeyQuery() {
  return useQuery(apiKeyQuery);
}

/** POST /api/user/reset-key → a new key (the old one stops working at once). */
export function resetApiKey() {
  return call(endpoints.apikey.reset);
}

/** POST /api/user/delete-key. */
export function deleteApiKey() {
  return call(endpoints.apikey.delete);
}

export function useResetKeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['api-key', 'reset'],
    mutationFn: resetApiKey,
    onSuccess: async (res) => {
      qc.setQueryData(API_KEY_KEY, { code: 1 as const, apiKey: res.apiKey });
      await qc.invalidateQueries({ queryKey: API_KEYS_KEY });
    },
  });
}

export function useDeleteKeyMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['api-key', 'delete'],
    mutationFn: deleteApiKey,
    onSuccess: async () => {
      qc.setQueryData(API_KEY_KEY, { code: 1 as const, apiKey: null });
      await qc.invalidateQueries({ queryKey: API_KEYS_KEY });
    },
  });
}

/** POST /api/user/apikeys → every key of the user (never the keys themselves) and the limit. */
export function fetchApiKeys(signal?: AbortSignal) {
  return call(endpoints.apikey.keys, undefined, { signal });
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: API_KEYS_KEY, queryFn: ({ signal }) => fetchApiKeys(signal) });
}

/** A key's change may be the default key's: both views read again. */
function useKeyMutation<A, R>(key: string, fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['api-keys', key],
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: API_KEYS_KEY });
      await qc.invalidateQueries({ queryKey: API_KEY_KEY });
    },
  });
}

/** POST /api/user/apikeys/create → the key in clear, this once, and its list shape. */
export const useCreateKeyMutation = () =>
  useKeyMutation('create', (body: CreateApiKeyBody) => call(endpoints.apikey.createKey, body));
/** POST /api/user/apikeys/delete {id}. */
export const useDeleteNamedKeyMutation = () =>
  useKeyMutation('delete', (id: string) => call(endpoints.apikey.deleteKey, { id }));

/** Where SMPP clients bind, as the last SMPP password's answer said (the server tells it nowhere else). */
export const SMPP_DOOR_KEY = ['smpp-door'] as const;
export type SmppDoor = Pick<SmppPasswordResponse, 'host' | 'port' | 'tlsPort'>;

export function useSmppDoor() {
  return useQuery<SmppDoor | null>({
    queryKey: SMPP_DOOR_KEY,
    queryFn: () => null,
    enabled: false,
    initialData: null,
  }).data;
}

/** POST /api/user/apikeys/smppPassword {id} (re-authenticated) → the bind credentials, the password this once. */
export function useSmppPasswordMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['api-keys', 'smpp'],
    mutationFn: (id: string) => call(endpoints.smpp.password, { id }),
    onSuccess: (res) => {
      const door: SmppDoor = { host: res.host, port: res.port, tlsPort: res.tlsPort };
      qc.setQueryData(SMPP_DOOR_KEY, door);
    },
  });
}

/** POST /api/user/webhooks → the URLs (with their signing secrets) and the limit. */
export function fetchWebhooks(signal?: AbortSignal) {
  return call(endpoints.webhooks.list, undefined, { signal });
}

export function useWebhooksQuery() {
  return useQuery({ queryKey: WEBHOOKS_KEY, queryFn: ({ signal }) => fetchWebhooks(signal) });
}

/** POST /api/user/webhooks/deliveries → the last 50 deliveries. */
export function fetchDeliveries(signal?: AbortSignal) {
  return call(endpoints.webhooks.deliveries, undefined, { signal });
}

export function useDeliveriesQuery() {
  return useQuery({
    queryKey: DELIVERIES_KEY,
    queryFn: ({ signal }) => fetchDeliveries(signal),
    // Retries happen in the background: keep the log fresh while the page is open.
    refetchInterval: 10_000,
  });
}

function useWebhookMutation<A, R>(key: string, fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['webhooks', key],
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      await qc.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
  });
}

export const useAddWebhookMutation = () =>
  useWebhookMutation('add', (body: { url: string; events: WebhookEventName[] }) =>
    call(endpoints.webhooks.add, body),
  );
/** POST /api/user/webhooks/events {id, events}: which events a URL receives. */
export const useWebhookEventsMutation = () =>
  useWebhookMutation('events', (body: { id: string; events: WebhookEventName[] }) =>
    call(endpoints.webhooks.events, body),
  );
/** POST /api/user/webhooks/redeliver {id}: a logged delivery sent again now (same event id). */
export const useRedeliverMutation = () =>
  useWebhookMutation('redeliver', (id: string) => call(endpoints.webhooks.redeliver, { id }));
export const useDeleteWebhookMutation = () =>
  useWebhookMutation('delete', (id: string) => call(endpoints.webhooks.delete, { id }));
export const useTestWebhookMutation = () =>
  useWebhookMutation('test', (id: string | undefined) => call(endpoints.webhooks.test, id ? { id } : {}));
