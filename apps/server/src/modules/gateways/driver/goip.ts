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
  type DatagramLink,
  type DeviceLogin,
  type DeviceStatus,
  type DriverTarget,
  type GatewayDriver,
  GatewayError,
  type HeldResult,
  type HeldSend,
  ProtocolError,
  type PulledSms,
  type RawPush,
  type ReadPush,
  type SendTask,
  type TaskOutcome,
} from './driver.ts';
import {
  deliverAck,
  deliveryResult,
  keepaliveAnswer,
  keepaliveSim,
  parseDevicePacket,
  receiveAck,
  receiveSms,
  reportAck,
  ussdExitPacket,
  ussdPacket,
} from './goip.protocol.ts';
import {
  DEFAULT_SESSION_CONFIG,
  type RecipientOutcome,
  type SessionConfig,
  type SessionEvent,
  type SessionStep,
  startSession,
  stepSession,
} from './goip.session.ts';
import { GoipWeb, type GoipWebOptions } from './goip.web.ts';

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

/** A USSD request is asked once more after this long without an answer, then given up. */
export const USSD_RETRY_MS = 10_000;

const SESSION_ANSWERS = new Set([
  'password',
  'send',
  'ok',
  'wait',
  'error',
  'done',
  'ussd',
  'ussdError',
  'ussdExit',
]);

/** The send or USSD session a datagram answers (its sendid), when it is such an answer. */
export function goipAnswerKeyOf(body: Buffer): string | undefined {
  const p = parseDevicePacket(body);
  return SESSION_ANSWERS.has(p.type) && 'sendid' in p ? String(p.sendid) : undefined;
}

/** Whether a GoIP gateway in `mode` is reached through the box's web pages rather than its lines. */
export const goipUsesWeb = (mode: string | null): boolean => mode === 'web';

/** How often a web-mode box's inbox (and status) is read: a rental's code waits at most this long. */
export const GOIP_WEB_POLL_MS = 10_000;

export class GoipDriver implements GatewayDriver {
  private readonly web: GoipWeb;
  /** Only a box read through its web pages has an inbox to read: a line pushes its SMS itself. */
  readonly pullSms?: (fromId: number, max?: number) => Promise<PulledSms>;

  constructor(
    private readonly target: DriverTarget,
    private readonly session: SessionConfig = DEFAULT_SESSION_CONFIG,
    webOptions: GoipWebOptions = {},
  ) {
    this.web = new GoipWeb(
      () => ({
        url: target.url,
        boxId: target.username,
        user: target.webUser ?? '',
        password: target.webPassword ?? '',
      }),
      webOptions,
    );
    if (this.webMode) this.pullSms = (fromId, max) => this.web.inbox(fromId, max);
  }

  private get webMode(): boolean {
    return goipUsesWeb(this.target.mode);
  }

  /** A URL and a web login are stored: the box's web pages can be read. */
  private get hasWebLogin(): boolean {
    return this.target.url.trim() !== '' && !!this.target.webUser && this.target.webPassword != null;
  }

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
      case 'deliver': {
        // The report names the SMS by the sms_no the line gave it in its OK (HeldResult.deviceRef).
        const result = p.smsNo === null ? null : deliveryResult(p.state);
        const reply = Buffer.from(deliverAck(p.recvid));
        if (!result || p.smsNo === null) return { push: { kind: 'alive' }, reply };
        return {
          push: { kind: 'receipt', port: this.slotOf(p.id), deviceRef: String(p.smsNo), ...result },
          reply,
        };
      }
      case 'record':
        return {
          push: { kind: 'call', port: this.slotOf(p.id), direction: p.direction, number: p.num },
          reply: Buffer.from(reportAck('RECORD', p.recvid)),
        };
      case 'state':
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

  /** The box's status page when its web login is stored; otherwise its lines report themselves. */
  async getStatus(): Promise<DeviceStatus> {
    if (this.hasWebLogin) return this.web.status();
    throw new GatewayError(
      this.webMode ? 'auth' : 'protocol',
      this.webMode
        ? "the box's web URL, Web login and Web password are needed to read it"
        : "a GoIP box is not asked for its status without its web login: its lines report themselves every 30 s to the platform's UDP port",
    );
  }

  /**
   * Nothing to set on the box from here: the operator enters the platform's address on its SMS page
   * (udp); in web mode the web login is checked by reading the status page.
   */
  async connect(): Promise<ConnectResult> {
    if (this.webMode) await this.getStatus();
    return { warnings: [] };
  }

  async disconnect(): Promise<void> {}

