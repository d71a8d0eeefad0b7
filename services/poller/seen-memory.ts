// Whether the poller's memory of emitted articles (seen-articles.ts) is whole, and making it whole again.
//
// A mark in Redis says it is: written once the memory has been rebuilt from the log (or found to have
// nothing to rebuild), never expiring. Redis losing its data loses the mark with the memory, and every
// poll's look then refuses to claim anything (SeenMemoryLost) until a poller has rebuilt it: one poller
// at a time, under a lock it renews while it reads the log; the others wait for the mark. Were the
// memory rebuilt by two at once nothing would break (records are only ever replaced by newer ones), but
// the log would be read twice for nothing.
//
// If Redis loses its data again during a rebuild, the lock goes with it: the mark is written only if the
// lock is still this rebuild's (one script), so a rebuild that lost its writes half way is started over
// instead of marking a memory with a hole in it.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/logger.ts';
import { RedisScript, releaseOwnLock } from '../runtime/redis-script.ts';
import type { RebuildSummary } from './seen-memory-rebuild.ts';

/** Renews the lock while it is still ours (KEYS[1], ARGV[1] token, ARGV[2] ms); 0 when it is not. */
const renewScript = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`);

/** Marks the memory whole (KEYS[2] = ARGV[2]) and drops the lock, only while the lock (KEYS[1]) is ours. */
const markScript = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1])
return 1`);

export interface SeenMemoryOptions {
  redis: Redis;
  /** The mark's key (the one SeenArticles checks). */
  mark: string;
  /** The rebuild's lock. */
  lock: string;
  rebuild: () => Promise<RebuildSummary>;
  logger: Logger;
  clock?: () => number;
  /** How long the lock holds without renewal: a poller that dies mid-rebuild is replaced after this. */
  lockMs?: number;
  /** How often a waiting poller looks for the mark. */
  waitStepMs?: number;
  /** Aborted when the process stops: a wait or rebuild in progress ends (with an error). */
  signal?: AbortSignal;
}

export class SeenMemory {
  private ensuring: Promise<void> | null = null;
  private readonly clock: () => number;

  constructor(private readonly options: SeenMemoryOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Resolves at once unless this poller is making the memory whole (then when that ends): what a poll
   * waits on, so that polls do not each fail while the memory is rebuilt.
   */
  ready(): Promise<void> {
    return this.ensuring ?? Promise.resolve();
  }

  /**
   * Resolves once the memory is marked whole, rebuilding it first if this poller takes the lock, or
   * waiting for the poller that holds it. Calls while one is in progress share it.
   */
  ensure(): Promise<void> {
    this.ensuring ??= this.makeWhole().finally(() => {
      this.ensuring = null;
    });
    return this.ensuring;
  }

  private async makeWhole(): Promise<void> {
    const { redis, mark, lock, logger } = this.options;
    const lockMs = this.options.lockMs ?? 60_000;
    let waitingSince: number | null = null;
    for (;;) {
      this.options.signal?.throwIfAborted();
      if ((await redis.exists(mark)) === 1) return;
      const token = randomUUID();
      if ((await redis.set(lock, token, 'PX', lockMs, 'NX')) === 'OK') {
        // The poller that held the lock may have marked the memory whole and let go between the look
        // above and this claim: the log need not be read again.
        if ((await redis.exists(mark)) === 1) {
          await releaseOwnLock.run(redis, [lock], [token]);
          return;
        }
        if (await this.rebuildHolding(token, lockMs)) return;
        logger.warn(
          { lockHeldBy: (await redis.get(lock)) ?? 'nobody' },
          "the poller's memory was lost again during its rebuild (its lock with it): starting over",
        );
        continue;
      }
      waitingSince ??= this.clock();
      if (this.clock() - waitingSince >= lockMs) {
        logger.info(
          { waitedMs: this.clock() - waitingSince },
          'waiting for another poller to rebuild the memory',
        );
        waitingSince = this.clock();
      }
      await sleep(this.options.waitStepMs ?? 1_000, this.options.signal);
    }
  }

  /** Rebuilds under the lock; true when the mark was written (the lock was ours to the end). */
  private async rebuildHolding(token: string, lockMs: number): Promise<boolean> {
    const { redis, mark, lock, logger } = this.options;
    let lost = false;
    const renewal = setInterval(() => {
      renewScript
        .run(redis, [lock], [token, lockMs])
        .then((renewed) => {
          if (Number(renewed) === 0) lost = true;
        })
        .catch(() => undefined); // Redis down for a moment: the next renewal (or the mark) tells.
    }, lockMs / 3);
    const started = this.clock();
    try {
      let summary: RebuildSummary;
      try {
        summary = await this.options.rebuild();
      } catch (error) {
        // Let the next attempt (this poller's or another's) start at once rather than after the lock's time.
        await releaseOwnLock.run(redis, [lock], [token]).catch(() => undefined);
        throw error;
      }
      if (lost) return false;
      const marked = await markScript.run(
        redis,
        [lock, mark],
        [token, JSON.stringify({ rebuilt_at: new Date(this.clock()).toISOString(), events: summary.events })],
      );
      if (Number(marked) !== 1) return false;
      logger.warn(
        {
          events: summary.events,
          written: summary.written,
          skipped: summary.skipped,
          tookMs: this.clock() - started,
        },
        "the poller's memory of emitted articles is whole again: polls go on",
      );
      return true;
    } finally {
      clearInterval(renewal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
