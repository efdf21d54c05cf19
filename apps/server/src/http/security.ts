// Security headers (helmet): a strict Content-Security-Policy for the web app, no framing, no
// MIME sniffing, a conservative Referrer-Policy, and HSTS when the public URL is HTTPS. No CORS:
// the API answers its own origin only (no Access-Control-* headers are ever sent).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

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

declare module 'fastify' {
  interface FastifyReply {
    /** Sets this response's CSP with a fresh style nonce (for an HTML page) and returns the nonce. */
    styleNonce(): string;
  }
}

/**
 * Registers the headers on every response; `webDist` is where the served index.html lives.
 *
 * helmet's middleware is built once here and applied per request (building it parses every CSP
 * directive: @fastify/helmet rebuilt it on every request, a fifth of a small request's CPU).
 * JSON answers get the static policy; an HTML page calls `reply.styleNonce()`, which sets the same
 * policy plus that response's nonce in `style-src` (the page gives it to the UI library's runtime
 * <style> tags, so no 'unsafe-inline' is needed).
 */
export function registerSecurity(app: FastifyInstance, config: Config, webDist: string): void {
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
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The app loads nothing cross-origin; COEP would only get in the way of future assets.
    crossOriginEmbedderPolicy: false,
  });
  const NONCE = Symbol('style nonce');
  type WithNonce = ServerResponse & { [NONCE]?: string };
  const pageCsp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...directives,
      styleSrc: [...directives.styleSrc, (_req, res) => `'nonce-${(res as WithNonce)[NONCE]}'`],
    },
  });
  const ignore = () => {};

  app.addHook('onRequest', (req, reply, done) =>
    headers(req.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  app.decorateReply('styleNonce', function (this: FastifyReply) {
    const nonce = randomBytes(16).toString('hex');
    (this.raw as WithNonce)[NONCE] = nonce;
    pageCsp(this.request.raw, this.raw, ignore);
    return nonce;
  });
  app.addHook('onSend', async (req, reply) => {
    if (/^\/swagger(?:[/?]|$)/i.test(req.url)) reply.header('content-security-policy', SWAGGER_CSP);
  });
}
