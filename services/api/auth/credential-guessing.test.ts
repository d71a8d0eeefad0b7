// What the count decides from what Redis says, and what it does when Redis is away
// (test/integration/access-control.test.ts runs it against Redis, scripts and all).
import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../runtime/logger.ts';
import { CredentialGuessing, routerMatches } from './credential-guessing.ts';

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
      redis: { eval: down },
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
        // The count's script (two keys, no arguments): nothing last minute, five this minute.
        eval: (_script: string, _keys: number, key: string, ...args: string[]) => {
          if (args.length > 2) return Promise.resolve([1, 0, 1]); // the add's
          asked.push(key);
          return Promise.resolve([0, 5]);
        },
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
    // Five distinct credentials in this minute (as Redis says): refused until the minute ends and they are
    // the previous minute's, weighing less than five.
    expect(await guessing.refusedFor('198.51.100.1')).toBe(31);
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
      redis: { eval: never },
      prefix: 'p:',
      perMinute: 0,
      logger,
    });
    await guessing.failed('198.51.100.1', 'nik_a');
    expect(await guessing.refusedFor('198.51.100.1')).toBe(0);
  });

  it('counts a sliding minute: an allowance spent at the end of one minute still counts in the next', async () => {
    const redis = new FakeSets();
    const { logger, warnings } = recordingLogger();
    let now = 59_000; // the last second of minute 0
    const guessing = new CredentialGuessing({ redis, prefix: 'p:', perMinute: 5, logger, clock: () => now });
    const address = '198.51.100.1';
    for (const i of [1, 2, 3, 4, 5]) await guessing.failed(address, `nik_${i}`);
    expect(await guessing.refusedFor(address)).toBeGreaterThan(0);
    expect(warnings).toEqual([
      'an address presented too many credentials that failed within a minute; refusing its credentials',
    ]);

    // One second into minute 1 the five weigh 4.92: one more credential is checked, not five more (a
    // clock minute let the whole allowance be tried again at once).
    now = 61_000;
    expect(await guessing.refusedFor(address)).toBe(0);
    await guessing.failed(address, 'nik_6');
    // 5 × (1 − t/60) + 1 < 5 once t is past 12 s: refused, 1 s in, for 12 s (whole seconds, rounded up).
    expect(await guessing.refusedFor(address)).toBe(12);
    now = 72_500;
    expect(await guessing.refusedFor(address)).toBe(0);
    // Logged by the failure that took the address to the limit, each time one did.
    expect(warnings).toHaveLength(2);
  });
});

/** Redis's sets, running the two scripts of credential-guessing.ts by what they are given. */
class FakeSets {
  private readonly sets = new Map<string, Set<string>>();

  eval(_script: string, _keys: number, ...keysAndArgs: string[]): Promise<unknown> {
    const [key = '', previousKey = '', ...args] = keysAndArgs;
    const card = (k: string) => this.sets.get(k)?.size ?? 0;
    if (args.length === 0) return Promise.resolve([card(previousKey), card(key)]);
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Set()));
    const added = set.has(args[0]!) ? 0 : 1;
    set.add(args[0]!);
    return Promise.resolve([added, card(previousKey), card(key)]);
  }
}

describe('which requests are token requests', () => {
  it('knows every spelling of the path the router answers at, and only those', () => {
    // The router as app.ts makes it: what it routes to the token endpoint, the guard must count.
    const router = new Router();
    router.post('/oauth/token', () => undefined);
    const spellings = [
      '/oauth/token',
      '/oauth/token/',
      '/OAuth/Token',
      '/OAUTH/TOKEN/',
      '/oauth/token//',
      '//oauth/token',
      '/oauth//token',
      '/oauth/%74oken',
      '/oauth/token.json',
      '/oauth/tokens',
      '/oauth',
    ];
    for (const path of spellings)
      expect([path, routerMatches(path, '/oauth/token')]).toEqual([path, router.match(path, 'POST').route]);
    expect(spellings.filter((path) => routerMatches(path, '/oauth/token'))).toHaveLength(4);
  });
});
