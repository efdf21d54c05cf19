// Sending one SMS on a line, for the UDP sessions and the web page alike: the module sends one at
// a time and takes sendMs; a refused number fails with its errorstatus; an OK gets the box's next
// sms_no and, after deliverMs, a DELIVER report.
import type { Timers } from '@simdock/sim-kit';
import type { Line } from './line.ts';
import type { ResolvedOptions } from './options.ts';
import type { Reports } from './reports.ts';

/** An SMS the box actually sent. */
export interface SentSms {
  line: number;
  /** The line's ID. */
  id: string;
  number: string;
  text: string;
  smsNo: number;
  via: 'udp' | 'http';
  at: number;
}

/** `sms_no` on OK; otherwise the error word as the box answers it (`errorstatus:3`, `GSM_LOGOUT`). */
export type SendResult = { ok: true; smsNo: number } | { ok: false; error: string };

export class Modem {
  readonly sent: SentSms[] = [];
  readonly failing = new Map<string, number>();
  private nextSmsNo = 1;

  constructor(
    private readonly o: ResolvedOptions,
    private readonly timers: Timers,
    private readonly reports: Reports,
  ) {
    for (const [n, status] of Object.entries(o.failingNumbers)) this.failing.set(n, status);
  }

  /** Queues one SMS on the line; resolves with its outcome (never, if the box stops first). */
  transmit(line: Line, number: string, text: string, via: SentSms['via']): Promise<SendResult> {
    const result = line.queue.then(() => this.sendNow(line, number, text, via));
    line.queue = result.then(() => undefined);
    return result;
  }

  private sendNow(line: Line, number: string, text: string, via: SentSms['via']): Promise<SendResult> {
    if (!line.loggedIn) return Promise.resolve({ ok: false, error: 'GSM_LOGOUT' });
    const [min, max] = this.o.sendMs;
    const ms = min + Math.floor(this.o.random() * (max - min + 1));
    line.busy = true;
    return new Promise((resolve) => {
      this.timers.later(ms, () => {
        line.busy = false;
        if (!line.loggedIn) return resolve({ ok: false, error: 'GSM_LOGOUT' });
        const status = this.failing.get(number);
        if (status !== undefined) return resolve({ ok: false, error: `errorstatus:${status}` });
        const smsNo = this.nextSmsNo++;
        this.sent.push({ line: line.n, id: line.id, number, text, smsNo, via, at: Date.now() });
        this.scheduleDeliver(line, number, smsNo);
        resolve({ ok: true, smsNo });
      });
    });
  }

  private scheduleDeliver(line: Line, number: string, smsNo: number): void {
    const ms = this.o.deliverMs;
    // A web-only box has no line to report over.
    if (ms === null || !this.o.udp) return;
    this.timers.later(ms, () => {
      this.reports.send(line, 'DELIVER', [
        ['sms_no', smsNo],
        ['state', this.o.deliverState],
        ['num', number],
      ]);
    });
  }
}
