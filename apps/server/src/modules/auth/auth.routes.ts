import { endpoints, rolesFromClaim } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { changePassword } from '../users/index.ts';
import { login, register } from './auth.service.ts';
import { signToken } from './tokens.ts';

export function authRoutes(app: App, ctx: AppContext) {
  const { auth, account } = endpoints;

  route(app, ctx, auth.register, async (req) => {
    await register(ctx, {
      username: req.body.username,
      email: req.body.email,
      password: req.body.passwordHash,
    });
    return { code: 1 as const, msg: 'Registration successful. Please Login.' };
  });

  route(app, ctx, auth.login, async (req) => ({ token: await login(ctx, { ...req.body, ip: req.ip }) }));

  // A password change ends every other session; the caller gets a fresh token to stay signed in.
  route(app, ctx, account.changePass, async (req) => {
    const user = currentUser(req);
    const { tokenVersion } = await changePassword(ctx, user.id, req.body);
    const token = await signToken(ctx, { ...user, roles: rolesFromClaim(user.roles), tokenVersion });
    return { code: 1 as const, msg: 'Password changed.', token };
  });
}
