import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badInput } from '../errors.ts';
import { errorBody } from './errors.ts';

// Answers the framework gives before any route or hook runs (a URL that cannot be decoded, a
// path parameter past its length, a request line or headers too long for the parser): the app's
// error shape and its API security headers, never the URL echoed back.

/** Longest URL answered normally; a longer one is 414 (the parser's limit is the whole head). */
export const MAX_URL_LENGTH = 8 * 1024;
/** Request line plus headers, as Node's parser counts them (Node's default, stated here). */
export const MAX_HEADER_SIZE = 16 * 1024;

type Headers = () => Record<string, string>;

const BAD_URL = 'The address is not a valid URL.';
const URL_TOO_LONG = `The address is too long (at most ${MAX_URL_LENGTH} characters).`;

/** Fastify's `frameworkErrors`: a bad URL is 400, an over-long path parameter 414. */
export function frameworkErrors(headers: Headers) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
    req.log.info({ code: err.code }, 'request refused by the router');
    reply
      .headers(headers())
      .header('x-request-id', req.id)
      .status(tooLong ? 414 : 400)
      .send(errorBody(badInput(tooLong ? URL_TOO_LONG : BAD_URL)));
  };
}

/** An over-long URL answers 414 in the app's shape (registered after the security headers). */
export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.length <= MAX_URL_LENGTH) return done();
    reply.status(414).send(errorBody(badInput(URL_TOO_LONG)));
  });
}

/**
 * Node's `clientError` (no request object exists yet): a head past MAX_HEADER_SIZE is 414 when the
 * request line alone is that long, else 431; anything else unparsable is 400.
 */
export function clientErrorHandler(headers: Headers) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let msg = 'The request could not be read.';
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      msg = 'The request took too long to arrive.';
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      // Node hands the bytes read so far as a Buffer (Fastify's type says otherwise).
      const head = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : '';
      const lineTooLong = !head.includes('\r\n') || head.indexOf('\r\n') > MAX_URL_LENGTH;
      status = lineTooLong ? 414 : 431;
      msg = lineTooLong ? URL_TOO_LONG : 'The request headers are too large.';
    } else if (err.code === 'HPE_URI_TOO_LONG') {
      status = 414;
      msg = URL_TOO_LONG;
    }
    if (socket.writable) {
      const body = JSON.stringify(errorBody(badInput(msg)));
      const lines = Object.entries({
        ...headers(),
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      }).map(([k, v]) => `${k}: ${v}`);
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
    }
    socket.destroy(err);
  };
}
