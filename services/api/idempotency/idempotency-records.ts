// The records behind Idempotency-Key, in Redis: a claim while the first request runs, then the answer it
// got. Each record is one string under one key, sealed with the secret box: a stored answer may be the
// only copy of a webhook's signing secret (registration and rotation show it once), and it is tenant
// data either way, so nothing readable is left in Redis for 24 hours. Every change is a Lua script that
// checks the claim first, so a request whose claim expired (its process stalled) never overwrites the
// work of the request that claimed the key after it.
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { SecretBoxError, type SecretBox } from '../../webhooks/secret-box.ts';

const runningRecord = z.object({
  v: z.literal(1),
  state: z.literal('running'),
  fingerprint: z.string(),
  /** Makes every claim's sealed text unique (with the box's random iv): the scripts compare it. */
  requestId: z.string(),
});

const doneRecord = z.object({
  v: z.literal(1),
  state: z.literal('done'),
  fingerprint: z.string(),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  /** The answer's bytes, base64. */
  body: z.string(),
});

const record = z.discriminatedUnion('state', [runningRecord, doneRecord]);

export type RunningRecord = z.infer<typeof runningRecord>;
export type DoneRecord = z.infer<typeof doneRecord>;
export type IdempotencyRecord = z.infer<typeof record>;

/**
 * A record that cannot be opened (sealed with a key no longer in WEBHOOK_SECRET_KEYS, or altered). The
 * message never quotes the record: opened, it may hold a secret.
 */
export class UnreadableRecordError extends Error {
  constructor(why: string) {
    super(`an Idempotency-Key record cannot be read: ${why}`);
    this.name = 'UnreadableRecordError';
  }
}

/** Claimed, with the claim to renew, complete or release it by; or refused: the key holds `existing`. */
export type ClaimOutcome = { claimed: true; claim: string } | { claimed: false; existing: IdempotencyRecord };

// KEYS[1] = the key's record; ARGV[1] = the claim, ARGV[2] = its lifetime in ms.
// Returns nothing when claimed, else the record already there.
const claimScript = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

// KEYS[1]; ARGV[1] = the claim, ARGV[2] = its lifetime in ms.
const renewScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

// KEYS[1]; ARGV[1] = the claim, ARGV[2] = the answer's record, ARGV[3] = its lifetime in s. The answer
// is also stored when the claim expired and nobody took the key since: the work was done, and a retry
// should see it rather than do it again.
const completeScript = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] or not current then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0`;

// KEYS[1]; ARGV[1] = the claim.
const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class IdempotencyRecords {
  constructor(private readonly deps: { redis: Redis; box: Pick<SecretBox, 'seal' | 'open'> }) {}

  /** Claims `key` for a request, or answers what the key already holds. */
  async claim(key: string, running: RunningRecord, claimMs: number): Promise<ClaimOutcome> {
    const claim = this.seal(running);
    const existing = (await this.deps.redis.eval(claimScript, 1, key, claim, claimMs)) as string | null;
    if (existing === null) return { claimed: true, claim };
    return { claimed: false, existing: this.open(existing) };
  }

  /** Extends a claim still held; false when it is no longer this request's. */
  async renew(key: string, claim: string, claimMs: number): Promise<boolean> {
    return Number(await this.deps.redis.eval(renewScript, 1, key, claim, claimMs)) === 1;
  }

  /** Stores the answer in place of the claim; false when another request holds the key now. */
  async complete(key: string, claim: string, done: DoneRecord, ttlSeconds: number): Promise<boolean> {
    const stored = await this.deps.redis.eval(completeScript, 1, key, claim, this.seal(done), ttlSeconds);
    return Number(stored) === 1;
  }

  /** Gives the key up, so that the next request with it runs. */
  async release(key: string, claim: string): Promise<void> {
    await this.deps.redis.eval(releaseScript, 1, key, claim);
  }

  private seal(value: IdempotencyRecord): string {
    return this.deps.box.seal(JSON.stringify(value));
  }

  private open(sealed: string): IdempotencyRecord {
    let text: string;
    try {
      text = this.deps.box.open(sealed);
    } catch (error) {
      throw new UnreadableRecordError(error instanceof SecretBoxError ? error.kind : 'not sealed');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UnreadableRecordError('not JSON');
    }
    const result = record.safeParse(parsed);
    if (!result.success) throw new UnreadableRecordError('not a record of this version');
    return result.data;
  }
}
