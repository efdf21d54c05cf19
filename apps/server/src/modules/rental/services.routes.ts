import {
  DeleteServiceBody,
  isAdmin,
  Ok,
  PublicService,
  Service,
  ServiceInput,
  ServiceListResponse,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { removeService, saveService, servicesWithAvailability } from './services.service.ts';

export function serviceRoutes(app: App, ctx: AppContext) {
  // Public: no token needed. An admin's token unlocks the admin fields (stock, pattern, textContains).
  app.post(
    '/api/Service/getall',
    { ...access(ctx, 'public'), schema: { tags: ['services'], response: { 200: ServiceListResponse } } },
    async (req) => {
      const admin = req.headers.authorization
        ? await ctx.registry
            .authenticate(ctx, req.headers.authorization)
            .then((u) => isAdmin(u.roles))
            .catch(() => false)
        : false;
      const services = await servicesWithAvailability(ctx, !admin);
      return { code: 1 as const, services: admin ? services : services.map((s) => PublicService.parse(s)) };
    },
  );

  app.post(
    '/api/service/update',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags: ['services'],
        body: ServiceInput,
        response: { 200: Service },
      },
    },
    async (req) => saveService(ctx, req.body, currentUser(req)),
  );

  app.post(
    '/api/service/delete',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags: ['services'],
        body: DeleteServiceBody,
        response: { 200: Ok },
      },
    },
    async (req) => {
      await removeService(ctx, req.body.service, currentUser(req));
      return { code: 1 as const, msg: 'Service deleted.' };
    },
  );
}
