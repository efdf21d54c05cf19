import {
  ApiKeyIdBody,
  ApiKeyListResponse,
  ApiKeyResponse,
  CreateApiKeyBody,
  CreateApiKeyResponse,
  ResetKeyResponse,
} from '../api/apikey.ts';
import { Ok } from '../api/common.ts';
import { endpoint } from '../endpoint.ts';

/**
 * The API Key page: the caller's own keys. `get`, `reset` and `delete` are the spec's calls and act
 * on the default key; `keys`, `createKey` and `deleteKey` manage the named keys for programs.
 */
export const apikey = {
  get: endpoint({
    method: 'POST',
    path: '/api/user/apikey',
    access: 'user',
    tag: 'api key',
    summary: 'The caller’s default API key (null: none)',
    response: { 200: ApiKeyResponse },
  }),
  reset: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/reset-key',
    access: 'user',
    tag: 'api key',
    summary: 'Make a new default API key, all scopes (the old one stops working at once)',
    response: { 200: ResetKeyResponse },
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/user/delete-key',
    access: 'user',
    tag: 'api key',
    summary: 'Delete the default API key',
    response: { 200: Ok },
  }),
  keys: endpoint({
    method: 'POST',
    path: '/api/user/apikeys',
    access: 'user',
    tag: 'api key',
    summary: 'The caller’s API keys (never the keys themselves)',
    response: { 200: ApiKeyListResponse },
  }),
  createKey: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/apikeys/create',
    access: 'user',
    tag: 'api key',
    summary: 'Make a named API key with scopes, allowed addresses and an expiry',
    description:
      'Answers the key in clear this once: only its hash is kept. At most 10 keys per user (409 `api_key_limit`).',
    body: CreateApiKeyBody,
    response: { 200: CreateApiKeyResponse },
  }),
  deleteKey: endpoint({
    method: 'POST',
    path: '/api/user/apikeys/delete',
    access: 'user',
    tag: 'api key',
    summary: 'Delete one of the caller’s API keys (it stops working at once)',
    body: ApiKeyIdBody,
    response: { 200: Ok },
  }),
};
