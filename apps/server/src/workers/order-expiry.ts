import type { AppContext } from '../context.ts';
import { expireOverdue } from '../modules/orders/orders.service.ts';
import { every } from './loop.ts';

/** Cancels and refunds overdue rentals; several processes may run it at once. */
export function startOrderExpiry(ctx: AppContext) {
  return every(ctx, 'order-expiry', ctx.config.SWEEP_INTERVAL_MS, async () => {
    let n: number;
    do {
      n = await expireOverdue(ctx);
      if (n) ctx.log.info({ expired: n }, 'expired orders refunded');
    } while (n > 0 && n >= 500);
  });
}
