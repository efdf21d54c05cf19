import { API_KEYS_MAX, endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  createApiKey,
  deleteApiKey,
  deleteApiKeyById,
  getApiKey,
  listApiKeys,
  resetApiKey,
} from './apikey.service.ts';

export function apiKeyRoutes(app: App, ctx: AppContext) {
  const { apikey } = endpoints;

  // The spec's three calls: the default key.
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

  // Keys for programs: named, scoped, limited to addresses, expiring.
  route(app, ctx, apikey.keys, async (req) => ({
    code: 1 as const,
    keys: await listApiKeys(ctx, currentUser(req).id),
    max: API_KEYS_MAX,
  }));

  route(app, ctx, apikey.createKey, async (req) => {
    const made = await createApiKey(ctx, currentUser(req).id, req.body);
    return { code: 1 as const, msg: 'API key created.', ...made };
  });

  route(app, ctx, apikey.deleteKey, async (req) => {
    await deleteApiKeyById(ctx, currentUser(req).id, req.body.id);
    return { code: 1 as const, msg: 'API key deleted!' };
  });
}
