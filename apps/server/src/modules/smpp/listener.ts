import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AppContext, Listener } from '../../context.ts';
import { listenEvents } from '../../events.ts';
import { smppState } from './ports.ts';
import { SmppSession } from './session.ts';
import { touchBinds } from './smpp.queries.ts';

function listen(server: Server, host: string, port: number, onError: (err: Error) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
      // Later errors (out of file descriptors…) are logged, never thrown at the process.
      server.on('error', (err) => onError(err));
    });
  });
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * The SMPP ports (SMPP_PORT, and SMPP_TLS_PORT when a certificate and key are set), in every server
 * process: each session sends through messaging like the REST API. Partial messages whose set is
 * not complete in time are dropped here.
 */
export const smppListener: Listener = {
  name: 'smpp',
  start: async (ctx: AppContext) => {
    const state = smppState(ctx);
    const sessions = new Set<SmppSession>();
    const accept = (tls: boolean) => (socket: Socket) => {
      const session = new SmppSession(ctx, socket, tls);
      sessions.add(session);
      socket.on('close', () => sessions.delete(session));
    };
    const servers: Server[] = [];
    const logError = (err: Error) => ctx.log.error({ err }, 'smpp listener error');
    let unlisten: (() => Promise<void>) | undefined;
    const stop = async () => {
      clearInterval(sweep);
      clearInterval(heartbeat);
      await unlisten?.();
      for (const s of sessions) s.close();
      await Promise.all(servers.map(closeServer));
      state.plain = undefined;
      state.tls = undefined;
    };
    const sweep = setInterval(() => {
      for (const d of state.parts.expire(ctx.clock.now().getTime())) {
        ctx.log.info(
          { systemId: d.key.split('|')[0], received: d.received, total: d.total },
          'smpp parts dropped: set not complete in time',
        );
      }
    }, 5_000);
    sweep.unref();
    // This process's binds stay counted by the limit; a crashed process's rows go stale.
    const heartbeat = setInterval(() => {
      const now = ctx.clock.now();
      touchBinds(ctx.db, [...state.bindIds], now, new Date(now.getTime() - state.timing.bindStaleMs)).catch(
        (err) => ctx.log.error({ err }, 'smpp bind heartbeat failed'),
      );
    }, state.timing.heartbeatMs);
    heartbeat.unref();
    try {
      // Rows added to an account's outbox, by any process: its receiving binds here send them.
      unlisten = await listenEvents(ctx.db, (e) => {
        if (e.type !== 'smpp') return;
        for (const session of state.receivers.get(e.apiKeyId) ?? []) session.pump();
      });
      const plain = createServer(accept(false));
      servers.push(plain);
      state.plain = await listen(plain, ctx.config.SMPP_HOST, ctx.config.SMPP_PORT, logError);
      const { SMPP_TLS_CERT: certFile, SMPP_TLS_KEY: keyFile } = ctx.config;
      if (certFile && keyFile) {
        const secure = createTlsServer(
          { cert: readFileSync(certFile), key: readFileSync(keyFile) },
          accept(true),
        );
        servers.push(secure);
        state.tls = await listen(secure, ctx.config.SMPP_HOST, ctx.config.SMPP_TLS_PORT, logError);
      }
    } catch (err) {
      await stop();
      throw err;
    }
    ctx.log.info({ port: state.plain, tlsPort: state.tls ?? null }, 'smpp listening');
    return stop;
  },
};
