// The jobs of one topic-partition between their fetch and their commit.
//
// Kafka offers no "deliver this record at 14:05", and a consumer that waited for a job's due time inside
// its fetch callback would hold every other partition's next fetch (KafkaJS fetches again only when the
// whole previous fetch was handled). So the delivery consumer hands each fetched batch to the lane of its
// partition and returns at once, and the lane:
// - starts each job when it is due, in offset order among those due together, and arms a timer for the
//   earliest of the rest. Jobs on a retry topic are appended roughly in due order (one delay per topic)
//   but not exactly: each due time is spread by up to ±10% (webhooks/retry-timing.ts), so a job may be
//   due before the one ahead of it. Waiting behind the head would start every job due before it at the
//   head's time, in one burst, which is what the spread is there to prevent;
// - runs jobs through KeyedSlots (bounded concurrency, one at a time per webhook, in the order started;
//   a job hands its slot and key back through its lease, keyed-slots.ts);
// - commits the offset after the longest run of finished jobs, never past one that is not finished, so a
//   crash loses no unfinished job; the finished ones behind it are attempted again (receivers dedupe on
//   webhook-id), which is why due times are spread by no more than ±10%. It commits at once when it has
//   not committed for `commitIntervalMs`, else once that has passed: a commit per finished job would be
//   a broker round trip per delivery (an OffsetCommit costs the dispatcher and Kafka about what the
//   outcome's produce does), and what a crash between two commits costs is only that interval's
//   finished jobs attempted again;
// - asks the consumer to pause fetching its partition while it holds `highWater` jobs (a retry-10h
//   partition would otherwise be read into memory whole), and to resume once it is down to half.
import type { Logger } from '../runtime/logger.ts';
import type { KeyedSlots, SlotLease } from './keyed-slots.ts';

export interface LaneJob {
  offset: bigint;
  /** Jobs with the same key (the webhook id) run one at a time, in the order they are started. */
  key: string;
  /** Epoch ms the job may start at; null for a record with nothing to do (it is finished at once). */
  dueAt: number | null;
  /**
   * Resolves once the job's effects are durable; rejects (the offset stays uncommitted) otherwise.
   * `lease` frees its concurrency slot, or its slot and key, before it settles (KeyedSlots).
   */
  run?: (signal: AbortSignal, lease: SlotLease) => Promise<void>;
}

export interface PartitionLaneOptions {
  slots: KeyedSlots;
  /** Commits `next` (the offset of the first record not finished) for this partition. */
  commit: (next: bigint) => Promise<void>;
  /** false: stop fetching this partition; true: fetch it again. */
  setFetching: (fetching: boolean) => void;
  logger: Logger;
  highWater?: number;
  /** Commits at most once per this long (the first one after a quiet spell at once). */
  commitIntervalMs?: number;
  clock?: () => number;
}

/** setTimeout takes at most 2^31-1 ms; a due time further out is re-checked after this long. */
const longestTimerMs = 60 * 60 * 1000;
const commitRetryMs = 1_000;
export const defaultCommitIntervalMs = 500;

export class PartitionLane {
  private readonly queue: LaneJob[] = [];
  /**
   * Offsets pushed and not yet behind the commit point, in order, from `orderHead` on (the array is
   * compacted now and then rather than shifted per job, a copy of all it holds); `finished` marks those
   * done.
   */
  private order: bigint[] = [];
  private orderHead = 0;
  private readonly finished = new Set<bigint>();
  private running = 0;
  private next: bigint | null = null;
  private committed: bigint | null = null;
  private committing: Promise<void> | null = null;
  private fetching = true;
  private starting = true;
  private dueTimer: NodeJS.Timeout | undefined;
  /** The next commit, when one waits for the interval to pass or for a failed one to be retried. */
  private commitTimer: NodeJS.Timeout | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;
  private readonly abort = new AbortController();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly highWater: number;
  private readonly commitIntervalMs: number;
  private readonly clock: () => number;
  /** The task every job runs as in the slots (one function, not a closure per job). */
  private readonly runJob = (lease: SlotLease, job: LaneJob): Promise<void> =>
    job.run!(this.abort.signal, lease);

  constructor(private readonly options: PartitionLaneOptions) {
    this.highWater = options.highWater ?? 256;
    this.commitIntervalMs = options.commitIntervalMs ?? defaultCommitIntervalMs;
    this.clock = options.clock ?? Date.now;
  }

  /** Takes the records of one fetched batch, in offset order. */
  push(jobs: readonly LaneJob[]): void {
    if (this.abort.signal.aborted) return;
    for (const job of jobs) {
      this.order.push(job.offset);
      if (job.dueAt === null || job.run === undefined) this.finished.add(job.offset);
      else this.queue.push(job);
    }
    this.advance();
    this.pump();
  }

