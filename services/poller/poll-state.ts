// What the poller remembers about a source between polls: HTTP validators for
// the conditional GET, the failure streak, what sets the source's pace
// (poll-interval.ts): the publication times of its latest items, what the feed
// last said about its freshness, and the interval chosen last; and the polls in
// a row that a permanent redirect took to one new address (feed-move.ts); and the
// updates the bound on revisions holds back (held-revisions.ts).
// Ephemeral (Redis): losing it costs one unconditional GET, resets the streaks,
// and makes the next poll learn the pace again from the feed's items (a move in
// progress starts its count again); a held-back update is lost only if its item
// has also left the feed.
import type { Redis } from 'ioredis';
import { RedisScript } from '../runtime/redis-script.ts';
import type { MoveStreak } from './feed-move.ts';
import { decodeHeld, encodeHeld, type HeldRevision } from './held-revisions.ts';

export interface PollState {
  etag: string | null;
  lastModified: string | null;
  consecutiveFailures: number;
  /** Always there as read from Redis; absent in a state made by hand, read as noPace(). */
  pace?: PollPace;
  /** Permanent redirects to one new address, polls in a row (feed-move.ts); absent or null: none. */
  move?: MoveStreak | null;
  /** Updates held back by the bound on revisions (held-revisions.ts); absent: none. */
  held?: HeldRevision[];
}

/** What sets the source's pace (poll-interval.ts). */
export interface PollPace {
  /** Publication times (ms) of the feed's latest items, newest first (poll-interval.ts, rememberPublications). */
  publications: number[];
  /** What the feed said about its freshness when it was last read: a 304 or a failure carries no feed. */
  publisher: { ttlSeconds: number | null; updateIntervalSeconds: number | null };
  /** The interval chosen at the latest poll, in seconds; null before the first. */
  intervalSeconds: number | null;
  /**
   * How long the last feed read said it stays fresh (Cache-Control max-age or Expires), in seconds, or
   * a later 304's own: a bare 304 (most servers and CDNs send one) does not take the publisher's floor
   * away. Null when none was said.
   */
  freshSeconds: number | null;
}

export const noPace = (): PollPace => ({
  publications: [],
  publisher: { ttlSeconds: null, updateIntervalSeconds: null },
  intervalSeconds: null,
  freshSeconds: null,
});

/** The state of a source never polled. */
export const noPollState = (): PollState => ({
  etag: null,
  lastModified: null,
  consecutiveFailures: 0,
  pace: noPace(),
});
const thirtyDays = 30 * 24 * 60 * 60;

/**
 * The state replaced whole, atomically, as one command: a MULTI of DEL, HSET and EXPIRE is five, each
 * with its own reply for the client to read, on every poll. The move streak's fields are written only
 * while a move is in progress, and the held updates only while there are some, which is seldom: most
 * sources' hashes stay as small as before.
 */
const setScript = new RedisScript(`
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'etag', ARGV[1], 'last_modified', ARGV[2], 'failures', ARGV[3],
  'published', ARGV[4], 'ttl', ARGV[5], 'update_interval', ARGV[6], 'interval', ARGV[7], 'fresh', ARGV[14])
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[1], 'move_url', ARGV[9], 'move_polls', ARGV[10], 'move_read', ARGV[11],
    'move_taken_by', ARGV[12])
end
if ARGV[13] ~= '' then redis.call('HSET', KEYS[1], 'held', ARGV[13]) end
return redis.call('EXPIRE', KEYS[1], ARGV[8])`);

/** A whole number of at least 1 as stored, or null (empty, missing, or written by hand). */
const positive = (value: string | undefined): number | null => {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * The state as stored (a hash, as HGETALL gives it); no hash, the state of a source never polled. A hash
 * written before a field existed reads that field as empty.
 */
export function pollStateOf(raw: Record<string, string> | null | undefined): PollState {
  if (!raw || Object.keys(raw).length === 0) return noPollState();
  return {
    etag: raw.etag || null,
    lastModified: raw.last_modified || null,
    consecutiveFailures: Number(raw.failures ?? 0) || 0,
    pace: {
      // Epoch seconds, comma-separated.
      publications: (raw.published ?? '').split(',').flatMap((s) => {
        const seconds = positive(s);
        return seconds === null ? [] : [seconds * 1000];
      }),
      publisher: { ttlSeconds: positive(raw.ttl), updateIntervalSeconds: positive(raw.update_interval) },
      intervalSeconds: positive(raw.interval),
      freshSeconds: positive(raw.fresh),
    },
    // Only while a move is in progress, like a state made by hand.
    ...(raw.move_url
      ? {
          move: {
            url: raw.move_url,
            polls: Math.max(0, Number(raw.move_polls) || 0),
            feedRead: raw.move_read === '1',
            takenBy: raw.move_taken_by || null,
          },
        }
      : {}),
    ...(raw.held ? { held: decodeHeld(raw.held) } : {}),
  };
}

export class PollStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'news:poll:',
  ) {}

  /** Where a source's state is kept (source-lock.ts reads it as it takes the lock). */
  key(sourceId: string): string {
    return this.prefix + sourceId;
  }

  async get(sourceId: string): Promise<PollState> {
    return pollStateOf(await this.redis.hgetall(this.key(sourceId)));
  }

  async set(sourceId: string, state: PollState): Promise<void> {
    const number = (n: number | null) => (n === null ? '' : String(n));
    const pace = state.pace ?? noPace();
    await setScript.run(
      this.redis,
      [this.key(sourceId)],
      [
        state.etag ?? '',
        state.lastModified ?? '',
        String(state.consecutiveFailures),
        pace.publications.map((at) => Math.floor(at / 1000)).join(','),
        number(pace.publisher.ttlSeconds),
        number(pace.publisher.updateIntervalSeconds),
        number(pace.intervalSeconds),
        thirtyDays,
        state.move?.url ?? '',
        String(state.move?.polls ?? 0),
        state.move?.feedRead ? '1' : '0',
        state.move?.takenBy ?? '',
        encodeHeld(state.held ?? []),
        number(pace.freshSeconds),
      ],
    );
  }
}
