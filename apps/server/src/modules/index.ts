import type { AppContext } from '../context.ts';
import type { App } from '../http/app.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { orderRoutes } from './orders/orders.routes.ts';
import { serviceRoutes } from './services/services.routes.ts';
import { userRoutes } from './users/users.routes.ts';

/** Every domain module's routes, registered in one place. */
export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  authRoutes(app, ctx);
  userRoutes(app, ctx);
  serviceRoutes(app, ctx);
  await orderRoutes(app, ctx);
}
