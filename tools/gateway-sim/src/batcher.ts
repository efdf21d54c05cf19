// Push caches: items are held until `count` of them are waiting or the oldest has waited `delayMs`
// (the device's sr_cnt/sr_prd and sms_cnt/sms_prd), then emitted together.

export class Batcher<T> {
  private items: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private deadline = Number.POSITIVE_INFINITY;

  constructor(
    private readonly emit: (items: T[]) => void,
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
    const due = Date.now() + Math.min(delayMs, this.maxDelayMs);
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
    const items = this.items;
    this.items = [];
    this.emit(items);
  }

  /** Forget everything (reboot). */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deadline = Number.POSITIVE_INFINITY;
    this.items = [];
  }
}
