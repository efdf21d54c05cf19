import { AdminOverview } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { guards } from '../../http/auth.ts';
import { overviewFigures } from './overview.queries.ts';

/** The admin's home screen: platform figures at a glance. */
export function overviewRoutes(app: App, ctx: AppContext) {
  const { requireAdmin } = guards(ctx);

  app.post(
    '/api/Admin/overview',
    {
      preValidation: requireAdmin,
      schema: { tags: ['admin'], security: [{ bearer: [] }], response: { 200: AdminOverview } },
    },
    async () => {
      const now = ctx.clock.now();
      const dayStart = new Date(now);
      dayStart.setUTCHours(0, 0, 0, 0);
      const r = await overviewFigures(ctx.db, now, dayStart);
      return {
        users: r.users,
        balanceHeld: Number(r.balance_held),
        gatewaysOnline: r.gateways_online,
        gatewaysTotal: r.gateways_total,
        sims: r.sims,
        simsUsable: r.sims_usable,
        ordersToday: r.orders_today,
        ordersTodaySuccess: r.orders_today_success,
        ordersWaiting: r.orders_waiting,
        unmatchedSms24h: r.unmatched_sms_24h,
        serverTime: now.toISOString(),
      };
    },
  );
}
