import type { EndpointDeclaration } from '../endpoint.ts';
import * as areas from './areas.ts';

/**
 * Every HTTP endpoint of the server, by area: `endpoints.<area>.<name>`. The server registers its
 * routes from these (apps/server/src/http/route.ts), the web calls them with `call(endpoints.…)`.
 * docs/screens.md maps each screen to its endpoints. A module namespace, not an object literal: the
 * web bundle keeps only the areas its pages reference (the login page's budget).
 */
export * as endpoints from './areas.ts';

/** Every declaration, flat (for the checks that each one is served and documented). */
export function allEndpoints(): EndpointDeclaration[] {
  return Object.values(areas).flatMap((area) => Object.values(area) as EndpointDeclaration[]);
}
