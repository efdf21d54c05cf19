// Reports the box sends unasked (RECEIVE, DELIVER, RECORD): each is re-sent after reportRetryMs
// without its `<KIND> <recvid> OK`, at most reportResends times, as the vendor's document says.
import type { Timers } from '@simdock/sim-kit';
import type { Line } from './line.ts';
import { type ReportKind, report } from './protocol.ts';

/** One report and what became of it. */
export interface ReportState {
  kind: ReportKind;
  line: number;
  recvid: number;
  packet: string;
  /** Times it actually went out (a silenced line sends nothing). */
  sends: number;
  /** 'pending' while re-sending; 'acked' (OK), 'refused' (`<KIND> <recvid> ERROR …`), 'unanswered'. */
  status: 'pending' | 'acked' | 'refused' | 'unanswered';
}

/** What `receiveSms` and `call` give back: the report, live, and its end. */
export interface ReportHandle {
  readonly state: ReportState;
  /** Resolves to true once acked, false when refused or never answered. */
  readonly done: Promise<boolean>;
}

interface Pending extends ReportHandle {
  lineRef: Line;
  finish: (acked: boolean) => void;
}

export class Reports {
  private readonly all: Pending[] = [];
  /** The next this many acks are ignored (a fault: the box re-sends what the server acked). */
  ignoreAcks = 0;
  private nextId: number;

  constructor(
    private readonly timers: Timers,
    private readonly retryMs: number,
    private readonly resends: number,
    private readonly noNtp: boolean,
  ) {
    this.nextId = this.firstId();
  }

  /** Report ids come from the box's clock; without NTP the clock starts again at every power-up. */
  private firstId(): number {
    return this.noNtp ? 1 : Math.floor(Date.now() / 1000) % 1_000_000_000;
  }

  /** Power-down: pending reports end unanswered, and the clock (for `noNtp`) starts again. */
  reset(): void {
    for (const p of this.all) if (p.state.status === 'pending') p.finish(false);
    this.nextId = this.firstId();
  }

  list(): ReportState[] {
    return this.all.map((p) => ({ ...p.state }));
  }

  send(line: Line, kind: ReportKind, fields: [string, string | number][], recvid?: number): ReportHandle {
    const id = recvid ?? this.nextId++;
    const state: ReportState = {
      kind,
      line: line.n,
      recvid: id,
      packet: report(kind, id, line.id, line.password, fields),
      sends: 0,
      status: 'pending',
    };
    let resolve!: (acked: boolean) => void;
    const done = new Promise<boolean>((r) => {
      resolve = r;
    });
    const p: Pending = {
      state,
      done,
      lineRef: line,
      finish: (acked) => {
        if (state.status === 'pending') state.status = acked ? 'acked' : 'unanswered';
        resolve(state.status === 'acked');
      },
    };
    this.all.push(p);
    let tries = 0;
    const attempt = () => {
      if (state.status !== 'pending') return;
      tries += 1;
      if (line.send(state.packet)) state.sends += 1;
      this.timers.later(this.retryMs, () => {
        if (tries <= this.resends) attempt();
        else p.finish(false);
      });
    };
    attempt();
    return p;
  }

  /** The server's answer `<KIND> <recvid> OK|ERROR` on `line`: the oldest pending match ends. */
  answer(line: Line, kind: ReportKind, recvid: number, ok: boolean): void {
    const p = this.all.find(
      (r) =>
        r.lineRef === line &&
        r.state.kind === kind &&
        r.state.recvid === recvid &&
        r.state.status === 'pending',
    );
    if (!p) return;
    if (this.ignoreAcks > 0) {
      this.ignoreAcks -= 1;
      return;
    }
    if (!ok) p.state.status = 'refused';
    p.finish(ok);
  }
}
