import {
  Gateway,
  GatewayIdBody,
  GatewayReport,
  GatewaySettings,
  LockSimBody,
  Ok,
  SetSimNumberBody,
  SetSimNumberResult,
  SetSimRoleBody,
  SimActionResult,
  SimulateSmsBody,
  UnlockSimBody,
  UpdateGatewayBody,
} from '@simdock/contract';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { access, currentUser } from '../../http/route.ts';
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
import { lockSimByAdmin, setSimRoleByAdmin, unlockSimByAdmin } from './sim-admin.service.ts';

export async function gatewayRoutes(app: App, ctx: AppContext): Promise<void> {
  adminRoutes(app, ctx);
  await app.register(async (scope) =>
    pushRoutes(scope.withTypeProvider<ZodTypeProvider>() as unknown as App, ctx),
  );
}

function adminRoutes(app: App, ctx: AppContext) {
  const admin = { tags: ['admin: gateways'] };

  app.post(
    '/api/Admin/getSettings',
    { ...access(ctx, 'admin'), schema: { ...admin, response: { 200: GatewaySettings } } },
    async () => gatewaySettings(ctx),
  );

  app.post(
    '/api/Admin/updateGateway',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: UpdateGatewayBody, response: { 200: Gateway } },
    },
    async (req) => saveGateway(ctx, req.body.gateway, currentUser(req)),
  );

  app.post(
    '/api/Admin/deleteGateway',
    { ...access(ctx, 'admin'), schema: { ...admin, body: GatewayIdBody, response: { 200: Ok } } },
    async (req) => {
      await deleteGateway(ctx, req.body.id, currentUser(req));
      return { code: 1 as const, msg: 'Gateway deleted.' };
    },
  );

  app.post(
    '/api/Admin/gatewayScan',
    { ...access(ctx, 'admin'), schema: { ...admin, body: GatewayIdBody, response: { 200: Gateway } } },
    async (req) => scanGateway(ctx, req.body.id),
  );

  app.post(
    '/api/Admin/gatewayReport',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: GatewayIdBody, response: { 200: GatewayReport } },
    },
    async (req) => gatewayReport(ctx, req.body.id),
  );

  app.post(
    '/api/Admin/setSimNumber',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: SetSimNumberBody, response: { 200: SetSimNumberResult } },
    },
    async (req) => setSimNumber(ctx, req.body, currentUser(req)),
  );

  app.post(
    '/api/Admin/lockSim',
    {
      ...access(ctx, 'admin'),
      schema: {
        ...admin,
        description:
          'Locks a SIM by hand (neither rented nor used for sending); without minutes it stays locked until unlocked.',
        body: LockSimBody,
        response: { 200: SimActionResult },
      },
    },
    async (req) => lockSimByAdmin(ctx, req.body, currentUser(req)),
  );

  app.post(
    '/api/Admin/unlockSim',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: UnlockSimBody, response: { 200: SimActionResult } },
    },
    async (req) => unlockSimByAdmin(ctx, req.body, currentUser(req)),
  );

  app.post(
    '/api/Admin/setSimRole',
    {
      ...access(ctx, 'admin'),
      schema: { ...admin, body: SetSimRoleBody, response: { 200: SimActionResult } },
    },
    async (req) => setSimRoleByAdmin(ctx, req.body, currentUser(req)),
  );

  app.post(
    '/api/Admin/simulateSms',
    { ...access(ctx, 'admin'), schema: { ...admin, body: SimulateSmsBody, response: { 200: Ok } } },
    async (req) => simulateSms(ctx, req.body),
  );
}

const PushParams = z.object({ id: z.string(), secret: z.string() });
const PushAck = z.object({ code: z.literal(200), reason: z.literal('OK') });
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

  const authenticated = async (req: FastifyRequest, kind: PushKind) => {
    const { id, secret } = req.params as z.infer<typeof PushParams>;
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
  const schema = { tags: ['device pushes'], params: PushParams, response: { 200: PushAck } };
  const device = access(ctx, 'public');

  app.post('/api/gw/:id/:secret/status', { ...device, schema }, async (req) => {
    await handleStatusPush(ctx, await authenticated(req, 'status'), req.body);
    return ACK;
  });

  app.post('/api/gw/:id/:secret/sms', { ...device, schema }, async (req) => {
    const src = await authenticated(req, 'sms');
    const query: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string') query[k] = v;
    }
    const res = await handleSmsPush(ctx, src, req.body, query);
    if (res.stored > 0) req.log.info({ gatewayId: src.gw.id, ...res }, 'incoming SMS stored');
    return ACK;
  });

  app.post('/api/gw/:id/:secret/mms', { ...device, schema, bodyLimit: MMS_PUSH_MAX_BYTES }, async (req) => {
    const src = await authenticated(req, 'mms');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.from(String(req.body ?? ''), 'latin1');
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v[0] : v;
    const res = await handleMmsPush(ctx, src, headers, body);
    if (res.stored > 0) req.log.info({ gatewayId: src.gw.id, ...res }, 'incoming MMS stored');
    return ACK;
  });

  app.post('/api/gw/:id/:secret/report', { ...device, schema }, async (req) => {
    await handleReportPush(ctx, await authenticated(req, 'report'), req.body);
    return ACK;
  });
}
