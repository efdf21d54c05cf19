import { endpoints, isAdmin, PublicService } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { removeService, saveService, servicesWithAvailability } from './services.service.ts';

export function serviceRoutes(app: App, ctx: AppContext) {
  const { service } = endpoints;

  // Public: no token needed. An admin's token unlocks the admin fields (stock, pattern, textContains).
  route(app, ctx, service.getAll, async (req) => {
    const admin = req.headers.authorization
      ? await ctx.registry
          .authenticate(ctx, req.headers.authorization)
          .then((u) => isAdmin(u.roles))
          .catch(() => false)
      : false;
    const services = await servicesWithAvailability(ctx, !admin);
    return { code: 1 as const, services: admin ? services : services.map((s) => PublicService.parse(s)) };
  });

  route(app, ctx, service.update, async (req) => saveService(ctx, req.body, currentUser(req)));

  route(app, ctx, service.delete, async (req) => {
    await removeService(ctx, req.body.service, currentUser(req));
    return { code: 1 as const, msg: 'Service deleted.' };
  });
}
