import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { deleteApiKey, getApiKey, resetApiKey } from './apikey.service.ts';

export function apiKeyRoutes(app: App, ctx: AppContext) {
  const { apikey } = endpoints;

  route(app, ctx, apikey.get, async (req) => ({
    code: 1 as const,
    apiKey: await getApiKey(ctx, currentUser(req).id),
  }));

  route(app, ctx, apikey.reset, async (req) => ({
    code: 1 as const,
    msg: 'API key reset success!',
    apiKey: await resetApiKey(ctx, currentUser(req).id),
  }));

  route(app, ctx, apikey.delete, async (req) => {
    if (!(await deleteApiKey(ctx, currentUser(req).id))) {
      throw new DomainError('not_found', 'There is no API key to delete.');
    }
    return { code: 1 as const, msg: 'API key deleted!' };
  });
}
