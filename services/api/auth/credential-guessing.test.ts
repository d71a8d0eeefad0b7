// What the count does when Redis is away (test/integration/access-control.test.ts runs it against Redis).
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../runtime/logger.ts';
import { CredentialGuessing } from './credential-guessing.ts';

function recordingLogger() {
  const warnings: string[] = [];
  const logger = { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as Logger;
  return { logger, warnings };
}

describe('counting failed credentials', () => {
  it('refuses nothing and throws nothing while Redis cannot be reached, and says so once a minute', async () => {
    const { logger, warnings } = recordingLogger();
    const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    let now = 0;
    const guessing = new CredentialGuessing({
      redis: { scard: down, eval: down },
      prefix: 'p:',
      perMinute: 1,
      logger,
      clock: () => now,
    });
    await guessing.failed('198.51.100.1', 'nik_a');
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
    expect(warnings).toHaveLength(1);
    now += 61_000;
    await guessing.failed('198.51.100.1', 'nik_a');
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
    expect(warnings).toHaveLength(2);
  });

  it('asks Redis only about an address a credential failed from here in the last two minutes', async () => {
    const { logger } = recordingLogger();
    const asked: string[] = [];
    let now = 0;
    const guessing = new CredentialGuessing({
      redis: {
        scard: (key: string) => (asked.push(key), Promise.resolve(5)),
        eval: () => Promise.resolve(1),
      },
      prefix: 'p:',
      perMinute: 5,
      logger,
      clock: () => now,
    });
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
    expect(asked).toEqual([]);
    await guessing.failed('198.51.100.1', 'nik_a');
    now = 30_000;
    // Five distinct credentials in this minute (as Redis says): refused until the minute ends.
    expect(await guessing.refusedFor('198.51.100.1')).toBe(30);
    expect(asked).toEqual(['p:198.51.100.1:0']);
    now = 30_000 + 2 * 60_000 + 1;
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
    expect(asked).toHaveLength(1);
  });

  it('asks Redis nothing when the limit is off', async () => {
    const { logger } = recordingLogger();
    const never = () => {
      throw new Error('asked Redis');
    };
    const guessing = new CredentialGuessing({
      redis: { scard: never, eval: never },
      prefix: 'p:',
      perMinute: 0,
      logger,
    });
    await guessing.failed('198.51.100.1', 'nik_a');
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
  });
});
