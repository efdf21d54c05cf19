import { endpoints } from '@simdock/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { statusOf } from '../../http/errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { smsgateMessageState, smsgateSend } from './smsgate-api.service.ts';
import { smsgateDeleteWebhook, smsgateRegisterWebhook, smsgateWebhooks } from './webhooks.service.ts';

/**
 * SMSGate clients read `{"message": "…"}` on any refusal (docs/devices-smsgate.md, "Errors"), so
 * these routes answer errors in SMSGate's shape, with SimDock's status for each.
 */
function smsgateErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof DomainError) {
    return reply.status(statusOf(err)).send({ message: err.message, code: err.code });
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const issue = err.validation[0];
    const field = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.');
    return reply
      .status(400)
      .send({ message: `${field ? `${field}: ` : ''}${issue?.message ?? 'is invalid'}` });
  }
  const status = err.statusCode;
  if (status && status >= 400 && status < 500) return reply.status(status).send({ message: err.message });
  req.log.error({ err }, 'SMSGate-compatible API failed');
  return reply.status(500).send({ message: 'Internal error. Please try again.' });
}

/** SMSGate's third-party API under /3rdparty/v1 (Basic auth: SimDock username and API key). */
export function smsgateApiRoutes(app: App, ctx: AppContext) {
  const api = endpoints.smsgateApi;
  const extras = { errorHandler: smsgateErrors };

  for (const declaration of [api.send, api.sendPlural]) {
    route(
      app,
      ctx,
      declaration,
      async (req, reply) => reply.status(202).send(await smsgateSend(ctx, currentUser(req), req.body)),
      extras,
    );
  }
  for (const declaration of [api.state, api.statePlural]) {
    route(
      app,
      ctx,
      declaration,
      async (req) => smsgateMessageState(ctx, currentUser(req).id, req.params.id),
      extras,
    );
  }
  route(app, ctx, api.webhooks, async (req) => smsgateWebhooks(ctx, currentUser(req).id), extras);
  route(
    app,
    ctx,
    api.registerWebhook,
    async (req, reply) =>
      reply.status(201).send(await smsgateRegisterWebhook(ctx, currentUser(req).id, req.body)),
    extras,
  );
  route(
    app,
    ctx,
    api.deleteWebhook,
    async (req, reply) => {
      await smsgateDeleteWebhook(ctx, currentUser(req).id, req.params.id);
      return reply.status(204).send();
    },
    extras,
  );
  route(app, ctx, api.health, async () => ({
    status: 'pass' as const,
    version: 'simdock',
    releaseId: 1,
    checks: {},
  }));
}
