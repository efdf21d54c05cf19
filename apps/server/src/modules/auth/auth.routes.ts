import { endpoints, passwordError, rolesFromClaim } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { revokeAllApiKeys } from '../apikey/index.ts';
import { changePassword, mailOwner } from '../users/index.ts';
import { login, register } from './auth.service.ts';
import { assertPasswordNotCommon } from './common-passwords.ts';
import { limitPasswordChange } from './limits.ts';
import { recoveryRoutes } from './recovery.routes.ts';
import { secondFactorRoutes } from './second-factor.routes.ts';
import { signToken } from './tokens.ts';

export function authRoutes(app: App, ctx: AppContext) {
  const { auth, account } = endpoints;

  route(app, ctx, auth.register, async (req) => {
    await register(ctx, {
      username: req.body.username,
      email: req.body.email,
      password: req.body.passwordHash,
      ip: req.ip,
    });
    return { code: 1 as const, msg: 'Registration successful. Please Login.' };
  });

  // An account with a second factor gets a challenge instead of a token (second-factor.routes.ts).
  route(app, ctx, auth.login, async (req) => login(ctx, { ...req.body, ip: req.ip }));
  secondFactorRoutes(app, ctx);

  // A password change ends every other session; the caller gets a fresh token to stay signed in.
  route(app, ctx, account.changePass, async (req) => {
    const user = currentUser(req);
    const { tokenVersion } = await limitPasswordChange(ctx, user, () => {
      // The spec's rules answer first (their messages); then the common-password list.
      if (!passwordError(req.body.newPass)) assertPasswordNotCommon(req.body.newPass, 'newPass');
      return changePassword(ctx, user.id, req.body);
    });
    // The new token version voids every other session, re-authentication proof and sign-in
    // challenge; the keys go only when asked (programs would stop).
    const revoked = req.body.revokeKeys
      ? await ctx.db.tx((q) => revokeAllApiKeys(q, user, ctx.clock.now()))
      : 0;
    await mailOwner(ctx, user.id, 'passwordChanged');
    const token = await signToken(ctx, { ...user, roles: rolesFromClaim(user.roles), tokenVersion });
    const msg = revoked
      ? `Password changed. ${revoked} API ${revoked === 1 ? 'key was' : 'keys were'} deleted.`
      : 'Password changed.';
    return { code: 1 as const, msg, token };
  });
  recoveryRoutes(app, ctx);
}
