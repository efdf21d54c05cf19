// The phone's webhook sender: signed POSTs with exponential backoff on non-2xx or network errors.
// Delays are milliseconds here (seconds on a real phone) so tests run fast.
import { sign, type WebhookEvent } from './model.ts';

export interface Webhook {
  id: string;
  deviceId: string | null;
  url: string;
  event: WebhookEvent;
}

export interface RetryOptions {
  /** Delay before retry n is baseMs × 2^(n−1). */
  baseMs: number;
  /** Attempts in all, the first included. */
  count: number;
  /** An attempt that has not answered within this long counts as failed. */
  timeoutMs: number;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  event: WebhookEvent;
  url: string;
  body: string;
  attempts: { at: number; status: number | null; error?: string }[];
  delivered: boolean;
}

export class WebhookSender {
  private readonly log: DeliveryRecord[] = [];
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private stopped = false;

  constructor(
    private readonly key: () => string,
    private readonly retry: RetryOptions,
    private readonly userAgent: string,
    private readonly track: <T>(p: Promise<T>) => Promise<T>,
  ) {}

  deliveries(): DeliveryRecord[] {
    return this.log.map((d) => ({ ...d, attempts: [...d.attempts] }));
  }

  /** Queues one delivery; the returned promise (tracked) ends when delivered or out of attempts. */
  send(hook: Webhook, deliveryId: string, deviceId: string, payload: unknown): void {
    const body = JSON.stringify({
      deviceId,
      event: hook.event,
      id: deliveryId,
      webhookId: hook.id,
      payload,
    });
    const rec: DeliveryRecord = {
      id: deliveryId,
      webhookId: hook.id,
      event: hook.event,
      url: hook.url,
      body,
      attempts: [],
      delivered: false,
    };
    this.log.push(rec);
    void this.track(this.run(rec));
  }

  stop(): void {
    this.stopped = true;
    // Wake the sleeping retries so they end (and webhooksSettled() resolves) instead of hanging.
    for (const [t, wake] of this.timers) {
      clearTimeout(t);
      wake();
    }
    this.timers.clear();
  }

  private async run(rec: DeliveryRecord): Promise<void> {
    for (let n = 0; n < this.retry.count && !this.stopped; n++) {
      if (n > 0) await this.sleep(this.retry.baseMs * 2 ** (n - 1));
      if (this.stopped) return;
      if (await this.attempt(rec)) {
        rec.delivered = true;
        return;
      }
    }
  }

  private async attempt(rec: DeliveryRecord): Promise<boolean> {
    // Each attempt carries a fresh timestamp, as on the phone.
    const ts = String(Math.floor(Date.now() / 1000));
    const at = Date.now();
    try {
      const res = await fetch(rec.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': this.userAgent,
          'X-Signature': sign(this.key(), rec.body, ts),
          'X-Timestamp': ts,
        },
        body: rec.body,
        signal: AbortSignal.timeout(this.retry.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      rec.attempts.push({ at, status: res.status });
      return res.status >= 200 && res.status < 300;
    } catch (err) {
      rec.attempts.push({ at, status: null, error: err instanceof Error ? err.message : String(err) });
      return false;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.set(t, resolve);
    });
  }
}
