import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisScript } from './redis-script.ts';

function fakeRedis(loaded: boolean, failure?: Error) {
  const calls: string[] = [];
  const redis = {
    evalsha: async (sha: string, numkeys: number, ...args: unknown[]) => {
      calls.push(`evalsha ${sha.slice(0, 8)} ${numkeys} ${args.join(' ')}`);
      if (failure) throw failure;
      if (!loaded) throw new Error('NOSCRIPT No matching script. Please use EVAL.');
      return 'by sha';
    },
    eval: async (lua: string, numkeys: number, ...args: unknown[]) => {
      calls.push(`eval ${lua} ${numkeys} ${args.join(' ')}`);
      loaded = true;
      return 'by text';
    },
  } as unknown as Pick<Redis, 'evalsha' | 'eval'>;
  return { redis, calls };
}

describe('RedisScript', () => {
  const script = new RedisScript("return redis.call('GET', KEYS[1])");
  const sha = createHash('sha1').update(script.lua).digest('hex');

  it('runs by its SHA1, keys then arguments, without sending its text', async () => {
    const { redis, calls } = fakeRedis(true);
    expect(script.sha).toBe(sha);
    expect(await script.run(redis, ['k1', 'k2'], ['a', 3])).toBe('by sha');
    expect(calls).toEqual([`evalsha ${sha.slice(0, 8)} 2 k1 k2 a 3`]);
  });

  it('sends its text (EVAL, which loads it) when Redis does not have it, then runs by SHA1 again', async () => {
    const { redis, calls } = fakeRedis(false);
    expect(await script.run(redis, ['k'], [])).toBe('by text');
    expect(await script.run(redis, ['k'], [])).toBe('by sha');
    expect(calls).toEqual([
      `evalsha ${sha.slice(0, 8)} 1 k`,
      `eval ${script.lua} 1 k`,
      `evalsha ${sha.slice(0, 8)} 1 k`,
    ]);
  });

  it("passes on any other error, the script's own included", async () => {
    const { redis, calls } = fakeRedis(true, new Error('ERR Error running script: boom'));
    await expect(script.run(redis, ['k'], [])).rejects.toThrow('boom');
    expect(calls).toHaveLength(1);
  });
});
