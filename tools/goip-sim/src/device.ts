// GoipSim: one simulated GoIP box. Its lines register with the server by UDP, each from its own
// socket; its web pages listen on one HTTP port.
import { hostUrl } from '@simdock/sim-kit';
import { Box } from './box.ts';
import { controlHandler } from './control.ts';
import type { Line, LineState, PacketRecord } from './line.ts';
import type { SentSms } from './modem.ts';
import { type GoipSimOptions, resolveOptions, type SimSpec } from './options.ts';
import type { ReportHandle, ReportState } from './reports.ts';
import type { SendCount, SessionState } from './sessions.ts';
import { Web } from './web.ts';

export class GoipSim {
  /** The box's web pages, `http://host:port`. */
  readonly url: string;

  private constructor(
    private readonly box: Box,
    private readonly web: Web,
  ) {
    this.url = hostUrl(box.o.host, web.port);
  }

  static async start(opts: GoipSimOptions): Promise<GoipSim> {
    const box = new Box(resolveOptions(opts));
    let sim: GoipSim | undefined;
    const web = new Web(box, box.o.controlApi ? (req) => controlHandler(sim!, req) : null);
    await web.listen();
    try {
      await box.powerUp();
    } catch (err) {
      await web.close();
      throw err;
    }
    sim = new GoipSim(box, web);
    return sim;
  }

  async stop(): Promise<void> {
    await this.box.powerDown();
    await this.web.close();
  }

  // ---- what the box is and did -----------------------------------------------------------------

  get lineCount(): number {
    return this.box.lines.length;
  }

  /** Line `n` (1-based): ID, source port, registration, SIM. */
  line(n: number): LineState {
    return this.box.line(n).state();
  }

  lines(): LineState[] {
    return this.box.lines.map((l) => l.state());
  }

  /** Every SMS the box actually sent (an OK), oldest first. */
  sent(): SentSms[] {
    return this.box.modem.sent.map((s) => ({ ...s }));
  }

  /** How many times a `SEND <sendid> <telid> …` arrived (on `line`, or on any line). */
  sendCount(sendid: string, telid: string, line?: number): number {
    return this.box.sessions
      .sendCounts()
      .filter((c) => c.sendid === sendid && c.telid === telid && (line === undefined || c.line === line))
      .reduce((sum, c) => sum + c.count, 0);
  }

  sendCounts(): SendCount[] {
    return this.box.sessions.sendCounts();
  }

  /** The bulk-send sessions open now. */
  sessions(): SessionState[] {
    return this.box.sessions.list();
  }

  /** Every RECEIVE, DELIVER and RECORD report and what became of it. */
  reports(): ReportState[] {
    return this.box.reports.list();
  }

  /** Line `n`'s packets (or every line's), oldest first. */
  packets(n?: number): (PacketRecord & { line: number })[] {
    const lines = n === undefined ? this.box.lines : [this.box.line(n)];
    return lines
      .flatMap((l) => l.log.map((p) => ({ ...p, line: l.n })))
      .sort((a, b) => a.at - b.at || a.line - b.line);
  }

  // ---- events --------------------------------------------------------------------------------

  /**
   * An SMS arrives on line `n`: kept in the web inbox, and reported by RECEIVE (re-sent until
   * acked) unless the box is web-only (then the handle's report is never answered).
   */
  receiveSms(n: number, m: { from: string; text: string; recvid?: number; at?: Date }): ReportHandle {
    const l = this.onNetwork(n);
    l.inbox.push({ at: m.at ?? new Date(), from: m.from, text: m.text });
    if (!this.box.o.udp) return unsent(n, 'RECEIVE');
    return this.box.reports.send(
      l,
      'RECEIVE',
      [
        ['srcnum', m.from],
        ['msg', m.text],
      ],
      m.recvid,
    );
  }

  /** An incoming call on line `n`: RECORD with dir:1. */
  call(n: number, from: string): ReportHandle {
    if (!this.box.o.udp) return unsent(this.onNetwork(n).n, 'RECORD');
    return this.box.reports.send(this.onNetwork(n), 'RECORD', [
      ['dir', 1],
      ['num', from],
    ]);
  }

  /** Sends line `n`'s keepalive now (or every line's), besides the periodic ones. */
  keepaliveNow(n?: number): void {
    for (const l of n === undefined ? this.box.lines : [this.box.line(n)]) this.box.keepalive(l);
  }

  /** Line `n`, which must have a SIM on the network: only such a line can be reached. */
  private onNetwork(n: number): Line {
    const l = this.box.line(n);
    if (!l.loggedIn) throw new Error(`goip-sim: line ${n} has no SIM on the network`);
    return l;
  }

  // ---- faults --------------------------------------------------------------------------------

  /** A line (or the whole box) goes quiet: no keepalives, no reports, no answers; `on=false` ends it. */
  silence(n: number | 'all', on = true): void {
    for (const l of n === 'all' ? this.box.lines : [this.box.line(n)]) {
      l.silenced = on;
      if (on) l.registered = false;
    }
  }

  /** The line's SIM drops off the network (`gsm_status:LOGOUT`, sends get GSM_LOGOUT); `on=false` is back. */
  logout(n: number, on = true): void {
    this.box.line(n).sim.loggedIn = !on;
  }

  /** Changes line `n`'s SIM (insert, remove, another number, signal, USSD replies, …). */
  setSim(n: number, sim: Partial<SimSpec>): void {
    const l = this.box.line(n);
    l.sim = { ...l.sim, ...sim, ussd: { ...l.sim.ussd, ...sim.ussd } };
  }

  /** The network refuses `number` with `errorstatus:<status>`; null accepts it again. */
  setFailingNumber(number: string, status: number | null): void {
    if (status === null) this.box.modem.failing.delete(number);
    else this.box.modem.failing.set(number, status);
  }

  /** The box ignores the next `count` report acks, so it re-sends what the server acked. */
  ignoreAcks(count: number): void {
    this.box.reports.ignoreAcks = count;
  }

  /** Power-cycle: new source ports, keepalive counts from 1, sessions and pending reports lost. */
  reboot(): Promise<void> {
    return this.box.reboot();
  }
}

/** A report a web-only box has no line to send over: never sent, never answered. */
function unsent(line: number, kind: 'RECEIVE' | 'RECORD'): ReportHandle {
  return {
    state: { kind, line, recvid: 0, packet: '', sends: 0, status: 'unanswered' },
    done: Promise.resolve(false),
  };
}
