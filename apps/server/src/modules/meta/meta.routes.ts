import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';

export function metaRoutes(app: App, ctx: AppContext) {
  // Public facts the UI needs before sign-in, e.g. to label demo mode.
  route(app, ctx, endpoints.meta.get, async () => ({
    demo: ctx.config.DEMO,
    serverTime: ctx.clock.now().toISOString(),
  }));
}
