import type { EndpointDeclaration } from '../endpoint.ts';
import { apikey } from './apikey.ts';

/**
 * Every HTTP endpoint of the server, by area: `endpoints.<area>.<name>`. The server registers its
 * routes from these (apps/server/src/http/route.ts), the web calls them with `call(endpoints.…)`.
 * docs/screens.md maps each screen to its endpoints.
 */
export const endpoints = {
  apikey,
};

/** Every declaration, flat (for the checks that each one is served and documented). */
export function allEndpoints(): EndpointDeclaration[] {
  return Object.values(endpoints).flatMap((area) => Object.values(area) as EndpointDeclaration[]);
}
