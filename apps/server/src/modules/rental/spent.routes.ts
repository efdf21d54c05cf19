import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  countSpentNumbers,
  listSpentNumbers,
  markSpent,
  returnAllToPool,
  returnToPool,
  unmarkSpent,
} from './spent.service.ts';

// Service Manager's spent numbers (the number reuse rule): admins only.
export function spentRoutes(app: App, ctx: AppContext) {
  const { service } = endpoints;

  route(app, ctx, service.spentCounts, async () => countSpentNumbers(ctx));

  route(app, ctx, service.spentNumbers, async (req) => listSpentNumbers(ctx, req.body));

  route(app, ctx, service.markSpent, async (req) => ({
    code: 1 as const,
    msg: await markSpent(ctx, req.body, currentUser(req)),
  }));

  route(app, ctx, service.unmarkSpent, async (req) => ({
    code: 1 as const,
    msg: await unmarkSpent(ctx, req.body, currentUser(req)),
  }));

  route(app, ctx, service.returnToPool, async (req) => ({
    code: 1 as const,
    msg: await returnToPool(ctx, req.body, currentUser(req)),
  }));

  route(app, ctx, service.returnAllToPool, async (req) => returnAllToPool(ctx, req.body, currentUser(req)));
}
