import { InboxQuery, InboxResponse, totalPages } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { listIncomingSms } from './inbox.queries.ts';

export function inboxRoutes(app: App, ctx: AppContext) {
  // Every incoming SMS is kept; admins see those that matched no order here (matched=false).
  app.get(
    '/api/Admin/inbox',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags: ['admin'],
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
