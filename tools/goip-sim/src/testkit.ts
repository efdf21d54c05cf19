// Test helpers (`@simdock/goip-sim/testkit`): a tiny UDP server standing where SimDock's will. It
// keeps every datagram with its source, answers keepalives and acks reports as told, and runs a
// bulk-send session or a USSD request against one line. The real server side is SimDock's.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { once } from 'node:events';
import { GoipSim } from './device.ts';
import type { Peer } from './line.ts';
import type { GoipSimOptions } from './options.ts';
import { fieldsOf } from './protocol.ts';

export interface Datagram {
  text: string;
  from: Peer;
  /** The n-th datagram received, from 1. */
  n: number;
}

export type KeepaliveAnswer =
  | 'reg'
  | 'req'
  | 'none'
  /** The answer to send for a keepalive, or null for none. */
  | ((count: string, fields: Map<string, string>) => string | null);

export interface TestServerOptions {
  /** 'reg' → `reg:<count>;status:0;` (default), 'req' → `req:<count>;status:200;`, 'none', or a function. */
  keepaliveAnswer?: KeepaliveAnswer;
  /** Ack RECEIVE/DELIVER/RECORD with `<KIND> <recvid> OK` (default true). */
  ackReports?: boolean;
}

export interface SessionResult {
  /** The device's answer to MSG and PASSWORD when the session ended there (`ERROR …`), else null. */
  error: string | null;
  /** telid (1, 2, … in the order given) → the final answer (`OK …` or `ERROR …`). */
  answers: Map<string, string>;
  /** WAITs received per telid. */
  waits: Map<string, number>;
}

export class GoipTestServer {
  readonly packets: Datagram[] = [];
  keepaliveAnswer: KeepaliveAnswer;
  ackReports: boolean;
  private readonly waiters = new Set<() => void>();
  private readonly lineAddr = new Map<string, Peer>();

  private constructor(
    private readonly socket: ReturnType<typeof createSocket>,
    readonly port: number,
    o: TestServerOptions,
  ) {
    this.keepaliveAnswer = o.keepaliveAnswer ?? 'reg';
    this.ackReports = o.ackReports ?? true;
    socket.on('message', (buf: Buffer, rinfo: RemoteInfo) => this.onMessage(buf.toString('utf8'), rinfo));
  }

