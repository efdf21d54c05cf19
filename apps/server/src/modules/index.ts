import type { AppContext } from '../context.ts';
import type { App } from '../http/app.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { gatewayRoutes } from './gateways/gateways.routes.ts';
import { inboxRoutes } from './inbox/inbox.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { orderRoutes } from './orders/orders.routes.ts';
import { overviewRoutes } from './overview/overview.routes.ts';
import { serviceRoutes } from './services/services.routes.ts';
import { userRoutes } from './users/users.routes.ts';

/** Every domain module's routes, registered in one place. */
export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  metaRoutes(app, ctx);
  authRoutes(app, ctx);
  userRoutes(app, ctx);
  await gatewayRoutes(app, ctx);
  serviceRoutes(app, ctx);
  await orderRoutes(app, ctx);
  inboxRoutes(app, ctx);
  overviewRoutes(app, ctx);
}
