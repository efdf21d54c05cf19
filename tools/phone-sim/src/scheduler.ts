// The phone's pending work: delayed steps and webhook deliveries in flight, so a test can wait until
// nothing is left (`webhooksSettled()`) and stopping can cancel what is still waiting.
import { Timers } from '@simdock/sim-kit';

export class Scheduler {
  private pending = 0;
  private waiters: (() => void)[] = [];
  private readonly timers = new Timers();

  /** Counts `p` as pending work until it settles. */
  track<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    return p.finally(() => {
      this.pending = Math.max(0, this.pending - 1);
      if (this.pending === 0) this.flushWaiters();
    });
  }

  /** Runs `fn` after `ms`, as pending work. */
  later(ms: number, fn: () => void): void {
    void this.track(
      new Promise<void>((resolve) =>
        this.timers.later(ms, () => {
          try {
            fn();
          } finally {
            resolve();
          }
        }),
      ),
    );
  }

  /** Resolves once nothing is pending. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Drops every waiting step and releases whoever waits for the settling. */
  stop(): void {
    this.timers.clear();
    this.pending = 0;
    this.flushWaiters();
  }

  private flushWaiters(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
