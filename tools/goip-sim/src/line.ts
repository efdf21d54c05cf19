// One line of the box: its ID and password, its SIM, its own UDP socket (its own source port, as
// each line of a real box behind NAT has), its registration as the server's answers tell it, its
// inbox and the packets it sent and received.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { SimSpec } from './options.ts';

export interface Peer {
  address: string;
  port: number;
}

export interface PacketRecord {
  dir: 'in' | 'out';
  text: string;
  /** The server's address for 'out', the sender's for 'in'. */
  peer: Peer;
  at: number;
}

export interface InboxEntry {
  at: Date;
  from: string;
  text: string;
}

/** A line as tests and the control API see it. */
export interface LineState {
  /** 1-based, as on the box's pages. */
  line: number;
  id: string;
  password: string;
  /** The UDP source port the line's packets come from (0 before start). */
  sourcePort: number;
  /** The server answered the latest keepalive with an ok status. */
  registered: boolean;
  /** Keepalives sent since power-up: the `req:` count of the last one. */
  keepalives: number;
  /** The server's last keepalive answer, as sent. */
  lastAnswer: string | null;
  silenced: boolean;
  /** Sending an SMS right now. */
  busy: boolean;
  sim: SimSpec;
}

const LOG_LIMIT = 2000;

export class Line {
  silenced = false;
  keepalives = 0;
  /** The count of the last keepalive the server answered ok. */
  lastOkCount = 0;
  registered = false;
  lastAnswer: string | null = null;
  busy = false;
  readonly log: PacketRecord[] = [];
  readonly inbox: InboxEntry[] = [];
  /** The web page send's status (send_status.xml). */
  httpSend: { id: string; status: 'STARTED' | 'DONE' | 'ERROR'; error: string } | null = null;
  /** Serialises the line's SMS: one module sends one at a time. */
  queue: Promise<void> = Promise.resolve();
  private socket: Socket | null = null;

  constructor(
    readonly n: number,
    readonly id: string,
    readonly password: string,
    public sim: SimSpec,
    private readonly server: Peer,
  ) {}

  get loggedIn(): boolean {
    return this.sim.inserted && this.sim.loggedIn;
  }

  get sourcePort(): number {
    return this.socket ? this.socket.address().port : 0;
  }

  /** Opens the line's socket on a free port; `onPacket` gets every datagram, kept whole. */
  open(onPacket: (text: string, from: Peer) => void): Promise<void> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (buf: Buffer, rinfo: RemoteInfo) => {
      const text = buf.toString('utf8');
      const from = { address: rinfo.address, port: rinfo.port };
      // A silenced line hears nothing: no answer, no ack, no registration.
      if (this.silenced) return;
      this.record('in', text, from);
      onPacket(text, from);
    });
    // A send to a closed port comes back as an ICMP error on some systems: not the line's concern.
    socket.on('error', () => {});
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      // A server on this machine: listen on loopback only; otherwise where a NAT would send it back.
      const local = /^(127\.|localhost$)/.test(this.server.address) ? '127.0.0.1' : undefined;
      socket.bind(0, local, () => {
        socket.off('error', reject);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (!s) return Promise.resolve();
    return new Promise((resolve) => s.close(() => resolve()));
  }

  /** Sends to `to` (default the server); false when nothing left (silenced or closed). */
  send(text: string, to: Peer = this.server): boolean {
    if (this.silenced || !this.socket) return false;
    this.socket.send(text, to.port, to.address);
    this.record('out', text, to);
    return true;
  }

  state(): LineState {
    return {
      line: this.n,
      id: this.id,
      password: this.password,
      sourcePort: this.sourcePort,
      registered: this.registered,
      keepalives: this.keepalives,
      lastAnswer: this.lastAnswer,
      silenced: this.silenced,
      busy: this.busy,
      sim: { ...this.sim, ussd: { ...this.sim.ussd } },
    };
  }

  private record(dir: 'in' | 'out', text: string, peer: Peer): void {
    this.log.push({ dir, text, peer, at: Date.now() });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }
}
