import type { Listener } from '../../context.ts';
import { exclusiveListener } from '../../workers/exclusive.ts';
import { datagramListener } from './datagram.ts';

/**
 * The GoIP port (GOIP_UDP_PORT): one socket per deployment, held by one server process at a time
 * under a PostgreSQL advisory lock and taken over by another within seconds when that process dies.
 */
export const goipListener: Listener = {
  name: 'goip datagrams (one process at a time)',
  start: (ctx) =>
    exclusiveListener(
      datagramListener('goip', { host: ctx.config.GOIP_UDP_HOST, port: ctx.config.GOIP_UDP_PORT }),
      {
        lock: 'goip-udp',
      },
    ).start(ctx),
};
