import type { AppContext } from '../context.ts';
import { tooManyRequests } from '../errors.ts';
import { runtimeKey } from '../runtime.ts';

/** Addresses one limiter remembers at most; past that the oldest windows are dropped. */
const ADDRESSES_MAX = 100_000;
const WINDOW_MS = 60_000;

/**
 * Calls per client address in fixed one-minute windows, counted in this process's memory: a call
 * anyone can make must be refused before it costs a database round trip (behind N processes an
 * address gets N times the share). `take` answers the seconds to wait, or 0 when the call may go.
 */
export class AddressLimit {
  readonly #windows = new Map<string, { start: number; calls: number }>();

  constructor(readonly perMinute: number) {}

  take(address: string, nowMs: number): number {
    if (this.perMinute <= 0) return 0;
    let w = this.#windows.get(address);
    if (!w || nowMs - w.start >= WINDOW_MS || nowMs < w.start) {
      this.#windows.delete(address);
      if (this.#windows.size >= ADDRESSES_MAX) this.#dropOldest(nowMs);
      w = { start: nowMs, calls: 0 };
      this.#windows.set(address, w);
    }
    w.calls += 1;
    if (w.calls <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((w.start + WINDOW_MS - nowMs) / 1000));
  }

  /** Windows are kept in the order they started: drop the ended ones, or the oldest one. */
  #dropOldest(nowMs: number): void {
    for (const [address, w] of this.#windows) {
      if (nowMs - w.start < WINDOW_MS && this.#windows.size < ADDRESSES_MAX) return;
      this.#windows.delete(address);
    }
  }
}

const CATALOGUE_LIMIT = runtimeKey<AddressLimit>('http.catalogueLimit');

/**
 * The public catalogue's share per client address (CATALOGUE_RATE_LIMIT_PER_MINUTE; `ip` is the
 * peer, or with TRUST_PROXY the client the proxy names): over it, a 429 with Retry-After, answered
 * after CATALOGUE_REFUSAL_DELAY_MS so that a caller looping on refusals is slowed to its pace.
 */
export async function catalogueCallAllowed(ctx: AppContext, ip: string): Promise<void> {
  const limit = ctx.runtime.get(
    CATALOGUE_LIMIT,
    () => new AddressLimit(ctx.config.CATALOGUE_RATE_LIMIT_PER_MINUTE),
  );
  const wait = limit.take(ip, Date.now());
  if (wait > 0) {
    const err = tooManyRequests(
      `Too many catalogue requests from this address: ${limit.perMinute} a minute. Try again in ${wait} s.`,
    );
    err.retryAfterSeconds = wait;
    const delay = ctx.config.CATALOGUE_REFUSAL_DELAY_MS;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    throw err;
  }
}