  /**
   * `USSD <sendid> <password> <code>` to the line, asked once more after USSD_RETRY_MS; the box
   * answers `USSD` (the reply: the menu is then closed with USSDEXIT), `USSDERROR` or `USSDEXIT`.
   */
  ussd(slot: string, code: string, link?: DatagramLink): Promise<string> {
    if (this.webMode)
      return Promise.reject(
        new GatewayError('refused', "USSD needs the box's lines to connect over UDP (docs/devices-goip.md)."),
      );
    if (!link) throw new GatewayError('protocol', "a GoIP line is reached through the platform's UDP port");
    const peer = link.peerOf(slot);
    if (!peer) return Promise.reject(new GatewayError('network', 'the line has not reported in lately'));
    const password = this.target.password;
    const sendid = link.newRequestId();
    const ask = Buffer.from(ussdPacket(sendid, password, code));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let asked = 0;
      const end = (outcome: () => void) => {
        clearTimeout(timer);
        stopAnswers();
        link.closed.removeEventListener('abort', aborted);
        outcome();
      };
      const aborted = () =>
        end(() => reject(new GatewayError('network', 'the server stopped holding the port')));
      const again = () => {
        if (asked++ >= 2)
          return end(() => reject(new GatewayError('timeout', 'the line did not answer the USSD code')));
        void link.port.send(peer, ask).catch(() => {});
        timer = setTimeout(again, USSD_RETRY_MS);
      };
      const stopAnswers = link.answers(String(sendid), (body, from) => {
        if (from.address !== peer.address) return;
        const p = parseDevicePacket(body);
        if (p.type === 'ussd') {
          void link.port.send(peer, Buffer.from(ussdExitPacket(sendid, password))).catch(() => {});
          end(() => resolve(p.text));
        } else if (p.type === 'ussdError') {
          end(() => reject(new GatewayError('refused', `the network answered: ${p.text}`)));
        } else if (p.type === 'ussdExit') {
          end(() =>
            reject(new GatewayError('refused', 'the network ended the USSD session without a reply')),
          );
        }
      });
      link.closed.addEventListener('abort', aborted);
      again();
    });
  }

  /** Never called: the platform holds a GoIP box's sends (DeviceKindSpec.sends) and runs sendHeld. */
  async sendTasks(_tasks: SendTask[]): Promise<TaskOutcome[]> {
    throw new GatewayError('protocol', "a GoIP box's sends are held by the platform and sent in a session");
  }

  /**
   * One bulk session on the sends' line (they share a slot and a text): MSG, PASSWORD, then one
   * SEND per recipient, each after the device answered the one before (goip.session.ts decides).
   * Sent to the line's last keepalive address; answers are taken only from that address.
   */
  sendHeld(
    sends: HeldSend[],
    link: DatagramLink,
    settle: (results: HeldResult[]) => Promise<void>,
  ): Promise<void> {
    const first = sends[0];
    if (!first || link.closed.aborted) return Promise.resolve();
    // Through the web pages: one send after another on the line, no datagram peer needed.
    if (this.webMode) return this.web.sendAll(sends, link.closed, settle);
    const byTelid = new Map(sends.map((s, i) => [i + 1, s]));
    const held = (o: RecipientOutcome): HeldResult => ({
      tid: byTelid.get(o.telid)!.tid,
      outcome: o.outcome,
      confirmed: o.confirmed,
      deviceRef: o.smsNo === null ? null : String(o.smsNo),
      deviceText: o.deviceText,
    });
    const peer = link.peerOf(first.from);
    if (!peer) {
      return settle(
        sends.map((s) => ({
          tid: s.tid,
          outcome: 'sim_cannot_send' as const,
          confirmed: true,
          deviceRef: null,
          deviceText: 'the line has not reported in lately',
        })),
      );
    }
    const sendid = link.newRequestId();
    return new Promise((resolve) => {
      let settled = Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      let state: SessionStep['state'];
      const finish = () => {
        clearTimeout(timer);
        stopAnswers();
        link.closed.removeEventListener('abort', finish);
        resolve(settled);
      };
      const take = (step: SessionStep) => {
        state = step.state;
        for (const packet of step.send) void link.port.send(peer, Buffer.from(packet)).catch(() => {});
        if (step.outcomes.length) {
          const results = step.outcomes.map(held);
          settled = settled.then(() => settle(results));
        }
        clearTimeout(timer);
        if (state.phase === 'ended' || state.deadline === null) return finish();
        timer = setTimeout(() => apply({ type: 'timeout', now: Date.now() }), state.deadline - Date.now());
      };
      const apply = (event: SessionEvent) => take(stepSession(state, event));
      const stopAnswers = link.answers(String(sendid), (body, from) => {
        if (from.address !== peer.address) return;
        apply({ type: 'packet', packet: parseDevicePacket(body), now: Date.now() });
      });
      // The platform stops holding the socket: the session ends here, the sends without a result
      // left as they are.
      link.closed.addEventListener('abort', finish);
      const recipients = sends.map((s, i) => ({ telid: i + 1, number: s.to }));
      take(
        startSession(
          { sendid, password: this.target.password, text: first.sms, recipients },
          Date.now(),
          this.session,
        ),
      );
    });
  }
}
