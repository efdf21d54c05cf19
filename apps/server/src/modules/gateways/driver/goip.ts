// GoIP boxes (GoIP-1/4/8/16/32): each line of a box speaks plain-text UDP to the platform's port
// (datagram.ts holds it) with its own ID and password; the platform answers at the packet's source.
// This driver reads a datagram into the platform's words and names the answer the box expects; the
// protocol itself is goip.protocol.ts, the send session goip.session.ts.
//
// Lines and logins: a gateway's user name is the box's ID; line n registers as `<ID><n>` (the box's
// default, "goip1" … "goip4" for a box "goip"), or as the ID itself on a one-line box. Every line
// uses the gateway's password. A line's slot is its number.

import {
  type ConnectResult,
  type DeviceLogin,
  type DeviceStatus,
  type DriverTarget,
  type GatewayDriver,
  GatewayError,
  ProtocolError,
  type RawPush,
  type ReadPush,
  type SendTask,
  type TaskOutcome,
} from './driver.ts';
import {
  deliverAck,
  keepaliveAnswer,
  keepaliveSim,
  parseDevicePacket,
  receiveAck,
  receiveSms,
  reportAck,
} from './goip.protocol.ts';

/** The line a login names on the box whose ID is `boxId`: "goip3" on box "goip" is line 3. */
export function lineOfLogin(boxId: string, login: string): number | undefined {
  if (login === boxId) return 1;
  if (!login.startsWith(boxId)) return undefined;
  const rest = login.slice(boxId.length);
  return /^[1-9]\d{0,2}$/.test(rest) ? Number(rest) : undefined;
}

/** Who a datagram says sent it: the ID and password of its line, when it carries them. */
export function goipLoginOf(body: Buffer): DeviceLogin | undefined {
  const p = parseDevicePacket(body);
  const login =
    p.type === 'keepalive'
      ? { id: p.id, password: p.password }
      : 'recvid' in p && 'id' in p && typeof p.id === 'string'
        ? { id: p.id, password: p.password }
        : undefined;
  return login?.id && login.password !== null ? { login: login.id, password: login.password } : undefined;
}

/**
 * The gateway a login belongs to: the box whose ID it starts with, the longest such ID when several
 * do ("goip1" and "goip" both prefix "goip12": it is line 2 of "goip1").
 */
export function goipGatewayOfLogin(
  login: string,
  gateways: readonly { id: string; userName: string }[],
): string | undefined {
  let best: { id: string; userName: string } | undefined;
  for (const g of gateways) {
    if (lineOfLogin(g.userName, login) !== undefined && (!best || g.userName.length > best.userName.length))
      best = g;
  }
  return best?.id;
}

export class GoipDriver implements GatewayDriver {
  constructor(private readonly target: DriverTarget) {}

  readonly slotHint = 'Line must be a line number of the box (1, 2, …).';

  canonicalSlot(raw: string): string | undefined {
    const t = raw.trim();
    return /^[1-9]\d{0,2}$/.test(t) ? t : undefined;
  }

  readPush(raw: RawPush): ReadPush {
    if (raw.transport.kind !== 'datagram')
      throw new ProtocolError("a GoIP box speaks UDP to the platform's port");
    const p = parseDevicePacket(raw.body);
    switch (p.type) {
      case 'keepalive':
        return {
          push: { kind: 'sim', sim: keepaliveSim(p, this.slotOf(p.id)) },
          reply: Buffer.from(keepaliveAnswer(p.count)),
        };
      case 'receive':
        return {
          push: { kind: 'sms', items: [receiveSms(p, this.slotOf(p.id))] },
          reply: Buffer.from(receiveAck(p.recvid)),
        };
      case 'deliver':
        // Matching a report to its message needs the send session's sms_no: acknowledged for now.
        return { push: { kind: 'alive' }, reply: Buffer.from(deliverAck(p.recvid)) };
      case 'state':
      case 'record':
      case 'remain':
        return { push: { kind: 'alive' }, reply: Buffer.from(reportAck(p.type, p.recvid)) };
      case 'unknown':
        // A report of a kind this reader does not know is answered, or the box sends it again.
        return p.recvid === null
          ? { push: { kind: 'alive' } }
          : { push: { kind: 'alive' }, reply: Buffer.from(reportAck(p.name, p.recvid)) };
      case 'malformed':
        throw new ProtocolError(p.reason);
      default:
        // A send or USSD session's answer names no line: it never gets here as a push.
        return { push: { kind: 'alive' } };
    }
  }

  /** The line a datagram's ID names on this box (the login was matched to this box already). */
  private slotOf(id: string | null): string {
    const line = id === null ? undefined : lineOfLogin(this.target.username, id);
    if (line === undefined)
      throw new ProtocolError(`the line ID ${JSON.stringify(id)} is not one of this box's`);
    return String(line);
  }

  async getStatus(): Promise<DeviceStatus> {
    throw new GatewayError(
      'protocol',
      "a GoIP box is not asked for its status: its lines report themselves every 30 s to the platform's UDP port",
    );
  }

  /** Nothing to set on the box from here: the operator enters the platform's address on its SMS page. */
  async connect(): Promise<ConnectResult> {
    return { warnings: [] };
  }

  async disconnect(): Promise<void> {}

  async sendTasks(_tasks: SendTask[]): Promise<TaskOutcome[]> {
    throw new GatewayError('protocol', 'sending through a GoIP box is not available yet');
  }
}