  static async start(o: TestServerOptions = {}): Promise<GoipTestServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    return new GoipTestServer(socket, socket.address().port, o);
  }

  get address(): { host: string; port: number } {
    return { host: '127.0.0.1', port: this.port };
  }

  /** Where line `id`'s last keepalive came from: where its sessions go. */
  lineAddress(id: string): Peer | undefined {
    return this.lineAddr.get(id);
  }

  send(text: string, to: Peer): void {
    this.socket.send(text, to.port, to.address);
  }

  /** Resolves once `count` datagrams after the `after`-th satisfy `pred`. */
  async waitFor(pred: (d: Datagram) => boolean, count = 1, timeoutMs = 3000, after = 0): Promise<Datagram[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.packets.filter((d) => d.n > after && pred(d));
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} datagram(s); got ${hits.length}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(t);
          this.waiters.delete(wake);
          resolve();
        };
        const t = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** The first datagram from `peer` after the `after`-th that `pred` accepts. */
  private async next(peer: Peer, after: number, pred: (text: string) => boolean, timeoutMs: number) {
    const [d] = await this.waitFor((d) => d.from.port === peer.port && pred(d.text), 1, timeoutMs, after);
    return d!.text;
  }

  /**
   * One bulk-send session with line `id`, as a careful server runs it: each SEND once, WAITs only
   * waited out, numbers one after the other, then DONE.
   */
  async sendSms(
    id: string,
    s: { sendid: string; text: string; password: string; numbers: string[]; timeoutMs?: number },
  ): Promise<SessionResult> {
    const peer = this.lineAddress(id);
    if (!peer) throw new Error(`no keepalive from ${id} yet`);
    const timeoutMs = s.timeoutMs ?? 3000;
    const result: SessionResult = { error: null, answers: new Map(), waits: new Map() };
    const ask = (text: string, pred: (t: string) => boolean) => {
      const mark = this.packets.length;
      this.send(text, peer);
      return this.next(peer, mark, pred, timeoutMs);
    };
    const sid = s.sendid;
    const pw = await ask(`MSG ${sid} ${Buffer.byteLength(s.text)} ${s.text}`, (t) =>
      new RegExp(`^(PASSWORD|ERROR) ${sid}\\b`).test(t),
    );
    if (pw.startsWith('ERROR')) return { ...result, error: pw };
    const ready = await ask(`PASSWORD ${sid} ${s.password}`, (t) =>
      new RegExp(`^(SEND|ERROR) ${sid}\\b`).test(t),
    );
    if (ready.startsWith('ERROR')) return { ...result, error: ready };
    for (const [i, number] of s.numbers.entries()) {
      const telid = String(i + 1);
      const mark = this.packets.length;
      this.send(`SEND ${sid} ${telid} ${number}`, peer);
      const final = await this.next(
        peer,
        mark,
        (t) => t.startsWith(`OK ${sid} ${telid}`) || t.startsWith(`ERROR ${sid} ${telid} `),
        timeoutMs,
      );
      result.answers.set(telid, final);
      const waits = this.packets.filter((d) => d.n > mark && d.text === `WAIT ${sid} ${telid}`).length;
      result.waits.set(telid, waits);
    }
    await ask(`DONE ${sid}`, (t) => t === `DONE ${sid}`);
    return result;
  }

  /** `USSD <sendid> <pw> <code>` to line `id`; resolves to the device's answer. */
  ussd(id: string, sendid: string, password: string, code: string, timeoutMs = 3000): Promise<string> {
    const peer = this.lineAddress(id);
    if (!peer) throw new Error(`no keepalive from ${id} yet`);
    const mark = this.packets.length;
    this.send(`USSD ${sendid} ${password} ${code}`, peer);
    return this.next(peer, mark, (t) => new RegExp(`^(USSD|USSDERROR) ${sendid}\\b`).test(t), timeoutMs);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private onMessage(text: string, rinfo: RemoteInfo): void {
    const from = { address: rinfo.address, port: rinfo.port };
    this.packets.push({ text, from, n: this.packets.length + 1 });
    this.answer(text, from);
    for (const w of this.waiters) w();
  }

  private answer(text: string, from: Peer): void {
    if (text.startsWith('req:')) {
      const fields = fieldsOf(text);
      const id = fields.get('id');
      if (id) this.lineAddr.set(id, from);
      const count = fields.get('req') ?? '';
      const a = this.keepaliveAnswer;
      const reply =
        a === 'reg'
          ? `reg:${count};status:0;`
          : a === 'req'
            ? `req:${count};status:200;`
            : a === 'none'
              ? null
              : a(count, fields);
      if (reply !== null) this.send(reply, from);
      return;
    }
    const report = /^(RECEIVE|DELIVER|RECORD|STATE|REMAIN):(-?\d+);/.exec(text);
    if (report && this.ackReports) this.send(`${report[1]} ${report[2]} OK`, from);
  }
}

/** Resolves once `ok()` holds, looking every 5 ms; rejects after `timeoutMs`. */
export async function until(ok: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A box registered with a test server, for a test: `keepalives` first keepalives awaited (0: none);
 * `stop` stops the box, then the server.
 */
export async function startBoxAndServer(
  server: TestServerOptions,
  box: Omit<GoipSimOptions, 'server'>,
  keepalives = 0,
): Promise<{ srv: GoipTestServer; sim: GoipSim; stop: () => Promise<void> }> {
  const srv = await GoipTestServer.start(server);
  const sim = await GoipSim.start({ server: srv.address, ...box });
  const stop = async () => {
    await sim.stop();
    await srv.close();
  };
  if (keepalives > 0)
    await srv
      .waitFor((d) => d.text.startsWith('req:'), keepalives)
      .catch(async (err) => {
        await stop();
        throw err;
      });
  return { srv, sim, stop };
}

/** A UDP port nothing is bound to now: for a server that several processes are told to share. */
export async function freeUdpPort(host = '127.0.0.1'): Promise<number> {
  const s = createSocket('udp4');
  s.bind(0, host);
  await once(s, 'listening');
  const { port } = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
