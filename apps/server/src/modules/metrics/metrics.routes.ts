import { createHash, timingSafeEqual } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import type { onRequestHookHandler } from 'fastify';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../context.ts';
import { notFound, unauthorized } from '../../errors.ts';
import { bearerToken } from '../../http/bearer.ts';
import { readinessProblem } from '../../http/readiness.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { lockedSimCount, offlineGatewayCount } from '../gateways/index.ts';
import { oldestQueuedMessageAge, queuedMessageCount } from '../messaging/index.ts';
import { pendingDeliveryCount } from '../webhooks/index.ts';

export const METRICS_PATH = endpoints.meta.metrics.path;

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may scrape: with METRICS_TOKEN set, only `Authorization: Bearer <token>` (401 otherwise);
 * without it, anyone outside production, and nobody in production (404, as if there were no route:
 * metrics tell a lot about a business and are off unless the operator protects them).
 */
export function metricsGuard(ctx: AppContext): onRequestHookHandler {
  const token = ctx.config.METRICS_TOKEN;
  const expected = token ? digest(token) : undefined;
  return async (req, reply) => {
    if (!expected) {
      if (ctx.config.NODE_ENV === 'production') throw notFound(`No route ${req.method} ${METRICS_PATH}`);
      return;
    }
    const header = req.headers.authorization ?? '';
    const given = bearerToken(header) ?? '';
    // Compared as hashes: equal lengths for timingSafeEqual, and no timing hint about the token.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized('Metrics need Authorization: Bearer <METRICS_TOKEN>.');
    }
  };
}

/** Queue depths, counted when Prometheus scrapes (one indexed count per queue, by its module). */
function registerQueueDepth(ctx: AppContext): void {
  new Gauge({
    name: 'simdock_queue_depth',
    help: 'Work waiting: sms = messages queued for the dispatcher, webhooks = code deliveries pending (new or to retry)',
    labelNames: ['queue'] as const,
    registers: [ctx.metrics.registry],
    async collect() {
      try {
        const [sms, webhooks] = await Promise.all([queuedMessageCount(ctx.db), pendingDeliveryCount(ctx.db)]);
        this.set({ queue: 'sms' }, sms);
        this.set({ queue: 'webhooks' }, webhooks);
      } catch (err) {
        // The database is down: the rest of the scrape (process, HTTP) still answers.
        this.reset();
        ctx.log.warn({ err }, 'queue depth not collected');
      }
    },
  });
}

/** SIMs locked now (failed sends in a row, blocked by the device, or by an admin), at scrape time. */
function registerLockedSims(ctx: AppContext): void {
  new Gauge({
    name: 'simdock_sims_locked',
    help: 'SIMs locked now (failed sends in a row, reported blocked by the device, or locked by an admin): neither rented nor used for sending',
    registers: [ctx.metrics.registry],
    async collect() {
      try {
        this.set(await lockedSimCount(ctx.db, ctx.clock.now()));
      } catch (err) {
        this.reset();
        ctx.log.warn({ err }, 'locked SIMs not collected');
      }
    },
  });
}

/**
 * The alerts' other scrape-time gauges: whether this process is ready (what /readyz answers: the
 * database reachable and migrated), how long the oldest due message has waited, gateways offline.
 */
function registerHealthGauges(ctx: AppContext): void {
  new Gauge({
    name: 'simdock_ready',
    help: 'Whether this process is ready (1) as GET /readyz answers: the database reachable and its schema up to date; 0 otherwise',
    registers: [ctx.metrics.registry],
    async collect() {
      this.set((await readinessProblem(ctx.db)) === undefined ? 1 : 0);
    },
  });
  new Gauge({
    name: 'simdock_queue_oldest_seconds',
    help: 'Seconds the oldest message due for dispatch has waited in the queue (0: none). Counted at scrape time for the whole database',
    labelNames: ['queue'] as const,
    registers: [ctx.metrics.registry],
    async collect() {
      try {
        this.set({ queue: 'sms' }, await oldestQueuedMessageAge(ctx.db, ctx.clock.now()));
      } catch (err) {
        this.reset();
        ctx.log.warn({ err }, 'queue age not collected');
      }
    },
  });
  new Gauge({
    name: 'simdock_gateways_offline',
    help: 'Enabled gateways with no status within the online window (GATEWAY_ONLINE_MS). Counted at scrape time for the whole database',
    registers: [ctx.metrics.registry],
    async collect() {
      try {
        this.set(await offlineGatewayCount(ctx.db, ctx.clock.now()));
      } catch (err) {
        this.reset();
        ctx.log.warn({ err }, 'offline gateways not collected');
      }
    },
  });
}

export function metricsRoutes(app: App, ctx: AppContext): void {
  registerQueueDepth(ctx);
  registerLockedSims(ctx);
  registerHealthGauges(ctx);
  // Outside /api: not an API route for the access matrix; declared public, with its own guard.
  route(
    app,
    ctx,
    endpoints.meta.metrics,
    async (_req, reply) => {
      const text = await ctx.metrics.text();
      return reply.header('cache-control', 'no-store').type(ctx.metrics.contentType).send(text);
    },
    { onRequest: [metricsGuard(ctx)] },
  );
}
