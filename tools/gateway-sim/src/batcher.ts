// Push caches: items are held until `count` of them are waiting or the oldest has waited `delayMs`
// (the device's sr_cnt/sr_prd and sms_cnt/sms_prd), then emitted together. When `emit` returns a
// promise, flushes do not overlap: what arrives meanwhile goes out with the next push, as on a
// device whose single push thread is busy.

export const MAX_TIMER_MS = 2_147_483_647;

export class Batcher<T> {
  private items: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private deadline = Number.POSITIVE_INFINITY;
  private inflight = false;
  private flushAgain = false;

  constructor(
    private readonly emit: (items: T[]) => void | Promise<void>,
    /** Upper bound on any flush delay, so tests need not wait for the wire's seconds. */
    private readonly maxDelayMs = Number.POSITIVE_INFINITY,
  ) {}

  get size(): number {
    return this.items.length;
  }

  add(item: T, count: number, delayMs: number, flushNow = false): void {
    this.items.push(item);
    if (flushNow || this.items.length >= Math.max(1, count)) {
      this.flush();
      return;
    }
    // setTimeout overflows above 2^31-1 ms and would fire at once.
    const due = Date.now() + Math.min(delayMs, this.maxDelayMs, MAX_TIMER_MS);
    if (due < this.deadline) {
      clearTimeout(this.timer);
      this.deadline = due;
      this.timer = setTimeout(() => this.flush(), Math.max(0, due - Date.now()));
      this.timer.unref();
    }
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deadline = Number.POSITIVE_INFINITY;
    if (this.items.length === 0) return;
    if (this.inflight) {
      this.flushAgain = true;
      return;
    }
    const items = this.items;
    this.items = [];
    const pending = this.emit(items);
    if (!pending) return;
    this.inflight = true;
    const done = () => {
      this.inflight = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        this.flush();
      }
    };
    pending.then(done, done);
  }

  /** Forget everything (reboot). */
  clear(): void {
    this.flushAgain = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deadline = Number.POSITIVE_INFINITY;
    this.items = [];
  }
}
