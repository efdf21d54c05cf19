import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { setSmppLimits, setSmppPassword, smppLimits } from './smpp.service.ts';

export function smppRoutes(app: App, ctx: AppContext) {
  route(app, ctx, endpoints.smpp.password, async (req) => ({
    code: 1 as const,
    msg: 'SMPP password set: it is shown this once.',
    ...(await setSmppPassword(ctx, currentUser(req).id, req.body.id)),
  }));
  route(app, ctx, endpoints.smpp.limits, async (req) => smppLimits(ctx, req.body.userId));
  route(app, ctx, endpoints.smpp.setLimits, async (req) => setSmppLimits(ctx, req.body, currentUser(req)));
}
