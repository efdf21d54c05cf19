// Devices that speak datagrams (UDP): one socket per kind of device, held by a listener of this
// process. A datagram names its device inside (push.service.ts authenticates it), or answers a
// request of this process (a send session: handed to it); the answer goes back from the same
// socket to the address and port it came from, as devices behind NAT need. The process that holds
// the socket also runs the sends the platform holds for the kind (held-sends.ts).
import { createSocket, type Socket } from 'node:dgram';
import type { AppContext, Listener } from '../../context.ts';
import { datagramAnswers, datagramPorts } from './datagram-ports.ts';
import type { DatagramAddress, DatagramPort } from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';
import { type HeldSendsOptions, startHeldSends } from './held-sends.ts';
import { handleDatagramPush } from './push.service.ts';

export interface DatagramListenerOptions {
  host: string;
  /** 0 picks a free port (tests); `address()` of the started listener tells which. */
  port: number;
  /** Told the bound address once listening (tests, the start log). */
  onListening?: (address: DatagramAddress) => void;
  heldSends?: HeldSendsOptions;
}

/** A refused datagram is logged at most this often per source address (a flood stays one line). */
const REFUSED_LOG_EVERY_MS = 60_000;
const REFUSED_LOG_SOURCES_MAX = 10_000;

/** The listener that holds a kind's socket: every datagram becomes a push of that kind, or an answer. */
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
        get localPort() {
          return socket.address().port;
        },
      };
      const refusedLogged = new Map<string, number>();
      const answerKeyOf = deviceKind(ctx, kind)?.answerKeyOf;
      socket.on('message', (body, from) => {
        const source = { address: from.address, port: from.port };
        const key = answerKeyOf?.(body);
        // An answer to a request of this process (a send session): to that request, or nowhere.
        if (key !== undefined)
          void datagramAnswers(ctx).publish(`${kind} ${key}`, () => ({ body, from: source }));
        else void answer(ctx, kind, port, body, source, refusedLogged);
      });
      // A send to an address that refuses (ICMP) surfaces here: logged, the socket stays up.
      socket.on('error', (err) => ctx.log.warn({ err, kind }, 'datagram socket error'));
      await bind(socket, opts);
      const bound = socket.address();
      opts.onListening?.({ address: bound.address, port: bound.port });
      datagramPorts(ctx).set(kind, port);
      const stopHeld =
        deviceKind(ctx, kind)?.sends === 'held' ? startHeldSends(ctx, kind, port, opts.heldSends) : undefined;
      ctx.log.info({ kind, port: bound.port }, 'listening for device datagrams');
      return async () => {
        await stopHeld?.();
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
  refusedLogged: Map<string, number>,
) {
  try {
    const result = await handleDatagramPush(ctx, kind, {
      transport: { kind: 'datagram', from },
      body,
      now: ctx.clock.now(),
    });
    if (result.kind === 'refused') {
      // One line a minute per source address and kind of refusal (the names a datagram carries are
      // left out of the key, so a flood of made-up logins is still one line).
      const key = `${from.address} ${result.why.replace(/"[^"]*"/g, '""').slice(0, 80)}`;
      const now = Date.now();
      const last = refusedLogged.get(key);
      if (last === undefined || now - last >= REFUSED_LOG_EVERY_MS) {
        if (refusedLogged.size >= REFUSED_LOG_SOURCES_MAX) refusedLogged.clear();
        refusedLogged.set(key, now);
        ctx.log.warn(
          { kind, from, refused: result.why },
          'device datagram refused (once a minute per address and cause)',
        );
      }
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
