// Outgoing pushes (dev-status, port-status, recv-sms, status-report) with fault injection.
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

  private async send(url: string, type: string, json: string): Promise<void> {
    if (this.abort.signal.aborted || this.faults().offline) return;
    let result: number | string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=utf-8' },
        body: json,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await res.arrayBuffer(); // drain so the connection is reused
      result = res.status;
    } catch (err) {
      result =
        err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    }
    this.log.push({ url, type, result, at: Date.now() });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  /** Wait until every queued push has been attempted. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()].map((c) => c.tail));
  }

  /** Abort in-flight pushes and refuse new ones. */
  stop(): void {
    this.abort.abort();
  }
}
