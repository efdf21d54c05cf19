import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { balanceHistory } from './balance-history.service.ts';

export function billingRoutes(app: App, ctx: AppContext) {
  // Only the caller's own entries: the user comes from the session, never from the body.
  route(app, ctx, endpoints.account.balanceHistory, async (req) =>
    balanceHistory(ctx, currentUser(req).id, req.body),
  );
}
