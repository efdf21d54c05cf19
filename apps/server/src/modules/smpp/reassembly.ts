import type { PartInfo } from './text.ts';

interface PendingSet {
  total: number;
  parts: Map<number, Buffer>;
  firstAt: number;
}

/**
 * The parts of concatenated messages held until their set is complete, by a key the caller makes
 * (account, destination, reference, data_coding). Sets older than `timeoutMs` are dropped by
 * `expire`. Pure: the caller gives the time.
 */
export class Reassembly {
  private readonly sets = new Map<string, PendingSet>();
  constructor(
    private readonly timeoutMs: number,
    /** Sets held at once per owner (the key's first `|`-separated field): beyond, a new set is refused. */
    private readonly maxSetsPerOwner = 1000,
  ) {}

  /**
   * Adds a part. Answers the whole message's bytes when this part completed its set, `held` when
   * more are awaited, `full` when the owner has too many sets open.
   */
  add(key: string, part: PartInfo, bytes: Buffer, now: number): Buffer | 'held' | 'full' {
    let set = this.sets.get(key);
    if (set && set.total !== part.total) {
      // The same reference reused for another set: the old one is given up.
      this.sets.delete(key);
      set = undefined;
    }
    if (!set) {
      if (this.openOf(key.split('|')[0]!) >= this.maxSetsPerOwner) return 'full';
      set = { total: part.total, parts: new Map(), firstAt: now };
      this.sets.set(key, set);
    }
    // A repeated part (a client's retry) replaces the first copy.
    set.parts.set(part.seq, bytes);
    if (set.parts.size < set.total) return 'held';
    this.sets.delete(key);
    const ordered: Buffer[] = [];
    for (let i = 1; i <= set.total; i++) ordered.push(set.parts.get(i)!);
    return Buffer.concat(ordered);
  }

  /** Drops sets older than the timeout; answers their keys and how many parts each had. */
  expire(now: number): { key: string; received: number; total: number }[] {
    const dropped: { key: string; received: number; total: number }[] = [];
    for (const [key, set] of this.sets) {
      if (now - set.firstAt >= this.timeoutMs) {
        this.sets.delete(key);
        dropped.push({ key, received: set.parts.size, total: set.total });
      }
    }
    return dropped;
  }

  get size(): number {
    return this.sets.size;
  }

  private openOf(owner: string): number {
    let n = 0;
    for (const key of this.sets.keys()) if (key.startsWith(`${owner}|`)) n++;
    return n;
  }
}
