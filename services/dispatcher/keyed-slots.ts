// Bounds deliveries twice: at most `limit` run at once in the whole process (DISPATCHER_CONCURRENCY), and
// at most one per key (webhook id) at a time, in the order they were submitted. One endpoint therefore
// never holds more than one slot however slow it is or however many jobs it has queued: its later jobs
// wait for their key, not for a slot, and every other endpoint keeps going.
//
// A task may hand its slot back before it ends (`releaseSlot`) while keeping its key: a delivery holds
// its slot for the request only, not while its outcome is being appended to Kafka (a produce round trip,
// several times the request to a fast endpoint), so the slots bound requests in flight, as
// DISPATCHER_CONCURRENCY says, and the next job of the same webhook still waits for the whole task.

export class KeyedSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** The tail of each key's chain; dropped once it settles and nothing was chained behind it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be ≥ 1, got ${limit}`);
  }

  /**
   * Runs `task` once the previous task of `key` settled and a slot is free. If `signal` is aborted
   * before that, the task never runs and the promise rejects with the signal's reason. The task may
   * call `releaseSlot` to free its slot early; the key stays held until the task settles.
   */
  run<T>(key: string, task: (releaseSlot: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous
      .catch(() => undefined)
      .then(async () => {
        signal?.throwIfAborted();
        await this.acquire();
        let held = true;
        const releaseSlot = () => {
          if (!held) return;
          held = false;
          this.release();
        };
        try {
          signal?.throwIfAborted();
          return await task(releaseSlot);
        } finally {
          releaseSlot();
        }
      });
    this.tails.set(key, result);
    const forget = () => {
      if (this.tails.get(key) === result) this.tails.delete(key);
    };
    result.then(forget, forget);
    return result;
  }

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Keys with a task running or queued. */
  get busyKeys(): number {
    return this.tails.size;
  }

  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    // The slot passes straight from release() to the first waiter, so `active` stays counted.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