  /** Jobs held (waiting or running). */
  get size(): number {
    return this.queue.length + this.running;
  }

  /** The offset that would be committed now (first record not finished), if any record was pushed. */
  get commitPoint(): bigint | null {
    return this.next;
  }

  /** Starts no more jobs (stopping); those running go on. */
  stopStarting(): void {
    this.starting = false;
    clearTimeout(this.dueTimer);
  }

  /** Resolves once no job runs. */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Commits what is finished now, whatever the interval (and waits for a commit already under way). */
  async flush(): Promise<void> {
    await this.committing;
    this.clearCommitTimer();
    await this.commitNow();
  }

  /**
   * The partition is no longer ours (or the consumer restarts from its committed offsets): forget the
   * jobs, abort those waiting for a slot, and commit nothing more.
   */
  drop(): void {
    this.stopStarting();
    this.clearCommitTimer();
    this.abort.abort(new Error('the partition was revoked or the dispatcher is stopping'));
    this.queue.length = 0;
  }

  private pump(): void {
    clearTimeout(this.dueTimer);
    if (this.starting) {
      // One pass over the held jobs (at most highWater plus one fetched batch) per push or timer.
      const now = this.clock();
      let earliest = Infinity;
      let waiting = 0;
      for (const job of this.queue) {
        if (job.dueAt! <= now) {
          this.start(job);
        } else {
          this.queue[waiting++] = job;
          earliest = Math.min(earliest, job.dueAt!);
        }
      }
      this.queue.length = waiting;
      if (waiting > 0)
        this.dueTimer = setTimeout(() => this.pump(), Math.min(earliest - now, longestTimerMs));
    }
    this.updateFetching();
  }

  private start(job: LaneJob): void {
    this.running += 1;
    void this.track(job);
  }

  private async track(job: LaneJob): Promise<void> {
    const signal = this.abort.signal;
    try {
      await this.options.slots.run(job.key, this.runJob, signal, job);
      this.finished.add(job.offset);
      this.advance();
    } catch (error) {
      if (!signal.aborted) {
        this.options.logger.error(
          { err: error, offset: String(job.offset) },
          'delivery job failed; its offset stays uncommitted',
        );
      }
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      this.updateFetching();
    }
  }

  /** Moves the commit point over finished offsets and asks for a commit if it moved. */
  private advance(): void {
    const order = this.order;
    let head = this.orderHead;
    while (head < order.length && this.finished.has(order[head]!)) {
      const offset = order[head++]!;
      this.finished.delete(offset);
      this.next = offset + 1n;
    }
    if (head === order.length) {
      order.length = 0;
      head = 0;
    } else if (head >= 1_024 && head * 2 >= order.length) {
      this.order = order.slice(head);
      head = 0;
    }
    this.orderHead = head;
    this.requestCommit();
  }

  /** Commits now if the last commit is `commitIntervalMs` old, else arms the timer for when it will be. */
  private requestCommit(): void {
    if (this.committing || this.commitTimer !== undefined || !this.uncommitted()) return;
    const wait = this.lastCommitAt + this.commitIntervalMs - this.clock();
    if (wait <= 0) void this.commitNow();
    else this.commitTimer = setTimeout(() => this.commitLater(), wait);
  }

  private commitLater(): void {
    this.commitTimer = undefined;
    void this.commitNow();
  }

  private clearCommitTimer(): void {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
  }

  private uncommitted(): boolean {
    return !this.abort.signal.aborted && this.next !== null && this.next !== this.committed;
  }

  private commitNow(): Promise<void> {
    if (this.committing) return this.committing;
    if (!this.uncommitted()) return Promise.resolve();
    const target = this.next!;
    this.lastCommitAt = this.clock();
    this.committing = this.options
      .commit(target)
      .then(
        () => {
          this.committed = target;
        },
        (error: unknown) => {
          // A rebalance under way, a coordinator moving: this timer tries again.
          this.options.logger.warn(
            { err: error, offset: String(target) },
            'offset commit failed; will retry',
          );
          this.clearCommitTimer();
          this.commitTimer = setTimeout(() => this.commitLater(), commitRetryMs);
        },
      )
      .finally(() => {
        this.committing = null;
        // Jobs that finished meanwhile: committed when the interval allows.
        this.requestCommit();
      });
    return this.committing;
  }

  private updateFetching(): void {
    if (this.abort.signal.aborted) return;
    const held = this.size;
    if (this.fetching && held >= this.highWater) {
      this.fetching = false;
      this.options.setFetching(false);
    } else if (!this.fetching && held <= this.highWater / 2) {
      this.fetching = true;
      this.options.setFetching(true);
    }
  }
}
