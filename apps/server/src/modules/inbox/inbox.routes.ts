import { InboxQuery, InboxResponse, totalPages } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { guards } from '../../http/auth.ts';
import { listIncomingSms } from './inbox.queries.ts';

export function inboxRoutes(app: App, ctx: AppContext) {
  const { requireAdmin } = guards(ctx);

  // Every incoming SMS is kept; admins see those that matched no order here (matched=false).
  app.get(
    '/api/Admin/inbox',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        querystring: InboxQuery,
        response: { 200: InboxResponse },
      },
    },
    async (req) => {
      const { page, pageSize, matched } = req.query;
      const { items, total } = await listIncomingSms(
        ctx.db,
        matched === undefined ? undefined : matched === 'true',
        page,
        pageSize,
      );
      return { items, page, total, totalPages: totalPages(total, pageSize) };
    },
  );
}
