import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { mailMode, outbox } from '../../mail/index.ts';
import { checkResetLink, requestReset, resetPassword } from './recovery.service.ts';

/** Password recovery by email, and the admin's view of the mails kept instead of sent. */
export function recoveryRoutes(app: App, ctx: AppContext) {
  const { auth } = endpoints;
  route(app, ctx, auth.forgot, async (req) => requestReset(ctx, { login: req.body.login, ip: req.ip }));
  route(app, ctx, auth.reset, async (req) => {
    await resetPassword(ctx, { ...req.body, ip: req.ip });
    return { code: 1 as const, msg: 'Your password was changed. Sign in with the new one.' };
  });
  route(app, ctx, auth.resetCheck, async (req) => {
    await checkResetLink(ctx, { token: req.body.token, ip: req.ip });
    return { code: 1 as const, msg: 'This link works. Choose a new password.' };
  });
  route(app, ctx, auth.mailOutbox, async () => ({
    code: 1 as const,
    mode: mailMode(ctx.config),
    mails: outbox(ctx).map((m) => ({ ...m, at: m.at.toISOString() })),
  }));
}
