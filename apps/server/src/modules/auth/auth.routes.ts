import {
  ChangePassBody,
  ChangePassResponse,
  LoginBody,
  LoginResponse,
  RegisterBody,
  RegisterResponse,
  rolesFromClaim,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { changePassword } from '../users/index.ts';
import { login, register } from './auth.service.ts';
import { signToken } from './tokens.ts';

export function authRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/Auth/register',
    {
      ...access(ctx, 'public'),
      schema: { tags: ['auth'], body: RegisterBody, response: { 200: RegisterResponse } },
    },
    async (req) => {
      await register(ctx, {
        username: req.body.username,
        email: req.body.email,
        password: req.body.passwordHash,
      });
      return { code: 1 as const, msg: 'Registration successful. Please Login.' };
    },
  );

  app.post(
    '/api/Auth/login',
    {
      ...access(ctx, 'public'),
      schema: { tags: ['auth'], body: LoginBody, response: { 200: LoginResponse } },
    },
    async (req) => ({ token: await login(ctx, { ...req.body, ip: req.ip }) }),
  );

  // A password change ends every other session; the caller gets a fresh token to stay signed in.
  app.post(
    '/api/user/changepass',
    {
      ...access(ctx, 'user'),
      schema: { tags: ['user'], body: ChangePassBody, response: { 200: ChangePassResponse } },
    },
    async (req) => {
      const user = currentUser(req);
      const { tokenVersion } = await changePassword(ctx, user.id, req.body);
      const token = await signToken(ctx, { ...user, roles: rolesFromClaim(user.roles), tokenVersion });
      return { code: 1 as const, msg: 'Password changed.', token };
    },
  );
}
