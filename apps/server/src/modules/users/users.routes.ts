import { ChangePassBody, ChangePassResponse, UserInfo } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { currentUser, guards } from '../../http/auth.ts';
import { changePassword, userInfo } from './users.service.ts';

export function userRoutes(app: App, ctx: AppContext) {
  const { requireUser } = guards(ctx);

  app.post(
    '/api/user/info',
    {
      preHandler: requireUser,
      schema: { tags: ['user'], security: [{ bearer: [] }], response: { 200: UserInfo } },
    },
    async (req) => userInfo(ctx, currentUser(req).id),
  );

  app.post(
    '/api/user/changepass',
    {
      preHandler: requireUser,
      schema: {
        tags: ['user'],
        security: [{ bearer: [] }],
        body: ChangePassBody,
        response: { 200: ChangePassResponse },
      },
    },
    async (req) => {
      await changePassword(ctx, currentUser(req).id, req.body);
      return { code: 1 as const, msg: 'Password changed.' };
    },
  );
}
