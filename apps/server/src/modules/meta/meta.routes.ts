import { AppMeta } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access } from '../../http/route.ts';
import type { App } from '../../http/types.ts';

export function metaRoutes(app: App, ctx: AppContext) {
  // Public facts the UI needs before sign-in, e.g. to label demo mode.
  app.get(
    '/api/meta',
    { ...access(ctx, 'public'), schema: { tags: ['meta'], response: { 200: AppMeta } } },
    async () => ({ demo: ctx.config.DEMO, serverTime: ctx.clock.now().toISOString() }),
  );
}
