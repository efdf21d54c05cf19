import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import pinoPretty from 'pino-pretty';
import type { KernelConfig } from '../config.ts';
import type { Db } from '../db/db.ts';
import { type AppMetrics, instrumentHttp } from '../metrics.ts';
import { registerAnswerHeaders } from './answer-headers.ts';
import { registerErrorHandling } from './errors.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_HEADER_SIZE,
  registerUrlLimit,
} from './framework-errors.ts';
import { readinessProblem } from './readiness.ts';
import { RequestLog } from './request-log.ts';
import { type DeclaredRoute, enforceDeclaredAccess, readEmptyBodies } from './route.ts';
import { registerSecurity } from './security.ts';
import { swaggerUiOptions } from './swagger-ui.ts';
import type { App } from './types.ts';

// The HTTP server every module's routes are registered on: Fastify with its logger, the error
// answers, headers, metrics, the OpenAPI document and the health probes. It knows no module; the
// composition (src/app.ts) registers them.

const API_DESCRIPTION = `OTP number rental and SMS messaging.

**For programs** (scripts, bots): create an API key on the API Key page, then use either

- the REST API under \`/api/v1\` (tag *rental API v1*) with \`Authorization: Bearer <api key>\`, or
- the SMS-Activate-compatible handler \`/stubs/handler_api.php\` (tag *SMS-Activate handler*), so existing
  SMS-Activate / HeroSMS client libraries work by changing only their base URL.

Each key has scopes (\`rental\`, \`messaging:send\`, \`messaging:read\`; every call says which it
needs), and may be limited to addresses (IPv4/IPv6, CIDR) and given an expiry: a call the key may not
make is refused with 403 and the reason, an expired key with 401 \`api_key_expired\`.

Every API-key call is rate limited per user (\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`,
\`X-RateLimit-Reset\` headers; 429 with \`Retry-After\` when over). Incoming codes can also be pushed
to your webhooks: JSON POST signed with HMAC-SHA256 over \`<timestamp>.<body>\` (headers
\`X-SimDock-Timestamp\`, \`X-SimDock-Signature: sha256=<hex>\`).`;

const API_TAGS = [
  { name: 'rental API v1', description: 'REST API for programs, authenticated with an API key.' },
  {
    name: 'SMS-Activate handler',
    description: 'The SMS-Activate protocol: plain-text tokens with HTTP 200, numeric activation ids.',
  },
  { name: 'api key', description: 'The API Key page: the key and the webhooks (session token).' },
];

/** Device push URLs carry a secret in the path: never let it reach a log line. */
export function redactUrl(url: string): string {
  // API keys travel as the `api_key` parameter of the SMS-Activate handler: never log them either.
  return url
    .replace(/(\/api\/gw\/[^/]+\/)[^/?]+/i, '$1[secret]')
    .replace(/([?&]api_key=)[^&#]*/gi, '$1[secret]');
}

export interface HttpAppOptions {
  config: KernelConfig;
  db: Db;
  metrics: AppMetrics;
  /** The built web app's folder (its security headers name its files). */
  webDist: string;
  /** Where JSON log lines go (tests capture them); stdout by default. */
  logStream?: { write(line: string): void } | undefined;
}

export interface HttpApp {
  app: App;
  /** Every API route with the access it declared (filled as routes are registered). */
  routes: DeclaredRoute[];
}

/**
 * Log lines a person reads in a terminal (LOG_FORMAT=pretty, or auto with stdout a terminal);
 * JSON lines otherwise, for log collectors. Synchronous, so a crash loses no line.
 */
function humanLogStream(config: KernelConfig): { write(line: string): void } | undefined {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY);
  return pretty
    ? pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
    : undefined;
}

/** The HTTP server, ready for the modules' routes (then the web app's). */
export async function createHttpApp(opts: HttpAppOptions): Promise<HttpApp> {
  const { config, db, webDist } = opts;
  let securityHeaders: Record<string, string> = {};
  const logStream = opts.logStream ?? humanLogStream(config);
  const fastify = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      ...(logStream ? { stream: logStream } : {}),
      redact: {
        paths: [
          'req.headers.authorization',
          '*.password',
          '*.passwordHash',
          '*.newPass',
          '*.oldPass',
          '*.token',
          '*.secret',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
    },
    // One line per request, at its own level, instead of two at info.
    logController: new RequestLog(),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: config.TRUST_PROXY,
    // On close only idle keep-alive connections are cut: requests in flight finish and get their
    // answer (graceful shutdown). Live streams (SSE) are ended by the live module (preClose).
    forceCloseConnections: 'idle',
    bodyLimit: 2 * 1024 * 1024,
    // Answers given before any hook (bad URL, over-long head) still get the app's shape and headers.
    http: { maxHeaderSize: MAX_HEADER_SIZE },
    frameworkErrors: frameworkErrors(() => securityHeaders),
    clientErrorHandler: clientErrorHandler(() => securityHeaders),
  });
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  const app = fastify.withTypeProvider<ZodTypeProvider>() as unknown as App;
  const routes = enforceDeclaredAccess(app);
  readEmptyBodies(app);

  registerErrorHandling(app, async () => (await readinessProblem(db)) !== undefined);
  registerAnswerHeaders(app);
  instrumentHttp(app, opts.metrics);
  securityHeaders = registerSecurity(app, config, webDist);
  registerUrlLimit(app);
  // Once closing, an answer ends its connection, so a keep-alive client cannot hold the close open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Set on arrival, so a hijacked reply (the live stream) carries it too.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'SimDock API', version: '1.0.0', description: API_DESCRIPTION },
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'API key',
            description: 'Your API key from the API Key page: `Authorization: Bearer sd_…`.',
          },
          apiKeyParam: {
            type: 'apiKey',
            in: 'query',
            name: 'api_key',
            description: 'Your API key as the `api_key` parameter (query string or form body).',
          },
          apiKeyBasic: {
            type: 'http',
            scheme: 'basic',
            description:
              'SMSGate clients: Basic auth with your SimDock username and an API key as the password.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, swaggerUiOptions);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const problem = await readinessProblem(db);
    if (!problem) return { status: 'ready' };
    return reply.status(503).send({ code: 0, error: 'unavailable', msg: problem });
  });

  return { app, routes };
}
