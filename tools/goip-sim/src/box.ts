// The box: its lines, their keepalives, and what each line does with a packet from the server
// (keepalive answers, report acks, bulk-send sessions, USSD). Unknown packets are logged, unanswered.
import { Timers } from '@simdock/sim-kit';
import { Line, type Peer } from './line.ts';
import { Modem } from './modem.ts';
import type { ResolvedOptions } from './options.ts';
import { keepalive, parseServerPacket } from './protocol.ts';
import { Reports } from './reports.ts';
import { Sessions } from './sessions.ts';

export class Box {
  readonly timers = new Timers();
  readonly lines: Line[];
  readonly reports: Reports;
  readonly modem: Modem;
  readonly sessions: Sessions;

  constructor(readonly o: ResolvedOptions) {
    const server = { address: o.server.host, port: o.server.port };
    this.lines = o.lines.map((l, i) => new Line(i + 1, l.id, l.password, { ...l.sim }, server));
    this.reports = new Reports(this.timers, o.reportRetryMs, o.reportResends, o.noNtp);
    this.modem = new Modem(o, this.timers, this.reports);
    this.sessions = new Sessions(o, this.timers, this.modem);
  }

  /** Opens every line's socket and sends the first keepalives (count 1); a web-only box opens none. */
  async powerUp(): Promise<void> {
    if (!this.o.udp) return;
    try {
      await Promise.all(this.lines.map((l) => l.open((text, from) => this.onPacket(l, text, from))));
    } catch (err) {
      await this.powerDown();
      throw err;
    }
    this.tick();
  }

  async powerDown(): Promise<void> {
    this.timers.clear();
    this.sessions.clear();
    this.reports.reset();
    await Promise.all(this.lines.map((l) => l.close()));
  }

  /** A reboot: the NAT gives each line a new source port, keepalive counts start again at 1. */
  async reboot(): Promise<void> {
    await this.powerDown();
    for (const l of this.lines) {
      l.keepalives = 0;
      l.lastOkCount = 0;
      l.registered = false;
      l.busy = false;
      l.queue = Promise.resolve();
      l.httpSend = null;
    }
    await this.powerUp();
  }

  line(n: number): Line {
    const l = this.lines[n - 1];
    if (!l) throw new Error(`goip-sim: no line ${n} (the box has ${this.lines.length})`);
    return l;
  }

  private tick(): void {
    for (const l of this.lines) this.keepalive(l);
    this.timers.later(this.o.keepaliveMs, () => this.tick());
  }

  /** One keepalive; the previous one unanswered (or refused) leaves the line unregistered. */
  keepalive(l: Line): void {
    if (l.lastOkCount !== l.keepalives) l.registered = false;
    // A silenced line is a box cut off: it neither counts nor sends, and is registered nowhere.
    if (l.silenced) {
      l.registered = false;
      return;
    }
    l.keepalives += 1;
    const sim = l.sim;
    l.send(
      keepalive({
        count: l.keepalives,
        id: l.id,
        password: l.password,
        number: sim.inserted ? sim.number : '',
        signal: sim.inserted ? sim.signal : 99,
        loggedIn: l.loggedIn,
        imei: sim.imei,
        imsi: sim.inserted ? sim.imsi : '',
        iccid: sim.inserted ? sim.iccid : '',
        carrier: sim.inserted ? sim.carrier : '',
      }),
    );
  }

  private onPacket(l: Line, text: string, from: Peer): void {
    const p = parseServerPacket(text);
    switch (p.type) {
      case 'keepalive-answer':
        l.lastAnswer = text;
        if (!p.ok) l.registered = false;
        else if (p.count === l.keepalives) {
          l.lastOkCount = p.count;
          l.registered = true;
        }
        return;
      case 'ack':
        this.reports.answer(l, p.kind, p.recvid, p.ok);
        return;
      case 'msg':
        this.sessions.msg(l, from, p.sendid, p.text);
        return;
      case 'password':
        this.sessions.password(l, from, p.sendid, p.password);
        return;
      case 'send':
        this.sessions.send(l, from, p.sendid, p.telid, p.number);
        return;
      case 'done':
        this.sessions.done(l, from, p.sendid);
        return;
      case 'ussd':
        this.ussd(l, from, p.sendid, p.password, p.code);
        return;
      case 'ussdexit':
        l.send(p.password === l.password ? `USSDEXIT ${p.sendid}` : `USSDERROR ${p.sendid} PASSWORD`, from);
        return;
      case 'unknown':
        return;
    }
  }

  private ussd(l: Line, from: Peer, sendid: string, password: string, code: string): void {
    if (password !== l.password) {
      l.send(`USSDERROR ${sendid} PASSWORD`, from);
      return;
    }
    if (!l.loggedIn) {
      l.send(`USSDERROR ${sendid} GSM_LOGOUT`, from);
      return;
    }
    this.timers.later(this.o.ussdMs, () => {
      const reply = l.sim.ussd[code];
      l.send(reply === undefined ? `USSDERROR ${sendid} Unknown USSD code` : `USSD ${sendid} ${reply}`, from);
    });
  }
}
