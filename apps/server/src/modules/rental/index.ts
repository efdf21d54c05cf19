import { foldAll } from '../../db/tallies.ts';
import type { ConfiguredModule } from '../../module.ts';
import { ORDER_TALLIES, openOrdersOnGateway, userHasOrders } from './orders.queries.ts';
import { rentalConfig } from './rental.config.ts';

export { orderFigures } from './orders.queries.ts';

import { orderRoutes } from './orders.routes.ts';
import { closeLapsedOrders, expireOverdue, matchRentalOrders, renderOrderEvent } from './orders.service.ts';
import { serviceRoutes } from './services.routes.ts';
import { catalogueListener } from './services.service.ts';
import { foldSpentCounts } from './spent.queries.ts';
import { spentRoutes } from './spent.routes.ts';

// Rental: the service catalogue and the orders that rent numbers from it. Charges and refunds go
// through billing; SIMs come from gateways; codes arrive as an SMS consumer.

export { simsInOpenRentals } from './orders.queries.ts';
export {
  cancel,
  finish,
  listUserOrders,
  type OrderDetail,
  PriceAboveMax,
  rent,
  requestAnotherSms,
  userOrderDetail,
  userOrderDetails,
} from './orders.service.ts';
export {
  catalogueCountries,
  type Place,
  saveService,
  sendingShare,
  servicesWithAvailability,
} from './services.service.ts';

export { rentalConfig };

export const rentalModule: ConfiguredModule<typeof rentalConfig> = {
  name: 'rental',
  tables: [
    'services',
    'orders',
    'order_codes',
    'order_requests',
    'number_spent',
    'number_returns',
    'number_service_state',
    'number_spent_counts',
    'order_tallies',
    'order_gateway_tallies',
    'order_days',
  ],
  config: rentalConfig,
  routes: (app, ctx) => {
    serviceRoutes(app, ctx);
    spentRoutes(app, ctx);
    orderRoutes(app, ctx);
  },
  // Rental codes take precedence over every other consumer of incoming SMS.
  listeners: [catalogueListener],
  smsConsumers: [matchRentalOrders],
  liveRenderers: { order: renderOrderEvent },
  userHistoryChecks: [async (q, userId) => ((await userHasOrders(q, userId)) ? 'orders' : null)],
  gatewayDeleteChecks: [
    async (q, gatewayId) => {
      const open = await openOrdersOnGateway(q, gatewayId);
      return open > 0
        ? `This gateway has ${open} order${open === 1 ? '' : 's'} waiting for a code. Disable it, wait until they finish, then delete it.`
        : null;
    },
  ],
  jobs: [
    {
      name: 'spent-count-fold',
      intervalMs: () => 60_000,
      // Keeps the spent counts' appended rows few (one per service between folds).
      run: (ctx) => foldSpentCounts(ctx.db),
    },
    {
      // The counters' appended rows fold into one per key (they stay exact unfolded too).
      name: 'rental-tallies-fold',
      intervalMs: () => 30_000,
      run: async (ctx) => {
        await foldAll(ctx.db, ORDER_TALLIES);
      },
    },
    {
      name: 'order-expiry',
      intervalMs: (ctx) => ctx.config.SWEEP_INTERVAL_MS,
      // Cancels and refunds overdue rentals, then closes the rentals with a code whose time is
      // over, in batches, until none is left.
      run: async (ctx) => {
        let n: number;
        do {
          n = await expireOverdue(ctx);
          if (n) ctx.log.info({ expired: n }, 'expired orders refunded');
        } while (n >= 500);
        do {
          n = await closeLapsedOrders(ctx);
          if (n) ctx.log.info({ closed: n }, 'orders with a code closed at the end of their time');
        } while (n >= 500);
      },
    },
  ],
};
