import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** A request that took longer than this is worth a line at the default level. */
export const SLOW_REQUEST_MS = 1000;

export type RequestLogLevel = 'debug' | 'info' | 'warn';

/**
 * The level of a finished request's log line. Routine answers (the web's polls, device pushes) go at
 * debug: at info they filled the log with a line every few seconds per browser and per device. What
 * a person looks for stays at info or above: refused or failed requests, and slow ones. A live
 * stream (SSE) lasts as long as the browser stays, so its duration says nothing.
 */
export function requestLogLevel(statusCode: number, elapsedMs: number, stream: boolean): RequestLogLevel {
  if (statusCode >= 500) return 'warn';
  if (statusCode >= 400) return 'info';
  if (!stream && elapsedMs >= SLOW_REQUEST_MS) return 'info';
  return 'debug';
}

/** Fastify's request lines: none on arrival, one on completion at the level above. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const type = reply.raw.getHeader('content-type');
    const stream = typeof type === 'string' && type.startsWith('text/event-stream');
    const level = error ? 'warn' : requestLogLevel(reply.statusCode, reply.elapsedTime, stream);
    request.log[level](
      {
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime),
        ...(error ? { err: error } : {}),
      },
      'request completed',
    );
  }
}
