import { GATEWAY_ONLINE_MS } from '@simdock/contract';
import type { AppContext, Job } from '../../context.ts';
import { runDuePullCatchUps } from './catchup.service.ts';
import { recordUptime } from './gateways.queries.ts';
import { forgetOldPushIds } from './push.service.ts';

/**
 * Records, per enabled gateway, whether it is online this minute. Safe to run from several
 * processes and more than once a minute: the (gateway, minute) row is written once.
 */
export async function sampleUptime(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().getTime();
  const minute = new Date(Math.floor(now / 60_000) * 60_000);
  return recordUptime(ctx.db, minute, new Date(now - GATEWAY_ONLINE_MS));
}

/**
 * The SMS pull catch-up (each gateway is claimed once per minute across processes, so ticking more
 * often only shortens the delay), the uptime sampler (ticks inside every minute) and the clean-up
 * of remembered push ids.
 */
export const gatewayJobs: Job[] = [
  { name: 'gateway-sms-catch-up', intervalMs: () => 15_000, run: (ctx) => runDuePullCatchUps(ctx) },
  { name: 'gateway-uptime', intervalMs: () => 20_000, run: (ctx) => sampleUptime(ctx) },
  { name: 'gateway-push-ids', intervalMs: () => 600_000, run: (ctx) => forgetOldPushIds(ctx) },
];
