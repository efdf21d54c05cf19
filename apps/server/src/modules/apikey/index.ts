import type { ConfiguredModule } from '../../module.ts';
import { apikeyConfig } from './apikey.config.ts';
import { apiKeyRoutes } from './apikey.routes.ts';
import { authenticateApiKey, getApiKey } from './apikey.service.ts';

// API keys for programs (the rental API, the messaging API): up to 10 per user, each with scopes,
// allowed addresses and an optional expiry; the default one is the spec's key, sealed at rest so
// its owner can read it again, the others are kept as hashes only. The registry's API-key
// authenticator finds a key by hash and meters calls per user (limits kept in the database).
export { apiKeyOwner, apiKeyUse, ownApiKey, revokeAllApiKeys } from './apikey.service.ts';

export { apikeyConfig };

export const apikeyModule: ConfiguredModule<typeof apikeyConfig> = {
  name: 'apikey',
  tables: ['api_keys', 'api_rate_limits'],
  config: apikeyConfig,
  routes: apiKeyRoutes,
  authenticateApiKey,
  apiKeyOf: getApiKey,
};
