import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { reauthenticate } from './reauth.ts';
import {
  answerChallenge,
  confirmEnrolment,
  disableSecondFactor,
  regenerateRecoveryCodes,
  resetSecondFactor,
  secondFactorStatus,
  startEnrolment,
} from './second-factor.service.ts';

/** Routes an admin who must still enrol (REQUIRE_ADMIN_2FA) may reach. */
const enrolment = { config: { secondFactorSetup: true } };

export function secondFactorRoutes(app: App, ctx: AppContext) {
  const sf = endpoints.secondFactor;
  route(app, ctx, sf.status, async (req) => secondFactorStatus(ctx, currentUser(req)), enrolment);
  route(app, ctx, sf.start, async (req) => startEnrolment(ctx, currentUser(req)), enrolment);
  route(
    app,
    ctx,
    sf.confirm,
    async (req) => ({
      code: 1 as const,
      msg: 'Two-factor authentication is on.',
      recoveryCodes: await confirmEnrolment(ctx, currentUser(req), req.body.code),
    }),
    enrolment,
  );
  route(app, ctx, sf.regenerate, async (req) => ({
    code: 1 as const,
    msg: 'New recovery codes made; the old ones no longer work.',
    recoveryCodes: await regenerateRecoveryCodes(ctx, currentUser(req), req.body.code, req.ip),
  }));
  route(app, ctx, sf.disable, async (req) => {
    await disableSecondFactor(ctx, currentUser(req), req.body.code, req.ip);
    return { code: 1 as const, msg: 'Two-factor authentication is off.' };
  });
  route(app, ctx, sf.login, async (req) => ({
    token: await answerChallenge(ctx, { ...req.body, ip: req.ip }),
  }));
  // Reachable by an admin who must still enrol: the enrolment itself needs a fresh proof.
  route(
    app,
    ctx,
    sf.reauth,
    async (req) => ({
      code: 1 as const,
      ...(await reauthenticate(ctx, currentUser(req), { ...req.body, ip: req.ip })),
    }),
    enrolment,
  );
  route(app, ctx, sf.reset, async (req) => {
    await resetSecondFactor(ctx, currentUser(req), req.body.id);
    return { code: 1 as const, msg: 'Two-factor authentication was reset.' };
  });
}
