import { GATEWAY_ONLINE_MS } from '@simdock/contract';
import type { AppContext, Job } from '../../context.ts';
import { cutoffDays, drainInBatches } from '../../db/retention.ts';
import { runDuePullCatchUps } from './catchup.service.ts';
import { pruneCalls } from './gateways.queries.ts';
import { pruneUptimeHours, pruneUptimeSamples, recordUptime } from './health.queries.ts';
import { HELD_SENDS_KEEP_DAYS } from './held-sends.ts';
import { pruneUnmatchedSms } from './inbox.queries.ts';
import { markSilentLines } from './inventory.service.ts';
import { pruneOutbox, pruneUssd } from './outbox.queries.ts';
import { forgetOldPushIds } from './push.service.ts';

/**
 * Records, per enabled gateway, whether it is online this minute, and adds it to the gateway's
 * hour. Safe to run from several processes and more than once a minute: the (gateway, minute) row
 * is written once.
 */
export async function sampleUptime(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().getTime();
  const minute = new Date(Math.floor(now / 60_000) * 60_000);
  return recordUptime(ctx.db, minute, new Date(now - GATEWAY_ONLINE_MS));
}

/**
 * The gateways' retention (docs/operations.md, "Data retention"): uptime samples older than
 * UPTIME_SAMPLES_RETENTION_HOURS, hourly uptime older than UPTIME_HOURLY_RETENTION_DAYS, and SMS no
 * consumer took and reported calls older than INCOMING_SMS_RETENTION_DAYS; 0 keeps them; sends held for devices after
 * HELD_SENDS_KEEP_DAYS. Bounded batches.
 */
export async function pruneGatewayData(
  ctx: AppContext,
): Promise<{ samples: number; hours: number; sms: number; calls: number; held: number; ussd: number }> {
  const now = ctx.clock.now();
  const c = ctx.config;
  const samplesBefore =
    c.UPTIME_SAMPLES_RETENTION_HOURS > 0
      ? new Date(now.getTime() - c.UPTIME_SAMPLES_RETENTION_HOURS * 3_600_000)
      : null;
  const hoursBefore = cutoffDays(now, c.UPTIME_HOURLY_RETENTION_DAYS);
  const smsBefore = cutoffDays(now, c.INCOMING_SMS_RETENTION_DAYS);
  return {
    samples: samplesBefore ? await drainInBatches((n) => pruneUptimeSamples(ctx.db, samplesBefore, n)) : 0,
    hours: hoursBefore ? await drainInBatches((n) => pruneUptimeHours(ctx.db, hoursBefore, n)) : 0,
    sms: smsBefore ? await drainInBatches((n) => pruneUnmatchedSms(ctx.db, smsBefore, n)) : 0,
    calls: smsBefore ? await drainInBatches((n) => pruneCalls(ctx.db, smsBefore, n)) : 0,
    // A held send is needed until its delivery report is in: days at most.
    held: await drainInBatches((n) => pruneOutbox(ctx.db, cutoffDays(now, HELD_SENDS_KEEP_DAYS)!, n)),
    // Its reply is kept on the SIM; the request itself is needed for a minute.
    ussd: await drainInBatches((n) => pruneUssd(ctx.db, cutoffDays(now, 1)!, n)),
  };
}

/**
 * The SMS pull catch-up (each gateway is claimed once per minute across processes, or more often
 * when its kind reads it itself: a box read through its web pages every 10 s, so the job ticks
 * every 5 s; ticking more often only shortens the delay), the uptime sampler (ticks inside every minute), the clean-up
 * of remembered push ids, lines that fell silent (markSilentLines) and the retention.
 */
export const gatewayJobs: Job[] = [
  { name: 'gateway-sms-catch-up', intervalMs: () => 5_000, run: (ctx) => runDuePullCatchUps(ctx) },
  { name: 'gateway-uptime', intervalMs: () => 20_000, run: (ctx) => sampleUptime(ctx) },
  { name: 'gateway-push-ids', intervalMs: () => 600_000, run: (ctx) => forgetOldPushIds(ctx) },
  { name: 'gateway-silent-lines', intervalMs: () => 15_000, run: (ctx) => markSilentLines(ctx) },
  {
    name: 'gateway-retention',
    intervalMs: () => 60_000,
    run: async (ctx) => {
      const gone = await pruneGatewayData(ctx);
      if (Object.values(gone).some((n) => n > 0)) ctx.log.info(gone, 'old gateway data deleted');
    },
  },
];
