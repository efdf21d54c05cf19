import { AuditListBody, AuditListResponse } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { auditLog } from './audit.service.ts';

export function auditRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/Admin/audit',
    {
      ...access(ctx, 'admin'),
      schema: { tags: ['admin'], body: AuditListBody, response: { 200: AuditListResponse } },
    },
    async (req) => auditLog(ctx, req.body),
  );
}
