// A Lua script run by its SHA1 (EVALSHA), so that its text crosses the wire once per Redis rather than
// with every call: the poller runs five scripts a poll, and their text was a tenth of what it sent.
// When Redis does not have the script (a restart, SCRIPT FLUSH, another instance) the call is made
// again with EVAL, which also loads it.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

const noScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

export class RedisScript {
  readonly sha: string;

  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(
    redis: Pick<Redis, 'evalsha' | 'eval'>,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!noScript(error)) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/**
 * Deletes a lock key only while it still holds this owner's token (KEYS[1], ARGV[1]): a lock that
 * expired and was taken by another owner is theirs, not to be released by the first.
 */
export const releaseOwnLock = new RedisScript(
  `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`,
);
