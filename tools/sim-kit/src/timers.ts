// Delayed steps a simulator may have to drop all at once (on stop, on a reboot): every timeout it
// set is kept until it fires or `clear()` cancels it.

export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  /** Runs `fn` after `ms` unless cleared first. */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.pending.delete(t);
      fn();
    }, ms);
    this.pending.add(t);
  }

  /** Cancels every step not run yet. */
  clear(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}
