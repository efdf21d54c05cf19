import { endpoints } from '@simdock/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import type { HttpPushTransport } from './driver/driver.ts';
import {
  deleteGateway,
  gatewayReport,
  gatewaySettings,
  saveGateway,
  scanGateway,
  setSimNumber,
  simulateSms,
} from './gateways.service.ts';
import { authenticatePush, handlePush, MMS_PUSH_MAX_BYTES } from './push.service.ts';
import {
  lockSimByAdmin,
  sendSimUssdByAdmin,
  setSimOriginByAdmin,
  setSimRoleByAdmin,
  unlockSimByAdmin,
} from './sim-admin.service.ts';

export async function gatewayRoutes(app: App, ctx: AppContext): Promise<void> {
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
  route(app, ctx, sim.ussd, async (req) => sendSimUssdByAdmin(ctx, req.body, currentUser(req)));

  route(app, ctx, endpoints.catalogue.setSimOrigin, async (req) =>
    setSimOriginByAdmin(ctx, req.body, currentUser(req)),
  );

  route(app, ctx, sim.simulateSms, async (req) => simulateSms(ctx, req.body));
}

const ACK = { code: 200 as const, reason: 'OK' as const };

type Channel = HttpPushTransport['channel'];

/**
 * Device pushes, in their own scope: no bearer auth (the id and secret in the path are the
 * credential), and every body is kept as the bytes that came (the driver reads them; a signed
 * push is checked over exactly these bytes).
 */
function pushRoutes(app: App, ctx: AppContext) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const { devicePush } = endpoints;
  const channels: [Channel, (typeof devicePush)[keyof typeof devicePush]][] = [
    ['', devicePush.base],
    ['status', devicePush.status],
    ['sms', devicePush.sms],
    ['mms', devicePush.mms],
    ['report', devicePush.report],
  ];
  for (const [channel, declaration] of channels) {
    route(
      app,
      ctx,
      declaration,
      async (req) => {
        const { id, secret } = req.params;
        const kind = channel || 'push';
        let src: Awaited<ReturnType<typeof authenticatePush>>;
        try {
          src = await authenticatePush(ctx, id, secret);
        } catch (err) {
          // The secret is never logged; the request line is redacted by the app's serializer.
          if (err instanceof DomainError)
            req.log.warn({ gatewayId: id, push: kind, refused: err.code }, 'device push refused');
          throw err;
        }
        const raw: unknown = req.body;
        try {
          const res = await handlePush(ctx, src, {
            transport: { kind: 'http', channel, headers: headersOf(req.headers), query: queryOf(req.query) },
            body: Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === 'string' ? raw : ''),
            now: ctx.clock.now(),
          });
          if (res.stored)
            req.log.info(
              { gatewayId: id, push: res.kind, stored: res.stored, duplicates: res.duplicates },
              'device push stored',
            );
        } catch (err) {
          if (err instanceof DomainError && err.code === 'unauthorized') {
            req.log.warn({ gatewayId: id, push: kind, refused: err.message }, 'device push refused');
          }
          throw err;
        }
        return ACK;
      },
      channel === 'mms' ? { bodyLimit: MMS_PUSH_MAX_BYTES } : {},
    );
  }
}

function headersOf(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
  return out;
}

function queryOf(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}
