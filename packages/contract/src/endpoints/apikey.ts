import { ApiKeyResponse, ResetKeyResponse } from '../api/apikey.ts';
import { Ok } from '../api/common.ts';
import { endpoint } from '../endpoint.ts';

/** The API Key page: the caller's own key. */
export const apikey = {
  get: endpoint({
    method: 'POST',
    path: '/api/user/apikey',
    access: 'user',
    tag: 'api key',
    summary: 'The caller’s API key (null: none)',
    response: { 200: ApiKeyResponse },
  }),
  reset: endpoint({
    method: 'POST',
    path: '/api/user/reset-key',
    access: 'user',
    tag: 'api key',
    summary: 'Make a new API key (the old one stops working at once)',
    response: { 200: ResetKeyResponse },
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/user/delete-key',
    access: 'user',
    tag: 'api key',
    summary: 'Delete the API key',
    response: { 200: Ok },
  }),
};
