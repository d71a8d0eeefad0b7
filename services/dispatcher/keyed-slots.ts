// Bounds deliveries twice: at most `limit` run at once in the whole process (DISPATCHER_CONCURRENCY), and
// at most one per key (webhook id) at a time, in the order they were submitted. One endpoint therefore
// never holds more than one slot however slow it is or however many jobs it has queued: its later jobs
// wait for their key, not for a slot, and every other endpoint keeps going.
//
// A task holds its slot and its key until it settles, or until it hands them back through its lease:
// a delivery frees both once its request has ended (the receiver has seen this delivery before the next
// one of its webhook starts), while its outcome is appended to Kafka; it keeps its key until its records
// are written only when the next job depends on them (a 410 disables the webhook: the next job must see
// the webhook disabled). So the slots bound requests in flight, as DISPATCHER_CONCURRENCY says, and a
// produce round trip per delivery no longer paces a webhook's deliveries.
//
// No closure or promise chain per task: a task is one Entry (also its lease), queued on its key and,
// once its key is free, on the slots.

/** What a running task may hand back before it settles. */
export interface SlotLease {
  /** Frees the task's concurrency slot; its key stays held. Idempotent. */
  releaseSlot(): void;
  /** Frees the slot and the key: the key's next task may start. Idempotent. */
  releaseKey(): void;
}

export type SlotTask<T, A> = (lease: SlotLease, arg: A) => Promise<T>;

class Entry<T, A> implements SlotLease {
  holdsSlot = false;
  holdsKey = false;
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;

  constructor(
    readonly owner: KeyedSlots,
    readonly key: string,
    readonly task: SlotTask<T, A>,
    readonly arg: A,
    readonly signal: AbortSignal | undefined,
  ) {}

  releaseSlot(): void {
    if (!this.holdsSlot) return;
    this.holdsSlot = false;
    this.owner.slotFreed();
  }

  releaseKey(): void {
    this.releaseSlot();
    if (!this.holdsKey) return;
    this.holdsKey = false;
    this.owner.keyFreed(this.key);
  }
}

type AnyEntry = Entry<unknown, unknown>;

export class KeyedSlots {
  private active = 0;
  /** Tasks whose key is theirs, waiting for a slot, in order. */
  private readonly ready: AnyEntry[] = [];
  /** Per key, its tasks in order; the first holds the key (running, or ready for a slot). */
  private readonly keys = new Map<string, AnyEntry[]>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be ≥ 1, got ${limit}`);
  }

  /**
   * Runs `task(lease, arg)` once the previous task of `key` released its key (or settled) and a slot is
   * free. If `signal` is aborted before that, the task never runs and the promise rejects with the
   * signal's reason. Whatever the task does not release is released when it settles.
   */
  run<T, A = undefined>(key: string, task: SlotTask<T, A>, signal?: AbortSignal, arg?: A): Promise<T> {
    const entry = new Entry<T, A>(this, key, task, arg as A, signal);
    const promise = new Promise<T>((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    const queue = this.keys.get(key);
    if (queue) {
      queue.push(entry as AnyEntry);
    } else {
      this.keys.set(key, [entry as AnyEntry]);
      entry.holdsKey = true;
      this.ready.push(entry as AnyEntry);
      this.startReady();
    }
    return promise;
  }

  /** Tasks holding a slot now. */
  get running(): number {
    return this.active;
  }

  /** Keys with a task running or queued. */
  get busyKeys(): number {
    return this.keys.size;
  }

  /** @internal An entry gave its slot back. */
  slotFreed(): void {
    this.active -= 1;
    this.startReady();
  }

  /** @internal An entry gave its key back: the key's next task is ready. */
  keyFreed(key: string): void {
    const queue = this.keys.get(key)!;
    queue.shift();
    if (queue.length === 0) {
      this.keys.delete(key);
      return;
    }
    const next = queue[0]!;
    next.holdsKey = true;
    this.ready.push(next);
    this.startReady();
  }

  private startReady(): void {
    while (this.active < this.limit && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      this.active += 1;
      entry.holdsSlot = true;
      void this.execute(entry);
    }
  }

  private async execute(entry: AnyEntry): Promise<void> {
    try {
      entry.signal?.throwIfAborted();
      entry.resolve(await entry.task(entry, entry.arg));
    } catch (error) {
      entry.reject(error);
    } finally {
      entry.releaseKey();
    }
  }
}
