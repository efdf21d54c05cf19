// Security headers (helmet): a strict Content-Security-Policy for the web app, no framing, no
// MIME sniffing, a conservative Referrer-Policy, and HSTS when the public URL is HTTPS. No CORS:
// the API answers its own origin only (no Access-Control-* headers are ever sent).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { KernelConfig } from '../config.ts';

/**
 * SHA-256 hashes (base64) of the inline scripts of an HTML page, as CSP's 'sha256-…' wants them:
 * the exact text between <script> and </script> of every script without a src. The page is our
 * own built index.html, read once at start.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  const lower = html.toLowerCase();
  let pos = 0;
  for (;;) {
    const open = lower.indexOf('<script', pos);
    if (open < 0) break;
    const tagEnd = lower.indexOf('>', open);
    const close = lower.indexOf('</script>', tagEnd);
    if (tagEnd < 0 || close < 0) break;
    const attrs = lower.slice(open + 7, tagEnd);
    if (!/\bsrc\s*=/.test(attrs)) {
      hashes.push(
        createHash('sha256')
          .update(html.slice(tagEnd + 1, close), 'utf8')
          .digest('base64'),
      );
    }
    pos = close + 9;
  }
  return hashes;
}

/** Swagger UI's bundle sets inline styles and shows data: images; its pages only get these. */
const SWAGGER_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The JSON APIs (the web app's, the program API and the SMS-Activate handler); routing ignores case. */
const API_PATH = /^\/(?:api|stubs)\//i;
const SWAGGER_PATH = /^\/swagger(?:[/?]|$)/i;
const API_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

declare module 'fastify' {
  interface FastifyReply {
    /** Sets this response's CSP with a fresh style nonce (for an HTML page) and returns the nonce. */
    styleNonce(): string;
  }
}

/**
 * Registers the headers on every response; `webDist` is where the served index.html lives.
 *
 * helmet computes the headers once, here (@fastify/helmet rebuilt its middleware on every request,
 * parsing every CSP directive: a fifth of a small request's CPU; running the built middleware per
 * request still cost a tenth). Three sets: API answers (data), Swagger UI, and everything else
 * (the page set). An HTML page also calls `reply.styleNonce()`, which sets the page policy plus
 * that response's nonce in `style-src` (the page gives it to the UI library's runtime <style>
 * tags, so no 'unsafe-inline' is needed).
 */
/** Registers the security headers; returns the API answers' set (for answers given outside hooks). */
export function registerSecurity(
  app: FastifyInstance,
  config: KernelConfig,
  webDist: string,
): Record<string, string> {
  const indexHtml = join(webDist, 'index.html');
  const scriptHashes = existsSync(indexHtml) ? inlineScriptHashes(readFileSync(indexHtml, 'utf8')) : [];
  const https = config.PUBLIC_URL.startsWith('https://');
  const directives = {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    // blob: for chat media the page fetched with its token (images, videos, attachment previews).
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Only over HTTPS: on a plain-HTTP address it would break every asset.
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
  const common = {
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The app loads nothing cross-origin; COEP would only get in the way of future assets.
    crossOriginEmbedderPolicy: false,
  } as const;
  // helmet's headers depend on nothing in the request: computed once, each response gets a copy
  // through Fastify's own header list (no middleware chain, and each header is checked once, when
  // the response is written). A hijacked response (the live event stream) passes reply.getHeaders().
  const documentHeaders = headersOf(
    helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives } }),
  );
  // API answers are data, never documents: a policy that allows nothing, and none of the headers
  // that only a document reads (opener policy, agent cluster, DNS prefetch, IE's download and XSS
  // switches, Flash's cross-domain policy). What stays is what OWASP asks of a REST answer, plus
  // Cross-Origin-Resource-Policy; 400 bytes less on every call.
  const apiHeaders = headersOf(
    helmet({
      ...common,
      contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  const swaggerHeaders = { ...documentHeaders, 'content-security-policy': SWAGGER_CSP };
  const NONCE = Symbol('style nonce');
  type WithNonce = ServerResponse & { [NONCE]?: string };
  const pageCsp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...directives,
      styleSrc: [...directives.styleSrc, (_req, res) => `'nonce-${(res as WithNonce)[NONCE]}'`],
    },
  });

  app.addHook('onRequest', (req, reply, done) => {
    const url = req.url;
    reply.headers(
      API_PATH.test(url) ? apiHeaders : SWAGGER_PATH.test(url) ? swaggerHeaders : documentHeaders,
    );
    done();
  });
  app.decorateReply('styleNonce', function (this: FastifyReply) {
    const nonce = randomBytes(16).toString('hex');
    const csp = headersOf((req, res, next) => {
      (res as WithNonce)[NONCE] = nonce;
      pageCsp(req, res, next);
    });
    this.headers(csp);
    return nonce;
  });
  return apiHeaders;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The headers a helmet middleware sets, run once against a response that only records them. */
function headersOf(middleware: Middleware): Record<string, string> {
  const set: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete set[name.toLowerCase()];
    },
  };
  let failed: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err) => {
    failed = err;
  });
  if (failed) throw failed;
  return set;
}
