import { endpoints } from '@simdock/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  deleteGateway,
  gatewayReport,
  gatewaySettings,
  saveGateway,
  scanGateway,
  setSimNumber,
  simulateSms,
} from './gateways.service.ts';
import {
  authenticatePush,
  handleMmsPush,
  handleReportPush,
  handleSmsPush,
  handleStatusPush,
  MMS_PUSH_MAX_BYTES,
} from './push.service.ts';
import { watchGatewayChanges } from './push-targets.ts';
import { lockSimByAdmin, setSimRoleByAdmin, unlockSimByAdmin } from './sim-admin.service.ts';

export async function gatewayRoutes(app: App, ctx: AppContext): Promise<void> {
  // Edits made through another process reach this one's kept push targets.
  const unwatch = await watchGatewayChanges(ctx);
  app.addHook('onClose', () => unwatch());
  adminRoutes(app, ctx);
  await app.register(async (scope) =>
    pushRoutes(scope.withTypeProvider<ZodTypeProvider>() as unknown as App, ctx),
  );
}

function adminRoutes(app: App, ctx: AppContext) {
  const { gateway, sim } = endpoints;

  route(app, ctx, gateway.getSettings, async () => gatewaySettings(ctx));

  route(app, ctx, gateway.update, async (req) => saveGateway(ctx, req.body.gateway, currentUser(req)));

  route(app, ctx, gateway.delete, async (req) => {
    await deleteGateway(ctx, req.body.id, currentUser(req));
    return { code: 1 as const, msg: 'Gateway deleted.' };
  });

  route(app, ctx, gateway.scan, async (req) => scanGateway(ctx, req.body.id));

  route(app, ctx, gateway.report, async (req) => gatewayReport(ctx, req.body.id));

  route(app, ctx, sim.setNumber, async (req) => setSimNumber(ctx, req.body, currentUser(req)));

  route(app, ctx, sim.lock, async (req) => lockSimByAdmin(ctx, req.body, currentUser(req)));

  route(app, ctx, sim.unlock, async (req) => unlockSimByAdmin(ctx, req.body, currentUser(req)));

  route(app, ctx, sim.setRole, async (req) => setSimRoleByAdmin(ctx, req.body, currentUser(req)));

  route(app, ctx, sim.simulateSms, async (req) => simulateSms(ctx, req.body));
}

const ACK = { code: 200 as const, reason: 'OK' as const };

type PushKind = 'status' | 'sms' | 'report' | 'mms';

/**
 * Device pushes, in their own scope: no bearer auth (the id and secret in the path are the
 * credential), and any body type is read as text (the "SMS to HTTP" forward is plain text).
 */
function pushRoutes(app: App, ctx: AppContext) {
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // Incoming MMS (multipart/related with binary parts) are read as bytes.
  app.addContentTypeParser(
    'multipart/related',
    { parseAs: 'buffer', bodyLimit: MMS_PUSH_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );

  const authenticated = async (
    req: { params: { id: string; secret: string }; log: FastifyBaseLogger },
    kind: PushKind,
  ) => {
    const { id, secret } = req.params;
    try {
      return await authenticatePush(ctx, id, secret);
    } catch (err) {
      if (err instanceof DomainError) {
        // The secret is never logged; the request line is redacted by the app's serializer.
        req.log.warn({ gatewayId: id, push: kind, refused: err.code }, 'device push refused');
      }
      throw err;
    }
  };

  const { devicePush } = endpoints;

  route(app, ctx, devicePush.status, async (req) => {
    await handleStatusPush(ctx, await authenticated(req, 'status'), req.body);
    return ACK;
  });

  route(app, ctx, devicePush.sms, async (req) => {
    const src = await authenticated(req, 'sms');
    const query: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string') query[k] = v;
    }
    const res = await handleSmsPush(ctx, src, req.body, query);
    if (res.stored > 0) req.log.info({ gatewayId: src.gw.id, ...res }, 'incoming SMS stored');
    return ACK;
  });

  route(
    app,
    ctx,
    devicePush.mms,
    async (req) => {
      const src = await authenticated(req, 'mms');
      const raw: unknown = req.body;
      const body = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw ?? ''), 'latin1');
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v[0] : v;
      const res = await handleMmsPush(ctx, src, headers, body);
      if (res.stored > 0) req.log.info({ gatewayId: src.gw.id, ...res }, 'incoming MMS stored');
      return ACK;
    },
    { bodyLimit: MMS_PUSH_MAX_BYTES },
  );

  route(app, ctx, devicePush.report, async (req) => {
    await handleReportPush(ctx, await authenticated(req, 'report'), req.body);
    return ACK;
  });
}
