import { UserInfo } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { userInfo } from './users.service.ts';

export function userRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/user/info',
    { ...access(ctx, 'user'), schema: { tags: ['user'], response: { 200: UserInfo } } },
    async (req) => userInfo(ctx, currentUser(req).id),
  );
}
