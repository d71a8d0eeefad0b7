// Keeps the sources of the partitions this poller owns and polls each when it
// is due, at most `concurrency` at a time. Ownership comes from the consumer
// group over news.sources.v1: two pollers never own the same partition, so
// they never poll the same source (the lock covers the rebalance moment).
import type { Source } from '../runtime/events/types.generated.ts';
import type { Logger } from '../runtime/logger.ts';
import { DueQueue } from './due-queue.ts';
import { PollPacer } from './poll-pacer.ts';
import { SeenMemoryLost } from './seen-articles.ts';
import { firstPollDelay } from './schedule.ts';
import type { PollState } from './poll-state.ts';

interface Entry {
  source: Source;
  partition: number;
  dueAt: number;
  running: boolean;
  /** bringForward() while the source's poll ran: its next poll comes no later than this. */
  noLaterThan: number | undefined;
}

/** The per-source lock (source-lock.ts); taking it also reads the source's poll state. */
export interface SourceLocking {
  /** The source's poll state, or null when another poller holds the lock. */
  acquire: (sourceId: string) => Promise<PollState | null>;
  release: (sourceId: string) => Promise<void>;
}

export interface SchedulerDependencies {
  /** Polls a source (`state`: as read when its lock was taken) and returns when to poll it next. */
  poll: (source: Source, state: PollState) => Promise<number>;
  lock: SourceLocking;
  logger: Logger;
  concurrency: number;
  clock?: () => number;
  random?: () => number;
  /** How often due sources are looked for. */
  tickMs?: number;
  /** After an infrastructure failure (Kafka, Redis) the source is retried this soon. */
  retryAfterErrorMs?: number;
  /**
   * After a poll refused for a lost memory (SeenMemoryLost) the source is retried this soon: its retry
   * then waits on `ready()`, which holds it until the memory is rebuilt, so it polls as soon as that
   * ends instead of `retryAfterErrorMs` later. Not 0: without a rebuild to wait on it would spin.
   */
  retryAfterLostMemoryMs?: number;
  /**
   * Resolves when polls may run; awaited before each (the poller's memory being rebuilt: seen-memory.ts).
   * A poll waiting on it holds its slot, so nothing else starts meanwhile; a rejection counts as an
   * infrastructure failure.
   */
  ready?: () => Promise<void>;
  /** Polls started per second at most (poll-pacer.ts), after `startBurst` back to back; 0: no pace. */
  startsPerSecond?: number;
  startBurst?: number;
}

