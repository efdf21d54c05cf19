import type { ModuleDescriptor } from '../../module.ts';
import { apiKeyRoutes } from './apikey.routes.ts';
import { authenticateApiKey, getApiKey } from './apikey.service.ts';

// API keys: one per user for programs (the rental API). Sealed at rest, found by hash; the
// registry's API-key authenticator also meters calls per key (limits kept in the database).
export { authenticateApiKey, getApiKey, resetApiKey } from './apikey.service.ts';

export const apikeyModule: ModuleDescriptor = {
  name: 'apikey',
  tables: ['api_keys', 'api_rate_limits'],
  routes: apiKeyRoutes,
  authenticateApiKey,
  apiKeyOf: getApiKey,
};
