import type { AppContext } from '../context.ts';
import { startGatewayWorkers } from './gateways.ts';
import { startOrderExpiry } from './order-expiry.ts';

/** Starts the background loops; returns a function that stops them. */
export async function startWorkers(ctx: AppContext): Promise<() => Promise<void>> {
  const stoppers = [startOrderExpiry(ctx), ...startGatewayWorkers(ctx)];
  return async () => {
    await Promise.all(stoppers.map((stop) => stop()));
  };
}
