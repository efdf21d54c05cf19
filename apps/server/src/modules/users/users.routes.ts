import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { listUsers, removeUser, saveUser } from './users.admin.service.ts';
import { userInfo } from './users.service.ts';

export function userRoutes(app: App, ctx: AppContext) {
  const { user, userAdmin } = endpoints;

  // Reachable by an admin who must still enrol a second factor (User Info is where they do).
  route(app, ctx, user.info, async (req) => userInfo(ctx, currentUser(req)), {
    config: { secondFactorSetup: true },
  });

  route(app, ctx, userAdmin.getUser, async (req) => listUsers(ctx, req.body));

  route(app, ctx, userAdmin.updateUser, async (req) => {
    const { user: saved, created } = await saveUser(ctx, currentUser(req), req.body.user);
    return { code: 1 as const, msg: created ? 'User added.' : 'User saved.', user: saved };
  });

  route(app, ctx, userAdmin.deleteUser, async (req) => removeUser(ctx, currentUser(req), req.body.id));
}
