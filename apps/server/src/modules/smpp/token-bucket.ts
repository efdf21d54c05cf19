/**
 * A token bucket: `ratePerSecond` tokens a second, at most `ratePerSecond` saved (one second's
 * burst). Pure: the caller gives the time in ms.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;
  constructor(
    public ratePerSecond: number,
    now: number,
  ) {
    this.tokens = ratePerSecond;
    this.at = now;
  }

  /** A new rate: what is saved is cut to one second of it (a lowered rate keeps no old burst). */
  setRate(ratePerSecond: number): void {
    this.ratePerSecond = ratePerSecond;
    this.tokens = Math.min(this.tokens, ratePerSecond);
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    if (now > this.at) {
      this.tokens = Math.min(this.ratePerSecond, this.tokens + ((now - this.at) / 1000) * this.ratePerSecond);
      this.at = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
