// One writer at a time per feed URL, across processes. Two commands make a URL a source's: POST
// /v1/sources adding a feed no source has, and the poller moving a source to the URL its feed moved to
// (services/poller/feed-move.ts). Each looks for a source with the URL, then writes one with it; under
// one lock the second finds what the first wrote instead of making a second source of the same feed.
// Both sides key the lock by the id the URL would give a new source, so any spelling of a URL meets
// the same lock.
import { sourceIdFor } from './source.ts';

/** The Redis key prefix of the lock, under the process's REDIS_KEY_PREFIX (the same in every process). */
export const feedUrlLockPrefix = (redisKeyPrefix: string) => `${redisKeyPrefix}lock:new-source:`;

/** The lock's key for a feed URL. */
export const feedUrlLockKey = (feedUrl: string) => sourceIdFor(feedUrl);
