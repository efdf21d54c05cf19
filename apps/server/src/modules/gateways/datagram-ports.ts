import type { AppContext } from '../../context.ts';
import { runtimeKey } from '../../runtime.ts';
import { SessionsHub } from '../../sessions.ts';
import type { DatagramAddress, DatagramPort } from './driver/driver.ts';

const DATAGRAM_PORTS = runtimeKey<Map<string, DatagramPort>>('gateways.datagramPorts');

/**
 * The datagram sockets this process holds, by kind of device (each set by that kind's listener,
 * datagram.ts): drivers send through them (DriverTarget.datagrams).
 */
export function datagramPorts(ctx: AppContext): Map<string, DatagramPort> {
  return ctx.runtime.get(DATAGRAM_PORTS, () => new Map());
}

/** A line whose last report is older than this (three missed 30-s keepalives) is silent: not sent to, not rented. */
export const LINE_SILENT_AFTER_MS = 100_000;

interface Peer extends DatagramAddress {
  /** When it was last heard from (clock ms). */
  at: number;
}

const DATAGRAM_PEERS = runtimeKey<Map<string, Peer>>('gateways.datagramPeers');
const peerKey = (gatewayId: string, slot: string) => `${gatewayId} ${slot}`;

/**
 * Where a line of a datagram device was last heard from (its SIM report): the line's sends go
 * there, as devices behind NAT are reached only at the address they last sent from. Kept by the
 * process that holds the socket, which is the one that hears them.
 */
export function rememberPeer(ctx: AppContext, gatewayId: string, slot: string, from: DatagramAddress): void {
  ctx.runtime
    .get(DATAGRAM_PEERS, () => new Map())
    .set(peerKey(gatewayId, slot), { ...from, at: ctx.clock.now().getTime() });
}

/** The line's address if it was heard from within `maxAgeMs`. */
export function recentPeer(
  ctx: AppContext,
  gatewayId: string,
  slot: string,
  maxAgeMs: number,
): DatagramAddress | undefined {
  const p = ctx.runtime.get(DATAGRAM_PEERS, () => new Map()).get(peerKey(gatewayId, slot));
  return p && ctx.clock.now().getTime() - p.at <= maxAgeMs ? { address: p.address, port: p.port } : undefined;
}

export interface DatagramAnswer {
  body: Buffer;
  from: DatagramAddress;
}

const DATAGRAM_ANSWERS = runtimeKey<SessionsHub<string, DatagramAnswer>>('gateways.datagramAnswers');

/**
 * Devices' answers to this process's own requests (a send session), by `<kind> <request key>`:
 * the listener publishes each answer, the request in flight subscribes to its key.
 */
export function datagramAnswers(ctx: AppContext): SessionsHub<string, DatagramAnswer> {
  return ctx.runtime.get(
    DATAGRAM_ANSWERS,
    () => new SessionsHub((err, key) => ctx.log.error({ err, key }, 'device answer failed')),
  );
}
