// Outgoing pushes (dev-status, port-status, recv-sms, status-report) with fault injection.
import http from 'node:http';
import https from 'node:https';
import type { Faults } from './options.ts';

export interface PushRecord {
  url: string;
  type: string;
  /** HTTP status, or the error message when the request failed. */
  result: number | string;
  at: number;
}

const LOG_LIMIT = 200;
const QUEUE_LIMIT = 20_000;

/**
 * Pushes are serialised per destination URL, like a device's single push thread, so a
 * registering → registered pair arrives in order. Failures are recorded and otherwise ignored.
 */
export class Pusher {
  private readonly chains = new Map<string, { tail: Promise<void>; depth: number }>();
  private readonly abort = new AbortController();
  /** The most recent pushes, newest last; for debugging and the control API. */
  readonly log: PushRecord[] = [];

  constructor(
    private readonly faults: () => Faults,
    private readonly timeoutMs: number,
  ) {}

  /** Queue a push; the promise settles when it (and any duplicate) has been attempted. */
  push<T extends { type: string }>(url: string, body: T): Promise<void> {
    const f = this.faults();
    if (f.offline || f.dropPushes || this.abort.signal.aborted) return Promise.resolve();
    const times = f.duplicatePushes ? 2 : 1;
    const json = JSON.stringify(body);
    let chain = this.chains.get(url);
    if (!chain) {
      chain = { tail: Promise.resolve(), depth: 0 };
      this.chains.set(url, chain);
    }
    // A dead receiver must not let the backlog grow without bound; the oldest-first order is kept.
    if (chain.depth >= QUEUE_LIMIT) return Promise.resolve();
    const c = chain;
    c.depth++;
    const run = async () => {
      for (let i = 0; i < times; i++) await this.send(url, body.type, json);
    };
    c.tail = c.tail.then(run).finally(() => {
      c.depth--;
      if (c.depth === 0 && this.chains.get(url) === c) this.chains.delete(url);
    });
    return c.tail;
  }

  /**
   * One keep-alive connection per destination is all a serial push chain needs. node:http rather
   * than fetch: a fleet of simulated devices shares a machine with the server it pushes to, and
   * fetch's per-request machinery (streams, abort signals) cost about as much CPU as the server's
   * own handling of the push.
   */
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 1 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 1 }),
  };

  private async send(url: string, type: string, json: string): Promise<void> {
    if (this.abort.signal.aborted || this.faults().offline) return;
    const result = await this.post(url, json).catch((err: Error) => err.message);
    this.log.push({ url, type, result, at: Date.now() });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  /** POSTs the JSON; the response status, or rejects (refused, timed out, aborted). */
  private post(url: string, json: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      const agent = this.agents[target.protocol as 'http:' | 'https:'];
      if (!agent) return reject(new Error(`unsupported push URL ${url}`));
      const body = Buffer.from(json);
      const req = client.request(
        target,
        {
          method: 'POST',
          agent,
          signal: this.abort.signal,
          headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': body.length },
        },
        (res) => {
          res.resume(); // drain so the connection is reused
          res.on('end', () => {
            clearTimeout(timer);
            resolve(res.statusCode ?? 0);
          });
          res.on('error', reject);
        },
      );
      // The whole exchange, not just an idle socket, is bounded, like a device's push timeout.
      const timer = setTimeout(() => req.destroy(new Error('push timed out')), this.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(body);
    });
  }

  /** Wait until every queued push has been attempted. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()].map((c) => c.tail));
  }

  /** Abort in-flight pushes and refuse new ones. */
  stop(): void {
    this.abort.abort();
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
