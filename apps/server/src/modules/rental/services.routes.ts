import { endpoints, isAdmin } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { catalogueCallAllowed } from '../../http/address-limit.ts';
import { currentUser, route, sendJsonText } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  catalogueAnswer,
  catalogueCountries,
  removeService,
  saveService,
  servicePrices,
  setServicePrice,
} from './services.service.ts';

export function serviceRoutes(app: App, ctx: AppContext): void {
  const { service } = endpoints;

  // Public: no token needed. An admin's token unlocks the admin fields (stock, pattern, textContains).
  route(app, ctx, service.getAll, async (req, reply) => {
    // Anyone may call it, so each address gets a share (CATALOGUE_RATE_LIMIT_PER_MINUTE).
    await catalogueCallAllowed(ctx, req.ip);
    const admin = req.headers.authorization
      ? await ctx.registry
          .authenticate(ctx, req.headers.authorization)
          .then((u) => isAdmin(u.roles))
          .catch(() => false)
      : false;
    return sendJsonText(
      reply,
      await catalogueAnswer(ctx, admin, { country: req.body?.country, operator: req.body?.operator }),
    );
  });

  // Public like the catalogue (and metered with it): the countries a rent can be asked for.
  route(app, ctx, endpoints.catalogue.countries, async (req) => {
    await catalogueCallAllowed(ctx, req.ip);
    return catalogueCountries(ctx);
  });

  route(app, ctx, endpoints.catalogue.servicePrices, async (req) => servicePrices(ctx, req.body.serviceId));
  route(app, ctx, endpoints.catalogue.setServicePrice, async (req) =>
    setServicePrice(ctx, req.body, currentUser(req)),
  );

  route(app, ctx, service.update, async (req) => saveService(ctx, req.body, currentUser(req)));

  route(app, ctx, service.delete, async (req) => {
    await removeService(ctx, req.body.service, currentUser(req));
    return { code: 1 as const, msg: 'Service deleted.' };
  });
}
