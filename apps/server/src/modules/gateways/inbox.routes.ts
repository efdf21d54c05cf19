import { endpoints, totalPages } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { listIncomingSms } from './inbox.queries.ts';

export function inboxRoutes(app: App, ctx: AppContext) {
  // Every incoming SMS is kept; admins see those that matched no order here (matched=false).
  route(app, ctx, endpoints.gateway.inbox, async (req) => {
    const { page, pageSize, matched, after, before } = req.query;
    const { rows, total, ...paged } = await listIncomingSms(
      ctx.db,
      matched === undefined ? undefined : matched === 'true',
      { page, pageSize, after, before },
    );
    return { items: rows, page, total, totalPages: totalPages(total, pageSize), ...paged };
  });
}
