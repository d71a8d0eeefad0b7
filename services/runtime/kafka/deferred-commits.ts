// The bookkeeping of the consumer runner's deferred commits (consumer.ts, `handOver`): a batch's
// offsets are resolved when the batch is handed over, so that the next fetch need not wait for its
// write, but committed only once it was written, and only as a prefix: an offset is committed once
// every batch of its partition handed over before it was written too. A failed write stops the
// partition's commits where they are and says where to read it again; every batch handed over up to
// then is read again (and, until past the failed range, handled one fetch at a time, with the
// runner's usual retries and dead letters). A rebalance forgets every batch in hand: the partitions
// are read again from their committed offsets, and a write that ends after it commits nothing.

export interface HandedOver {
  readonly topic: string;
  readonly partition: number;
  /** The batch's first and last offsets. */
  readonly first: bigint;
  readonly last: bigint;
  /** The partition's epoch when it was handed over: a failure or a rebalance starts a new one. */
  readonly epoch: number;
  written: boolean;
}

interface PartitionState {
  epoch: number;
  /** Batches handed over in this epoch and not committed yet, in the order they were. */
  queue: HandedOver[];
  /** After a failure: batches that start at or before this offset are handled one fetch at a time. */
  replayUntil: bigint | undefined;
  /**
   * The first offset not committed: the next batch committed must start there (or before). Set by the
   * epoch's first batch (read from the committed offset) and kept on a failure (read again from there).
   */
  next: bigint | undefined;
}

export class DeferredCommits {
  private readonly partitions = new Map<string, PartitionState>();
  private epochs = 0;

  /** `commit(topic, partition, offset)`: commit `offset`, the next one to read. */
  constructor(private readonly commit: (topic: string, partition: number, offset: bigint) => void) {}

  /** Whether a batch starting at `first` must be written before the next fetch (a failed range). */
  replaying(topic: string, partition: number, first: bigint): boolean {
    const state = this.partitions.get(key(topic, partition));
    if (state?.replayUntil === undefined) return false;
    if (first <= state.replayUntil) return true;
    state.replayUntil = undefined;
    return false;
  }

  handedOver(topic: string, partition: number, first: bigint, last: bigint): HandedOver {
    const state = this.state(topic, partition);
    const batch: HandedOver = { topic, partition, first, last, epoch: state.epoch, written: false };
    state.next ??= first;
    state.queue.push(batch);
    return batch;
  }

  /** The batch was written: commits what is now a written prefix of its partition. */
  written(batch: HandedOver): void {
    const state = this.partitions.get(key(batch.topic, batch.partition));
    if (!state || state.epoch !== batch.epoch) return; // forgotten since (a failure or a rebalance)
    batch.written = true;
    const before = state.next!;
    while (state.queue[0]?.written) {
      const done = state.queue.shift()!;
      // A batch past a gap was fetched before the partition was sought back: it is read again.
      if (done.first > state.next!) continue;
      if (done.last + 1n > state.next!) state.next = done.last + 1n;
    }
    if (state.next! > before) this.commit(batch.topic, batch.partition, state.next!);
  }

  /**
   * The batch's write failed. Returns where to read its partition again (the first offset not
   * committed), or undefined when the batch was already forgotten (its partition was reset since).
   */
  failed(batch: HandedOver): bigint | undefined {
    const state = this.partitions.get(key(batch.topic, batch.partition));
    if (!state || state.epoch !== batch.epoch) return undefined;
    const from = state.next!; // set when the epoch's first batch was handed over
    let until = batch.last;
    for (const b of state.queue) if (b.last > until) until = b.last;
    state.epoch = ++this.epochs;
    state.queue = [];
    state.replayUntil =
      state.replayUntil !== undefined && state.replayUntil > until ? state.replayUntil : until;
    return from;
  }

  /** A rebalance: every batch in hand is forgotten (read again from the committed offsets). */
  reset(): void {
    for (const state of this.partitions.values()) {
      state.epoch = ++this.epochs;
      state.queue = [];
      state.next = undefined;
    }
  }

  /** Batches handed over and not yet committed, over all partitions. */
  get uncommitted(): number {
    let n = 0;
    for (const state of this.partitions.values()) n += state.queue.length;
    return n;
  }

  private state(topic: string, partition: number): PartitionState {
    const k = key(topic, partition);
    let state = this.partitions.get(k);
    if (!state) {
      state = { epoch: ++this.epochs, queue: [], replayUntil: undefined, next: undefined };
      this.partitions.set(k, state);
    }
    return state;
  }
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;
