// Which sources the poller polls for their followers. A source the operator added (`npm run sources`,
// `created_by_tenant` null) is the catalog's: polled while it is active, whoever subscribes. A source a
// tenant added (POST /v1/sources) is polled while some tenant subscribes to it: once the last one
// unsubscribes it is no longer fetched (a private feed's token was that tenant's to give, and nobody
// reads what a dead feed would bring), and a new subscription brings it back. Its articles stay.
//
// Every poller reads the whole of news.source-subscriptions.v1 (a LiveTable): a source's subscriptions
// are keyed by tenant and source, so they are not in the partitions of the sources a member polls.
import type { Admin } from 'kafkajs';
import type { Source, SourceSubscription } from '../runtime/events/types.generated.ts';
import { followTable, LiveTable, type FollowOptions } from '../runtime/kafka/live-table.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import type { Logger } from '../runtime/logger.ts';

/** What the scheduler needs to hear about sources (poll-scheduler.ts). */
export interface SourceSchedule {
  upsert(partition: number, source: Source): void;
  remove(sourceId: string): void;
  retainPartitions(partitions: readonly number[]): void;
}

/** Subscribed tenants per source, from news.source-subscriptions.v1. */
export class SourceFollowers {
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<(sourceId: string) => void>();
  readonly table: LiveTable<SourceSubscription>;

  constructor(ends: ReadonlyMap<number, bigint>, logger: Logger) {
    this.table = new LiveTable<SourceSubscription>(topicNames.sourceSubscriptions, ends, logger);
    this.table.onChange(({ value, previous }) => {
      if (previous?.subscribed) this.count(previous.source_id, -1);
      if (value?.subscribed) this.count(value.source_id, 1);
    });
  }

  static start(options: Omit<FollowOptions, 'groupPrefix'> & { logger: Logger }): Promise<SourceFollowers> {
    return followTable(
      { ...options, topic: topicNames.sourceSubscriptions, groupPrefix: 'poller-followers' },
      (ends) => new SourceFollowers(ends, options.logger),
    );
  }

  follow(options: FollowOptions, admin: Admin): Promise<void> {
    return this.table.follow(options, admin);
  }

  ready(): Promise<void> {
    return this.table.ready();
  }

  stop(): Promise<void> {
    return this.table.stop();
  }

  followers(sourceId: string): number {
    return this.counts.get(sourceId) ?? 0;
  }

  /** Whether `source` is polled as far as its followers go (see the top of this file). */
  wanted(source: Pick<Source, 'source_id' | 'created_by_tenant'>): boolean {
    return source.created_by_tenant === null || this.followers(source.source_id) > 0;
  }

  /** Calls `listener` with a source's id when it gains its first follower or loses its last. */
  onFollowChange(listener: (sourceId: string) => void): void {
    this.listeners.add(listener);
  }

  private count(sourceId: string, by: 1 | -1): void {
    const before = this.followers(sourceId);
    const after = Math.max(0, before + by);
    if (after === 0) this.counts.delete(sourceId);
    else this.counts.set(sourceId, after);
    if ((before === 0) !== (after === 0)) for (const listener of this.listeners) listener(sourceId);
  }
}

/**
 * Between the sources topic and the scheduler: a source nobody follows is given to the scheduler as
 * inactive (so it is not polled, and its WebSub subscription is ended as a paused source's is), and
 * given again as it is when it gains a follower.
 */
export class FollowedSources {
  /** The latest state of each source of this member's partitions, as the topic gave it. */
  private readonly latest = new Map<string, { partition: number; source: Source }>();
  /** Active sources held back for want of a follower: told to onUnfollowed once, when held back. */
  private readonly withheld = new Set<string>();

  constructor(
    private readonly schedule: SourceSchedule,
    private readonly wanted: (source: Source) => boolean,
    /** An active source given as inactive because nobody follows it. */
    private readonly onUnfollowed: (source: Source) => void = () => undefined,
  ) {}

  /** A source's latest state; returns the state the scheduler was given. */
  upsert(partition: number, source: Source): Source {
    this.latest.set(source.source_id, { partition, source });
    return this.give(partition, source);
  }

  remove(sourceId: string): void {
    this.latest.delete(sourceId);
    this.withheld.delete(sourceId);
    this.schedule.remove(sourceId);
  }

  retainPartitions(partitions: readonly number[]): void {
    const kept = new Set(partitions);
    for (const [id, { partition }] of this.latest)
      if (!kept.has(partition)) {
        this.latest.delete(id);
        this.withheld.delete(id);
      }
    this.schedule.retainPartitions(partitions);
  }

  /** A source gained its first follower or lost its last: schedule it again, or stop polling it. */
  followChanged(sourceId: string): void {
    const held = this.latest.get(sourceId);
    if (held) this.give(held.partition, held.source);
  }

  private give(partition: number, source: Source): Source {
    const followed = this.wanted(source);
    const given = followed || !source.active ? source : { ...source, active: false };
    if (source.active && !followed) {
      // Another state of a source already held back (a rename, a re-read) says nothing new.
      if (!this.withheld.has(source.source_id)) this.onUnfollowed(source);
      this.withheld.add(source.source_id);
    } else this.withheld.delete(source.source_id);
    this.schedule.upsert(partition, given);
    return given;
  }
}
