// How fast polls may start: a token bucket. Due times are spread by jitter once sources have been
// polled, but a start, a restart, a rebalance that hands a poller thousands of sources, or an outage
// that left them all overdue makes them due in the same second; without a pace they would all be sent
// at once, to the network, the per-host limits and Kafka. `burst` polls may start back to back, then
// one every 1/rate seconds.

export class PollPacer {
  private tokens: number;
  private updatedAt: number;

  /** `perSecond` 0: no pace (every due poll starts at once, as a throughput benchmark wants). */
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.updatedAt = now;
  }

  /** Takes a start if one is free now and returns 0; otherwise takes nothing and returns the ms to wait. */
  take(now: number): number {
    if (this.perSecond <= 0) return 0;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.perSecond) / 1000);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
  }
}
