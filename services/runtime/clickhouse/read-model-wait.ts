// How long a handler waits for the read model to show what an event names. An enrichment or a story can
// come before the projector has written its articles, so its handler waits (a dependency wait), up to a
// bound, and then goes on with what it has. The bound counts from the event, or from the last read of the
// read model that failed, whichever is later: after a ClickHouse outage the projector has a backlog to write
// before it shows what came during the outage, and an outage longer than the bound must not turn every
// event of it into one handled without its articles (an alert without its source, a webhook not sent).

export class ReadModelWait {
  private failedAt = -Infinity;

  constructor(
    private readonly waitMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Runs a read of the read model; its failure (ClickHouse unreachable) is noted and thrown on. */
  async read<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      this.failedAt = this.clock();
      throw error;
    }
  }

  /** Whether an event that occurred at `occurredAt` still waits for what the read model lacks. */
  waiting(occurredAt: number, now: number = this.clock()): boolean {
    return now - Math.max(occurredAt, this.failedAt) < this.waitMs;
  }
}
