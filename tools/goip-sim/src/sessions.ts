// The bulk-send session, on the UDP association of the line the server talks to:
//   MSG → PASSWORD, PASSWORD → SEND (or ERROR … PASSWORD), SEND per number → WAIT …, then OK or
//   ERROR, DONE → DONE.
// At most maxSessions at once per box; a session idle for sessionIdleMs is forgotten. Every SEND
// received is counted by (line, sendid, telid), so a test can prove a server never sent one twice.
import type { Timers } from '@simdock/sim-kit';
import type { Line, Peer } from './line.ts';
import type { Modem, SendResult } from './modem.ts';
import type { ResolvedOptions } from './options.ts';

/** A session as tests see it. */
export interface SessionState {
  line: number;
  sendid: string;
  text: string;
  /** 'password': waiting for the password; 'ready': taking SENDs. */
  state: 'password' | 'ready';
}

export interface SendCount {
  line: number;
  sendid: string;
  telid: string;
  count: number;
}

interface Session extends SessionState {
  lineRef: Line;
  /** Where the session's answers go: the source of its last packet. */
  peer: Peer;
  last: number;
  /** telid → its final answer once known (undefined while sending). */
  tels: Map<string, string | undefined>;
}

/** The longest text a session takes, in UTF-8 bytes. */
const MAX_TEXT_BYTES = 3000;

export class Sessions {
  private readonly open = new Map<string, Session>();
  private readonly counts = new Map<string, SendCount>();

  constructor(
    private readonly o: ResolvedOptions,
    private readonly timers: Timers,
    private readonly modem: Modem,
  ) {}

  list(): SessionState[] {
    return [...this.open.values()].map(({ line, sendid, text, state }) => ({ line, sendid, text, state }));
  }

  sendCounts(): SendCount[] {
    return [...this.counts.values()].map((c) => ({ ...c }));
  }

  /** Power-up: every session is lost. */
  clear(): void {
    this.open.clear();
  }

  msg(line: Line, from: Peer, sendid: string, text: string): void {
    const key = `${line.n} ${sendid}`;
    const known = this.open.get(key);
    if (known) {
      // The server's own re-send of MSG: answer where the session stands.
      this.touch(known, from);
      line.send(known.state === 'password' ? `PASSWORD ${sendid}` : `SEND ${sendid}`, from);
      return;
    }
    if (this.open.size >= this.o.maxSessions) {
      line.send(`ERROR ${sendid} BUSY`, from);
      return;
    }
    if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) {
      line.send(`ERROR ${sendid} TOO LONG`, from);
      return;
    }
    const s: Session = {
      line: line.n,
      sendid,
      text,
      state: 'password',
      lineRef: line,
      peer: from,
      last: Date.now(),
      tels: new Map(),
    };
    this.open.set(key, s);
    this.watchIdle(key, s);
    line.send(`PASSWORD ${sendid}`, from);
  }

  password(line: Line, from: Peer, sendid: string, password: string): void {
    const s = this.open.get(`${line.n} ${sendid}`);
    if (!s) return;
    this.touch(s, from);
    if (password !== line.password) {
      // A wrong password ends the session: the server starts again with MSG.
      this.open.delete(`${line.n} ${sendid}`);
      line.send(`ERROR ${sendid} PASSWORD`, from);
      return;
    }
    s.state = 'ready';
    line.send(`SEND ${sendid}`, from);
  }

  send(line: Line, from: Peer, sendid: string, telid: string, number: string): void {
    const countKey = `${line.n} ${sendid} ${telid}`;
    const c = this.counts.get(countKey) ?? { line: line.n, sendid, telid, count: 0 };
    c.count += 1;
    this.counts.set(countKey, c);
    const s = this.open.get(`${line.n} ${sendid}`);
    if (s?.state !== 'ready') return;
    this.touch(s, from);
    if (s.tels.has(telid)) {
      // A repeated SEND is never sent again: the answer it has, or WAIT while it is going out.
      line.send(s.tels.get(telid) ?? `WAIT ${sendid} ${telid}`, from);
      return;
    }
    if (!line.loggedIn) {
      const answer = `ERROR ${sendid} ${telid} GSM_LOGOUT`;
      s.tels.set(telid, answer);
      line.send(answer, from);
      return;
    }
    s.tels.set(telid, undefined);
    if (this.o.waitFirst) line.send(`WAIT ${sendid} ${telid}`, from);
    this.repeatWait(s, telid);
    void this.modem.transmit(line, number, s.text, 'udp').then((r: SendResult) => {
      const answer = r.ok ? `OK ${sendid} ${telid} ${r.smsNo}` : `ERROR ${sendid} ${telid} ${r.error}`;
      s.tels.set(telid, answer);
      s.last = Date.now();
      line.send(answer, s.peer);
    });
  }

  done(line: Line, from: Peer, sendid: string): void {
    // Answered even without a session, so a re-sent DONE gets its answer too.
    this.open.delete(`${line.n} ${sendid}`);
    line.send(`DONE ${sendid}`, from);
  }

  private touch(s: Session, from: Peer): void {
    s.last = Date.now();
    s.peer = from;
  }

  private repeatWait(s: Session, telid: string): void {
    if (this.o.waitRepeatMs <= 0) return;
    this.timers.later(this.o.waitRepeatMs, () => {
      if (s.tels.get(telid) !== undefined || this.open.get(`${s.line} ${s.sendid}`) !== s) return;
      s.lineRef.send(`WAIT ${s.sendid} ${telid}`, s.peer);
      this.repeatWait(s, telid);
    });
  }

  private watchIdle(key: string, s: Session): void {
    const left = s.last + this.o.sessionIdleMs - Date.now();
    // Not sooner than 20 ms: a session still sending is looked at again, not spun on.
    this.timers.later(Math.max(left, 20), () => {
      if (this.open.get(key) !== s) return;
      const sending = [...s.tels.values()].some((a) => a === undefined);
      if (!sending && Date.now() - s.last >= this.o.sessionIdleMs) this.open.delete(key);
      else this.watchIdle(key, s);
    });
  }
}
