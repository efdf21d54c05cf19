import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import type { ModuleDescriptor } from '../../module.ts';
import { liveEventsListener, liveStreams } from './live.hub.ts';

// Live: one server-sent-events stream per signed-in user, carrying every module's events (orders
// now; balances, campaigns and chat later). Modules register how to render their event types.

function liveRoutes(app: App, ctx: AppContext) {
  const { hub, pings } = liveStreams(ctx);
  // Shutdown: every open stream is ended (a clean end; the browser reconnects, to another process
  // behind the proxy or to this one once it is back), so the server's close does not wait for them.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  // The events and their payloads: the contract's `liveEvents`; the renderers are typed by them.
  route(app, ctx, endpoints.live.stream, async (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    // Hijacked: Fastify writes nothing, so the headers set for every response (security, request
    // id) go out with the stream's own.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // HEAD gets the headers and the end: no body ever follows, so no stream is held open for it.
    if (req.method === 'HEAD') {
      res.end();
      return reply;
    }
    res.write('retry: 3000\n: connected\n\n');
    const unsubscribe = hub.subscribe(currentUser(req).id, (m) => {
      res.write(`event: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
    });
    const ping = () => res.write(': ping\n\n');
    pings.add(ping);
    ctx.metrics.sseStreams.inc();
    const end = () => {
      open.delete(end);
      pings.delete(ping);
      unsubscribe();
      // The terminating chunk, then the socket: it is not kept alive for another request.
      const socket = res.socket;
      res.end(() => socket?.end());
    };
    open.add(end);
    req.raw.on('close', () => {
      ctx.metrics.sseStreams.dec();
      open.delete(end);
      pings.delete(ping);
      unsubscribe();
    });
    // Hijacked: Fastify ignores what the handler answers; the stream writes on its own.
    return reply;
  });
}

export const liveModule: ModuleDescriptor = {
  name: 'live',
  tables: [],
  routes: liveRoutes,
  listeners: [liveEventsListener],
};
