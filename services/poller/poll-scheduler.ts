// Keeps the sources of the partitions this poller owns and polls each when it
// is due, at most `concurrency` at a time. Ownership comes from the consumer
// group over news.sources.v1: two pollers never own the same partition, so
// they never poll the same source (the lock covers the rebalance moment).
import type { Source } from '../runtime/events/types.generated.ts';
import type { Logger } from '../runtime/logger.ts';
import { firstPollDelay } from './schedule.ts';
import type { PollState } from './poll-state.ts';

interface Entry {
  source: Source;
  partition: number;
  dueAt: number;
  running: boolean;
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
}

export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** The sources due at the last tick, earliest first, and the next of them to start. */
  private due: Entry[] = [];
  private nextDue = 0;
  private stopped = false;
  private readonly clock: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: SchedulerDependencies) {
    this.clock = deps.clock ?? Date.now;
    this.random = deps.random ?? Math.random;
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
      if (intervalChanged) existing.dueAt = Math.min(existing.dueAt, this.clock() + interval);
      return;
    }
    this.entries.set(source.source_id, {
      source,
      partition,
      dueAt: this.clock() + firstPollDelay(interval, this.random()),
      running: false,
    });
  }

  remove(sourceId: string): void {
    this.entries.delete(sourceId);
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
      this.runDue();
      this.timer = setTimeout(tick, this.deps.tickMs ?? 250);
    };
    tick();
  }

  /** Stops starting polls and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private runDue(): void {
    const now = this.clock();
    // Four times a second over every source owned (10,000 and more): only the due ones are copied.
    const due: Entry[] = [];
    for (const entry of this.entries.values()) if (!entry.running && entry.dueAt <= now) due.push(entry);
    this.due = due.sort((a, b) => a.dueAt - b.dueAt);
    this.nextDue = 0;
    this.startDue();
  }

  /**
   * Starts sources of the due list while there is room. Called on each tick and as each poll ends, so a
   * free slot is taken at once rather than at the next tick: with 32 polls in flight and a poll lasting
   * less than a tick, waiting for the tick capped a poller at 32 polls per tick (128/s) whatever its CPU.
   * The list is the tick's, so a source whose state changed since (removed, rescheduled, started) is
   * checked again here.
   */
  private startDue(): void {
    const now = this.clock();
    while (this.inFlight.size < this.deps.concurrency && this.nextDue < this.due.length) {
      const entry = this.due[this.nextDue++]!;
      if (entry.running || entry.dueAt > now || this.entries.get(entry.source.source_id) !== entry) continue;
      entry.running = true;
      const run = this.runOne(entry).finally(() => {
        entry.running = false;
        this.inFlight.delete(run);
        if (!this.stopped) this.startDue();
      });
      this.inFlight.add(run);
    }
  }

  private async runOne(entry: Entry): Promise<void> {
    const { source } = entry;
    try {
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
      entry.dueAt = this.clock() + (this.deps.retryAfterErrorMs ?? 30_000);
    }
  }
}
