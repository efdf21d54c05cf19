import type { AppContext } from '../../context.ts';
import { runtimeKey } from '../../runtime.ts';
import type { DatagramPort } from './driver/driver.ts';

const DATAGRAM_PORTS = runtimeKey<Map<string, DatagramPort>>('gateways.datagramPorts');

/**
 * The datagram sockets this process holds, by kind of device (each set by that kind's listener,
 * datagram.ts): drivers send through them (DriverTarget.datagrams).
 */
export function datagramPorts(ctx: AppContext): Map<string, DatagramPort> {
  return ctx.runtime.get(DATAGRAM_PORTS, () => new Map());
}
