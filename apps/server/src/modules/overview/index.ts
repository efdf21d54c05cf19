import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import type { ModuleDescriptor } from '../../module.ts';
import { totalHeld } from '../billing/index.ts';
import { gatewayFigures } from '../gateways/index.ts';
import { queueFigures } from '../messaging/index.ts';
import { orderFigures, sendingShare } from '../rental/index.ts';
import { userCount } from '../users/index.ts';

// Overview: the admin's home screen, figures gathered from each module's own use case.

function overviewRoutes(app: App, ctx: AppContext) {
  route(app, ctx, endpoints.overview.get, async () => {
    const now = ctx.clock.now();
    const dayStart = new Date(now);
    dayStart.setUTCHours(0, 0, 0, 0);
    const [users, held, devices, orders, queue, share] = await Promise.all([
      userCount(ctx.db),
      totalHeld(ctx.db),
      gatewayFigures(ctx.db, now),
      orderFigures(ctx.db, dayStart),
      queueFigures(ctx),
      sendingShare(ctx),
    ]);
    return {
      users,
      balanceHeld: Number(held),
      ...devices,
      ...orders,
      ...queue,
      ...share,
      serverTime: now.toISOString(),
    };
  });
}

export const overviewModule: ModuleDescriptor = { name: 'overview', tables: [], routes: overviewRoutes };
