// Devices that speak datagrams (UDP): one socket per kind of device, held by a listener of this
// process. A datagram names its device inside (push.service.ts authenticates it); the answer goes
// back from the same socket to the address and port it came from, as devices behind NAT need.
import { createSocket, type Socket } from 'node:dgram';
import type { AppContext, Listener } from '../../context.ts';
import { datagramPorts } from './datagram-ports.ts';
import type { DatagramAddress, DatagramPort } from './driver/driver.ts';
import { handleDatagramPush } from './push.service.ts';

export interface DatagramListenerOptions {
  host: string;
  /** 0 picks a free port (tests); `address()` of the started listener tells which. */
  port: number;
  /** Told the bound address once listening (tests, the start log). */
  onListening?: (address: DatagramAddress) => void;
}

/** The listener that holds a kind's socket: every datagram becomes a push of that kind. */
export function datagramListener(kind: string, opts: DatagramListenerOptions): Listener {
  return {
    name: `${kind} datagrams`,
    async start(ctx) {
      const socket = createSocket({ type: opts.host.includes(':') ? 'udp6' : 'udp4' });
      const port: DatagramPort = {
        send: (to, data) =>
          new Promise((resolve, reject) =>
            socket.send(data, to.port, to.address, (err) => (err ? reject(err) : resolve())),
          ),
      };
      socket.on('message', (body, from) => {
        void answer(ctx, kind, port, body, { address: from.address, port: from.port });
      });
      // A send to an address that refuses (ICMP) surfaces here: logged, the socket stays up.
      socket.on('error', (err) => ctx.log.warn({ err, kind }, 'datagram socket error'));
      await bind(socket, opts);
      const bound = socket.address();
      opts.onListening?.({ address: bound.address, port: bound.port });
      datagramPorts(ctx).set(kind, port);
      ctx.log.info({ kind, port: bound.port }, 'listening for device datagrams');
      return async () => {
        if (datagramPorts(ctx).get(kind) === port) datagramPorts(ctx).delete(kind);
        await new Promise<void>((resolve) => socket.close(() => resolve()));
      };
    },
  };
}

function bind(socket: Socket, opts: DatagramListenerOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(opts.port, opts.host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

/** One datagram: applied, then answered when the device's protocol says so. Never throws. */
async function answer(
  ctx: AppContext,
  kind: string,
  port: DatagramPort,
  body: Buffer,
  from: DatagramAddress,
) {
  try {
    const result = await handleDatagramPush(ctx, kind, {
      transport: { kind: 'datagram', from },
      body,
      now: ctx.clock.now(),
    });
    if (result.kind === 'refused') {
      ctx.log.warn({ kind, from, refused: result.why }, 'device datagram refused');
      return;
    }
    if (result.stored)
      ctx.log.info(
        { kind, push: result.kind, stored: result.stored, duplicates: result.duplicates },
        'device push stored',
      );
    if (result.reply) await port.send(from, result.reply);
  } catch (err) {
    ctx.log.error({ err, kind, from }, 'device datagram failed');
  }
}
