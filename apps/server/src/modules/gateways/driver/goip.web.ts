// A GoIP box through its own web pages (Basic auth, or the send pages' `u=`/`p=`): for a box whose
// lines cannot reach the platform's UDP port (mode `web`), and for a Scan of any box whose web login
// is stored. The account travels in the query string of the send pages, so request URLs are never
// logged or put into error messages.
import {
  type DeviceStatus,
  GatewayError,
  type HeldResult,
  type HeldSend,
  type PulledSms,
  type SendOutcome,
} from './driver.ts';
import {
  decodeBoxText,
  inboxItems,
  parseInboxPage,
  parseSendReply,
  parseSendStatus,
  parseStatusXml,
} from './goip.web.parse.ts';
import { transportError } from './transport.ts';

const PAGES = '/default/en_US/';

export interface GoipWebOptions {
  /** Per request (default 8 s). */
  timeoutMs?: number;
  /** How often send_status.xml is read while a send goes out (default 1 s; the first read sooner). */
  pollMs?: number;
  /** A send the box never reports done is given up after this long (default 60 s): it may have gone out. */
  giveUpMs?: number;
  /** The clock the inbox's year is inferred by (default the machine's). */
  now?: () => Date;
}

export interface GoipWebAccount {
  url: string;
  /** The box ID: its device id (the pages do not name it). */
  boxId: string;
  user: string;
  password: string;
}

export class GoipWeb {
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly giveUpMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly account: () => GoipWebAccount,
    opts: GoipWebOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 8000;
    this.pollMs = opts.pollMs ?? 1000;
    this.giveUpMs = opts.giveUpMs ?? 60_000;
    this.now = opts.now ?? (() => new Date());
  }

  /** status.xml: each line's SIM. */
  async status(): Promise<DeviceStatus> {
    const text = await this.get('status.xml');
    return parseStatusXml(text, this.account().boxId);
  }

  /**
   * The inbox from box time `fromId` (seconds) on, oldest first, at most `max` SMS; no ssrc (the
   * box numbers nothing): the box time is the position.
   */
  async inbox(fromId: number, max = 100): Promise<PulledSms> {
    const html = await this.get('tools.html', { type: 'sms_inbox' });
    const { items, boxSeconds, nextId } = inboxItems(
      parseInboxPage(html),
      this.account().boxId,
      fromId,
      this.now(),
    );
    if (items.length <= max) return { ssrc: null, nextId, items };
    return { ssrc: null, nextId: Math.max(fromId, boxSeconds[max - 1]!), items: items.slice(0, max) };
  }

  /**
   * The sends one after another on their line: send.html, then send_status.xml until the box says
   * DONE or ERROR for that send's ID. Each result is settled before the next send; `stop` ends
   * the run, the sends left without a result.
   */
  async sendAll(
    sends: HeldSend[],
    stop: AbortSignal,
    settle: (results: HeldResult[]) => Promise<void>,
  ): Promise<void> {
    for (const s of sends) {
      if (stop.aborted) return;
      const r = await this.sendOne(s, stop);
      if (r) await settle([r]);
    }
  }

  private async sendOne(s: HeldSend, stop: AbortSignal): Promise<HeldResult | undefined> {
    const result = (outcome: SendOutcome, confirmed: boolean, deviceText: string): HeldResult => ({
      tid: s.tid,
      outcome,
      confirmed,
      deviceRef: null,
      deviceText,
    });
    const { user, password } = this.account();
    let reply: string;
    try {
      reply = await this.get('send.html', { u: user, p: password, l: s.from, n: s.to, m: s.sms });
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      // Refused before the box took it: nothing went out, so it may be tried again later.
      if (err.kind === 'network') return result('device_busy', true, err.message);
      if (err.kind === 'auth') return result('account_refused', true, err.message);
      // No answer in time: the box may have taken it, and an SMS is never sent twice.
      if (err.kind === 'timeout')
        return result('accepted', false, `the box did not answer the send page: ${err.message}`);
      return result('sim_cannot_send', true, err.message);
    }
    const sent = parseSendReply(reply);
    if ('refused' in sent) return result('sim_cannot_send', true, `the box answered: ${sent.refused}`);
    const line = Number(s.from);
    const deadline = Date.now() + this.giveUpMs;
    // The first look comes early: most sends are done within seconds.
    let wait = Math.min(this.pollMs, 250);
    while (Date.now() < deadline) {
      if (!(await sleep(Math.min(wait, Math.max(0, deadline - Date.now())), stop))) return undefined;
      wait = this.pollMs;
      let state: ReturnType<typeof parseSendStatus>;
      try {
        state = parseSendStatus(await this.get('send_status.xml', { u: user, p: password }), line);
      } catch (err) {
        // The status page failing once says nothing about the SMS: look again.
        if (!(err instanceof GatewayError)) throw err;
        continue;
      }
      if (state?.id !== sent.id) continue;
      if (state.status === 'DONE') return result('accepted', true, '');
      if (state.status === 'ERROR')
        return result('sim_cannot_send', true, state.error || 'the box reported an error');
    }
    return result(
      'accepted',
      false,
      `the box did not report the send done within ${Math.round(this.giveUpMs / 1000)} s`,
    );
  }

  /** One page: its text, or a GatewayError a person can act on (never the URL or the password). */
  private async get(page: string, query: Record<string, string> = {}): Promise<string> {
    const a = this.account();
    const url = `${a.url.replace(/\/+$/, '')}${PAGES}${page}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
    let res: Response;
    let bytes: Uint8Array;
    try {
      res = await fetch(url, {
        headers: { authorization: `Basic ${Buffer.from(`${a.user}:${a.password}`).toString('base64')}` },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw transportError(err, this.timeoutMs, a.password);
    }
    if (res.status === 401 || res.status === 403) {
      throw new GatewayError(
        'auth',
        `the box's web pages refused the web login (HTTP ${res.status}); enter the user name and password of the box's web interface as Web login and Web password`,
      );
    }
    if (!res.ok) throw new GatewayError('http', `HTTP ${res.status} from the box's web page ${page}`);
    return decodeBoxText(bytes);
  }
}

/** Waits `ms`; false when `stop` came first. */
function sleep(ms: number, stop: AbortSignal): Promise<boolean> {
  if (stop.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      stop.removeEventListener('abort', aborted);
      resolve(ok);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    stop.addEventListener('abort', aborted);
  });
}
