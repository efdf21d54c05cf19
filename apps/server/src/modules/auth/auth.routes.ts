import { LoginBody, LoginResponse, RegisterBody, RegisterResponse } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { login, register } from './auth.service.ts';

export function authRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/Auth/register',
    { schema: { tags: ['auth'], body: RegisterBody, response: { 200: RegisterResponse } } },
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
    { schema: { tags: ['auth'], body: LoginBody, response: { 200: LoginResponse } } },
    async (req) => ({ token: await login(ctx, { ...req.body, ip: req.ip }) }),
  );
}
