import {
  DeleteServiceBody,
  Ok,
  PublicService,
  Service,
  ServiceInput,
  ServiceListResponse,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { authenticate, guards } from '../../http/auth.ts';
import { listServices } from './services.queries.ts';
import { removeService, saveService } from './services.service.ts';

export function serviceRoutes(app: App, ctx: AppContext) {
  const { requireAdmin } = guards(ctx);

  // Public: no token needed. An admin's token unlocks the admin fields (stock, pattern, textContains).
  app.post(
    '/api/Service/getall',
    { schema: { tags: ['services'], response: { 200: ServiceListResponse } } },
    async (req) => {
      const admin = req.headers.authorization
        ? await authenticate(ctx, req)
            .then((u) => u.roles.includes('Admin9'))
            .catch(() => false)
        : false;
      const services = await listServices(ctx.db, ctx.clock.now(), !admin);
      return { code: 1 as const, services: admin ? services : services.map((s) => PublicService.parse(s)) };
    },
  );

  app.post(
    '/api/service/update',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['services'],
        security: [{ bearer: [] }],
        body: ServiceInput,
        response: { 200: Service },
      },
    },
    async (req) => saveService(ctx, req.body),
  );

  app.post(
    '/api/service/delete',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['services'],
        security: [{ bearer: [] }],
        body: DeleteServiceBody,
        response: { 200: Ok },
      },
    },
    async (req) => {
      await removeService(ctx, req.body.service);
      return { code: 1 as const, msg: 'Service deleted.' };
    },
  );
}
