import type { FastifyInstance } from 'fastify';

/** Retry-After when an answer did not say: a rate limit's window is unknown here, a missing database comes back soon. */
export const DEFAULT_RETRY_AFTER = { 429: 60, 503: 5 } as const;

/** The JSON APIs (the web app's, the program API and the SMS-Activate handler); routing ignores case. */
const API_PATH = /^\/(?:api|stubs)\//i;

/**
 * Headers every answer gets unless its route set them: `Retry-After` on each 429 and 503 (the error
 * handler sets the exact wait when it knows it), and `Cache-Control: no-store` on API answers: they
 * are one user's data and may carry a session token or an API key (sign-in, register, User Info,
 * the API Key page), which no browser or proxy cache may keep.
 */
export function registerAnswerHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const status = reply.statusCode;
    if ((status === 429 || status === 503) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', DEFAULT_RETRY_AFTER[status]);
    }
    if (API_PATH.test(req.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
