// IPN delivery like production: POST JSON with `x-nowpayments-sig`, an answer that is not 2xx or
// comes later than the timeout counts as failed, and a failed IPN is resent N times at a fixed interval.
import type { Forgery } from './options.ts';
import { type Dialect, hmacHex, signIpn } from './signing.ts';

export type DeliveryKind = 'normal' | 'duplicate' | 'reordered' | 'retry' | 'resend';

export interface IpnRecord {
  /** Order in which attempts were started. */
  seq: number;
  /** Identifies one IPN across its retries. */
  ipnId: number;
  paymentId: number;
  invoiceId: number | null;
  status: string;
  kind: DeliveryKind;
  /** 1 for the first attempt of this IPN, 2.. for retries. */
  attempt: number;
  url: string;
  startedAt: string;
  /** HTTP status of the receiver's answer; null on a network error or timeout. */
  httpStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  ok: boolean;
  forged: Forgery | null;
  /** Header value sent (null when no header was sent). */
  signature: string | null;
  body: string;
}

export interface IpnMessage {
  ipnId: number;
  paymentId: number;
  invoiceId: number | null;
  status: string;
  url: string;
  body: string;
  signature: string | null;
  forged: Forgery | null;
}

export interface DelivererOptions {
  timeoutMs: number;
  retries: number;
  retryIntervalMs: number;
}

/** Builds the (possibly forged) message for one IPN. */
export function buildMessage(
  base: Omit<IpnMessage, 'body' | 'signature' | 'forged'>,
  payload: Record<string, unknown>,
  secret: string,
  dialect: Dialect,
  forge: Forgery | null,
): IpnMessage {
  const signed = signIpn(payload, secret, dialect);
  let body = signed.body;
  let signature: string | null = signed.signature;
  if (forge === 'wrong-secret') {
    signature = hmacHex(signed.signedText, `${secret}-forged`);
  } else if (forge === 'no-signature') {
    signature = null;
  } else if (forge === 'tampered-body') {
    // Signed honestly, then an attacker raises the amount on the way.
    const tampered = { ...payload, actually_paid: Number(payload.actually_paid ?? 0) * 10 + 1000 };
    body = signIpn(tampered, secret, dialect).body;
  }
  return { ...base, body, signature, forged: forge };
}

export class Deliverer {
  private seq = 0;
  private readonly log: IpnRecord[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly closed = new AbortController();
  private waiters: (() => void)[] = [];

  constructor(private readonly o: DelivererOptions) {}

  records(): IpnRecord[] {
    return [...this.log];
  }

  clear(): void {
    this.log.length = 0;
  }

  /** Nothing in flight and no retry scheduled. */
  get idle(): boolean {
    return this.timers.size === 0 && this.inFlight.size === 0;
  }

  onIdle(fn: () => void): void {
    this.waiters.push(fn);
  }

  /** Sends the first attempt (resolves when it is answered or failed); retries run in the background. */
  deliver(msg: IpnMessage, kind: DeliveryKind): Promise<boolean> {
    return this.track(this.attempt(msg, kind, 1));
  }

  close(): void {
    this.closed.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.notify();
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      this.notify();
    });
    return p;
  }

  private notify(): void {
    if (!this.idle) return;
    for (const w of this.waiters.splice(0)) w();
  }

  private async attempt(msg: IpnMessage, kind: DeliveryKind, attempt: number): Promise<boolean> {
    if (this.closed.signal.aborted) return false;
    const rec: IpnRecord = {
      seq: ++this.seq,
      ipnId: msg.ipnId,
      paymentId: msg.paymentId,
      invoiceId: msg.invoiceId,
      status: msg.status,
      kind,
      attempt,
      url: msg.url,
      startedAt: new Date().toISOString(),
      httpStatus: null,
      latencyMs: null,
      error: null,
      ok: false,
      forged: msg.forged,
      signature: msg.signature,
      body: msg.body,
    };
    this.log.push(rec);
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    try {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'NOWPayments-IPN-Simulator/1.0',
      };
      if (msg.signature !== null) headers['x-nowpayments-sig'] = msg.signature;
      const res = await fetch(msg.url, {
        method: 'POST',
        headers,
        body: msg.body,
        signal: AbortSignal.any([timeout, this.closed.signal]),
        redirect: 'manual',
      });
      await res.arrayBuffer();
      rec.httpStatus = res.status;
      rec.ok = res.status >= 200 && res.status < 300;
      if (!rec.ok) rec.error = `HTTP ${res.status}`;
    } catch (err) {
      rec.error = timeout.aborted ? `timeout after ${this.o.timeoutMs} ms` : errorText(err);
    }
    rec.latencyMs = Math.round(performance.now() - started);
    if (!rec.ok && attempt <= this.o.retries && !this.closed.signal.aborted) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        void this.track(this.attempt(msg, 'retry', attempt + 1));
      }, this.o.retryIntervalMs);
      this.timers.add(t);
    }
    return rec.ok;
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    if (cause instanceof Error) return `${err.message}: ${cause.message}`;
    return err.message;
  }
  return String(err);
}
