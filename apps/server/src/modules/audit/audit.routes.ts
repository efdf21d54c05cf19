import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { auditLog } from './audit.service.ts';

export function auditRoutes(app: App, ctx: AppContext) {
  route(app, ctx, endpoints.audit.list, async (req) => auditLog(ctx, req.body));
}