export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** Armed while due polls wait for the pacer, so they start when it allows rather than at the next tick. */
  private paceTimer: NodeJS.Timeout | undefined;
  private readonly pacer: PollPacer;
  /**
   * Every source by its due time (due-queue.ts). A source is pushed again each time its due time
   * changes, so an entry whose time is no longer the source's, or whose source was removed or is
   * running, is stale and skipped when taken.
   */
  private readonly queue = new DueQueue<Entry>();
  private stopped = false;
  private readonly clock: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: SchedulerDependencies) {
    this.clock = deps.clock ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.pacer = new PollPacer(deps.startsPerSecond ?? 0, deps.startBurst ?? 10, this.clock());
  }

  /** A source's latest state arrived: schedule it, reschedule it, or forget it if inactive. */
  upsert(partition: number, source: Source): void {
    const existing = this.entries.get(source.source_id);
    if (!source.active) {
      this.entries.delete(source.source_id);
      return;
    }
    const interval = source.poll_interval_seconds * 1000;
    if (existing) {
      const intervalChanged = existing.source.poll_interval_seconds !== source.poll_interval_seconds;
      existing.source = source;
      existing.partition = partition;
      const dueAt = Math.min(existing.dueAt, this.clock() + interval);
      if (intervalChanged && dueAt !== existing.dueAt) this.schedule(existing, dueAt);
      return;
    }
    const entry: Entry = { source, partition, dueAt: 0, running: false, noLaterThan: undefined };
    this.entries.set(source.source_id, entry);
    this.schedule(entry, this.clock() + firstPollDelay(interval, this.random()));
  }

  remove(sourceId: string): void {
    this.entries.delete(sourceId);
  }

  /**
   * Polls a source of ours no later than `at` (ms), for something learnt after its poll chose its next
   * one (a WebSub hub's lease, known once the hub verified the request the poll led to). Never later
   * than already due; a poll running now is followed by the next no later than `at`. A source this
   * poller does not own is left alone: its owner's polls see the same thing.
   */
  bringForward(sourceId: string, at: number): void {
    const entry = this.entries.get(sourceId);
    if (!entry) return;
    if (entry.running) entry.noLaterThan = Math.min(entry.noLaterThan ?? at, at);
    else if (at < entry.dueAt) this.schedule(entry, at);
  }

  /** After a rebalance: forget the sources of partitions we no longer own. */
  retainPartitions(partitions: readonly number[]): void {
    const kept = new Set(partitions);
    for (const [id, entry] of this.entries) if (!kept.has(entry.partition)) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.startDue();
      this.timer = setTimeout(tick, this.deps.tickMs ?? 250);
    };
    tick();
  }

  /** Stops starting polls and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.paceTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(entry: Entry, at: number): void {
    entry.dueAt = at;
    this.queue.push(at, entry);
    // Stale entries (rescheduled or removed sources) are dropped when they come due; compacting bounds
    // them when many pile up further ahead, as when the partitions of thousands of sources are lost.
    if (this.queue.size > 2 * this.entries.size + 1_024) this.queue.compact((t, e) => this.isLive(t, e));
  }

  /** Whether a queued entry still stands for its source: neither removed nor rescheduled since. */
  private isLive(at: number, entry: Entry): boolean {
    return entry.dueAt === at && this.entries.get(entry.source.source_id) === entry;
  }

  /**
   * Starts due sources, earliest first, while there is room. Called on each tick and as each poll ends,
   * so a free slot is taken at once rather than at the next tick: with 32 polls in flight and a poll
   * lasting less than a tick, waiting for the tick capped a poller at 32 polls per tick (128/s) whatever
   * its CPU.
   */
  private startDue(): void {
    const now = this.clock();
    while (this.inFlight.size < this.deps.concurrency && this.queue.peekTime() <= now) {
      const { at, item: entry } = this.queue.pop()!;
      // A running source is queued again when its poll ends, with the time the poll gave it.
      if (entry.running || !this.isLive(at, entry)) continue;
      const wait = this.pacer.take(now);
      if (wait > 0) {
        // Back in the queue, still due: it starts first when the pacer allows.
        this.queue.push(at, entry);
        if (this.paceTimer === undefined)
          this.paceTimer = setTimeout(() => {
            this.paceTimer = undefined;
            if (!this.stopped) this.startDue();
          }, wait);
        return;
      }
      entry.running = true;
      const run = this.runOne(entry).finally(() => {
        entry.running = false;
        if (entry.noLaterThan !== undefined) {
          entry.dueAt = Math.min(entry.dueAt, entry.noLaterThan);
          entry.noLaterThan = undefined;
        }
        this.inFlight.delete(run);
        if (this.entries.get(entry.source.source_id) === entry) this.schedule(entry, entry.dueAt);
        if (!this.stopped) this.startDue();
      });
      this.inFlight.add(run);
    }
  }

  private async runOne(entry: Entry): Promise<void> {
    const { source } = entry;
    try {
      await this.deps.ready?.();
      const state = await this.deps.lock.acquire(source.source_id);
      if (state === null) {
        // Another poller holds it (rebalance in progress): look again shortly.
        entry.dueAt = this.clock() + 5_000;
        return;
      }
      try {
        entry.dueAt = await this.deps.poll(source, state);
      } finally {
        await this.deps.lock.release(source.source_id).catch(() => undefined);
      }
    } catch (error) {
      this.deps.logger.error(
        { sourceId: source.source_id, err: error },
        'poll could not be completed; will retry',
      );
      entry.dueAt =
        this.clock() +
        (error instanceof SeenMemoryLost
          ? (this.deps.retryAfterLostMemoryMs ?? 1_000)
          : (this.deps.retryAfterErrorMs ?? 30_000));
    }
  }
}
