// The built web app (apps/web/dist), served by the API server:
// - hashed files under /assets/ are cached for a year (`immutable`): a new build has new names;
// - index.html (also the answer for every page route, the SPA fallback) is `no-cache`, so a deploy is
//   picked up on the next load. It is rendered per response with that response's CSP style nonce
//   (the page hands it to the UI library's runtime <style> tags), so it has no ETag and is sent
//   as it is (about 1.5 KB);
// - the assets are sent precompressed (brotli or gzip, written at build by
//   apps/web/scripts/precompress.mjs) when the client accepts it, with `Vary: Accept-Encoding`;
// - HEAD is answered like GET (same status and headers, no body).
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { errorBody } from './errors.ts';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';

/** The placeholder apps/web/index.html carries where each response's style nonce goes. */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Serves `webDist` (when it holds a build) and answers what no route matched. */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(join(webDist, 'index.html'));
  const assets = join(webDist, 'assets') + sep;
  // Read once: a deploy restarts the server. Split at the placeholder, joined with each nonce.
  const page = hasWeb ? readFileSync(join(webDist, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER) : [];
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // One route per built file, made at start: a request never touches the disk for a name that
      // is not there.
      wildcard: false,
      index: false,
      preCompressed: true,
      // The .br/.gz copies are chosen by Accept-Encoding, never asked for by name; index.html is
      // rendered below.
      globIgnore: ['**/*.br', '**/*.gz', 'index.html'],
      cacheControl: false,
      setHeaders(reply, path) {
        reply.header('cache-control', path.startsWith(assets) ? CACHE_IMMUTABLE : CACHE_REVALIDATE);
      },
    });
  }
  // SPA fallback: page routes (GET and HEAD) get index.html; API and asset misses get the JSON 404.
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const isPage =
      hasWeb &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !/^\/api\//i.test(path) &&
      (path === '/index.html' || !/\.[a-z0-9]+$/i.test(path));
    if (isPage) {
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', CACHE_REVALIDATE)
        .send(page.join(reply.styleNonce()));
    }
    return reply.status(404).send(errorBody(notFound(`No route ${req.method} ${path}`)));
  });
}
