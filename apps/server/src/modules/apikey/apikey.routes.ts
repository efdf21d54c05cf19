import { ApiKeyResponse, Ok, ResetKeyResponse } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { deleteApiKey, getApiKey, resetApiKey } from './apikey.service.ts';

export function apiKeyRoutes(app: App, ctx: AppContext) {
  const schema = { tags: ['api key'] };

  app.post(
    '/api/user/apikey',
    {
      ...access(ctx, 'user'),
      schema: { ...schema, summary: 'The caller’s API key (null: none)', response: { 200: ApiKeyResponse } },
    },
    async (req) => ({ code: 1 as const, apiKey: await getApiKey(ctx, currentUser(req).id) }),
  );

  app.post(
    '/api/user/reset-key',
    {
      ...access(ctx, 'user'),
      schema: {
        ...schema,
        summary: 'Make a new API key (the old one stops working at once)',
        response: { 200: ResetKeyResponse },
      },
    },
    async (req) => ({
      code: 1 as const,
      msg: 'API key reset success!',
      apiKey: await resetApiKey(ctx, currentUser(req).id),
    }),
  );

  app.post(
    '/api/user/delete-key',
    {
      ...access(ctx, 'user'),
      schema: { ...schema, summary: 'Delete the API key', response: { 200: Ok } },
    },
    async (req) => {
      if (!(await deleteApiKey(ctx, currentUser(req).id))) {
        throw new DomainError('not_found', 'There is no API key to delete.');
      }
      return { code: 1 as const, msg: 'API key deleted!' };
    },
  );
}
