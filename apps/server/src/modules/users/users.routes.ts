import {
  AdminUserListBody,
  AdminUserListResponse,
  DeleteUserBody,
  DeleteUserResponse,
  UpdateUserBody,
  UpdateUserResponse,
  UserInfo,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { listUsers, removeUser, saveUser } from './users.admin.service.ts';
import { userInfo } from './users.service.ts';

export function userRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/user/info',
    { ...access(ctx, 'user'), schema: { tags: ['user'], response: { 200: UserInfo } } },
    async (req) => userInfo(ctx, currentUser(req)),
  );

  const admin = { tags: ['admin'] };

  app.post(
    '/api/Admin/getUser',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: AdminUserListBody, response: { 200: AdminUserListResponse } },
    },
    async (req) => listUsers(ctx, req.body),
  );

  app.post(
    '/api/Admin/updateUser',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: UpdateUserBody, response: { 200: UpdateUserResponse } },
    },
    async (req) => {
      const { user, created } = await saveUser(ctx, currentUser(req), req.body.user);
      return { code: 1 as const, msg: created ? 'User added.' : 'User saved.', user };
    },
  );

  app.post(
    '/api/Admin/deleteUser',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: DeleteUserBody, response: { 200: DeleteUserResponse } },
    },
    async (req) => removeUser(ctx, currentUser(req), req.body.id),
  );
}
