// Dedupe and change memory across re-polls, restarts and pollers (Redis, bounded by expiry): per
// article, the revision emitted last and what a reader saw in it (article-revision.ts), so an item seen
// again is either nothing new or its next revision.
//
// Two steps so that a crash loses nothing: claim (short expiry) before producing, confirm (long expiry)
// after Kafka acknowledged, release when producing failed.
// - A first sighting is claimed by writing `claimed` to the article's key if it has none (SET NX): one
//   poller wins. A poller that dies before confirming leaves a claim that expires, and the next poll
//   emits the article; the deterministic id makes that one rare repeat harmless.
// - A later revision is claimed in a key of its own (`<key>:claim`, SET NX), and only while the
//   article's record is still the one the poller compared the item against (checked and set in one
//   Lua script). So two pollers that found the same change emit it once, and a poller that compared
//   against a record another one has replaced since emits nothing. The record itself changes only on
//   confirm: a crash between claim and confirm leaves it as it was, the claim expires, and the next
//   poll finds the change again and emits the same revision number.
//
// The value of an article's key is `claimed`, `seen` (written before revisions were tracked: seen,
// what it looked like unknown), or the record as JSON ({"v":2,...}, below).
//
// An article is also remembered by its source, URL and title (its alias, one key per article): a feed
// whose guids change at every fetch (a timestamp or a session in them) would otherwise make its items new
// articles at every poll, each stored and sent again. An item whose id was never seen but whose alias
// names another article is that article, its next revision if it changed (lookAndClaim, poll-source.ts).
// Items of one document that share a link but not a title (a live page's entries) have aliases of their
// own, as their ids are their own (normalise-item.ts).
//
// A memory that Redis lost (a restart without persistence, a flush, a failover to an empty replica)
// would make every article still in the feeds new again: emitted again, sent again to webhooks. So
// when a `mark` is given (the poller gives one, seen-memory.ts), the mark's key says the memory is
// whole, and a look that claims first sightings refuses to run without it (SeenMemoryLost): nothing is
// claimed, hence nothing emitted, until the memory has been rebuilt from the log and marked again.
import { hash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisScript } from '../runtime/redis-script.ts';
import { readerFields } from '../feeds/normalise/reader-fields.ts';
import { comparableUrl, unknownHash, type Fingerprint } from './article-fingerprint.ts';
import type { ArticleRecord } from './article-revision.ts';

export interface SeenArticlesOptions {
  /** How long a confirmed article is remembered. */
  ttlSeconds: number;
  /** How long a claim holds while its article is being produced. */
  claimSeconds?: number;
  prefix?: string;
  /**
   * The key whose presence says the memory is whole (seen-memory.ts). Given, lookAndClaim() throws
   * SeenMemoryLost when it is missing, in the same command as the look.
   */
  mark?: string;
  /** Called when a look finds the mark missing (before SeenMemoryLost is thrown): time to rebuild. */
  onLost?: () => void;
}

/** The memory's mark is missing: Redis lost what was emitted, and nothing may be claimed until it is rebuilt. */
export class SeenMemoryLost extends Error {
  constructor() {
    super(
      "the poller's memory of emitted articles is missing from Redis (lost or flushed): polls wait for it to be rebuilt from the log",
    );
    this.name = 'SeenMemoryLost';
  }
}

const memoryLostReply = 'SEENMEMORYLOST';

/** What the memory says about one article id. */
export type Sighting =
  | { kind: 'new' }
  /** A first sighting another poll is producing now. */
  | { kind: 'claimed' }
  /** Emitted before revisions were tracked: seen, what it looked like unknown. */
  | { kind: 'legacy' }
  /** `stored` is the value as read, for the check of a revision claim. */
  | { kind: 'emitted'; record: ArticleRecord; stored: string };

const claimedValue = 'claimed';
/** lookAndClaim's reply for an id never seen whose alias names another article: this, then its id. */
const aliasReply = 'alias:';
const legacyValue = 'seen';

/**
 * First sightings' claims, a feed's at once: one command instead of a SET NX per item (each command costs
 * the client its own encoding, reply and promise). A 1 per key claimed, a 0 per key someone holds.
 */
const claimScript = new RedisScript(`
local owned = {}
for i, key in ipairs(KEYS) do
  owned[i] = redis.call('SET', key, '${claimedValue}', 'EX', ARGV[1], 'NX') and 1 or 0
end
return owned`);

/**
 * The look and the first sightings' claims in one command: each key's value, and for a key that has
 * none, a claim (nil in the reply: new, and now ours). Atomic, so nobody can claim it between the two.
 * ARGV[2] is the number of leading keys that are the memory's mark (0 or 1): without it, an error
 * reply and nothing claimed, so a memory lost in between can never pass for articles never seen.
 * The last ARGV[3] keys are alias keys, ARGV[6...] the (1-based) article each is the alias of: an article
 * key with no value whose alias names another article is not claimed, its reply `alias:<that article's
 * id>` (ARGV[4], the keys' prefix, tells an alias of the article itself from another's).
 * An article found remembered (not a claim) is remembered for ARGV[5] seconds more from now, and so is its
 * alias where the alias names it: the memory lasts while the item stays in its feed. With an expiry
 * counted from the first sighting only, an item still listed after DEDUPE_TTL_DAYS would be emitted again
 * as new, and an undated one with a new date (its discovery), a second row in the articles table.
 */
const lookAndClaimScript = new RedisScript(`
local marks = tonumber(ARGV[2])
if marks == 1 and redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('${memoryLostReply} the memory of emitted articles has no mark') end
local aliases = tonumber(ARGV[3])
local n = #KEYS - marks - aliases
local aliasOf = {}
for j = 1, aliases do aliasOf[tonumber(ARGV[5 + j])] = KEYS[marks + n + j] end
local values = {}
for i = 1, n do
  local key = KEYS[marks + i]
  local value = redis.call('GET', key)
  if value and value ~= '${claimedValue}' then
    redis.call('EXPIRE', key, ARGV[5])
    if aliasOf[i] and ARGV[4] .. (redis.call('GET', aliasOf[i]) or '') == key then redis.call('EXPIRE', aliasOf[i], ARGV[5]) end
  end
  if not value and aliasOf[i] then
    local other = redis.call('GET', aliasOf[i])
    if other and ARGV[4] .. other ~= key then value = '${aliasReply}' .. other end
  end
  if value then
    values[i] = value
  else
    redis.call('SET', key, '${claimedValue}', 'EX', ARGV[1])
    values[i] = false
  end
end
return values`);

/**
 * Records rebuilt from the log (seen-memory-rebuild.ts), each written unless the key already holds what
 * is as new or newer: a claim being produced, a record of the same or a later revision, or a value this
 * code cannot read (left alone, as everywhere here). ARGV: per key, its record, revision and expiry in
 * seconds. Returns how many were written.
 */
const rememberScript = new RedisScript(`
local written = 0
for i, key in ipairs(KEYS) do
  local revision = tonumber(ARGV[i * 3 - 1])
  local value = redis.call('GET', key)
  local write = value == false or value == '${legacyValue}'
  if not write and string.sub(value, 1, 7) == '{"v":2,' then
    local ok, stored = pcall(cjson.decode, value)
    write = ok and type(stored) == 'table' and type(stored.r) == 'number' and stored.r < revision
  end
  if write then
    redis.call('SET', key, ARGV[i * 3 - 2], 'EX', ARGV[i * 3])
    written = written + 1
  end
end
return written`);

/**
 * What was emitted, remembered at once: KEYS are the articles' keys, the claim keys to drop, then the
 * alias keys to set where unset (and to keep as long as the article where set to it); ARGV the expiry, the numbers of article keys and of claim keys, one
 * record per article key, then one article id per alias key.
 */
const confirmScript = new RedisScript(`
local records = tonumber(ARGV[2])
local claims = tonumber(ARGV[3])
for i = 1, records do redis.call('SET', KEYS[i], ARGV[i + 3], 'EX', ARGV[1]) end
for i = records + 1, records + claims do redis.call('DEL', KEYS[i]) end
for i = records + claims + 1, #KEYS do
  local id = ARGV[i - claims + 3]
  local named = redis.call('GET', KEYS[i])
  if not named then redis.call('SET', KEYS[i], id, 'EX', ARGV[1])
  elseif named == id then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
end
return records`);

/** A revision's claim: only while the record is the one compared against, and nobody else claims. */
const claimRevisionScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
return redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2])`;

/** A legacy 'seen' becomes a record, keeping its expiry; anything else there is left alone. */
const adoptScript = `
if redis.call('GET', KEYS[1]) ~= '${legacyValue}' then return false end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl) end
return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])`;

export class SeenArticles {
  private readonly claimSeconds: number;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly options: SeenArticlesOptions,
  ) {
    this.claimSeconds = options.claimSeconds ?? 300;
    this.prefix = options.prefix ?? 'news:seen:';
  }

  private key(id: string): string {
    return this.prefix + id;
  }

  private claimKey(id: string): string {
    return `${this.prefix}${id}:claim`;
  }

  /** What is remembered of each id. */
  async look(ids: readonly string[]): Promise<Map<string, Sighting>> {
    const sightings = new Map<string, Sighting>();
    if (ids.length === 0) return sightings;
    const values = await this.redis.mget(...ids.map((id) => this.key(id)));
    ids.forEach((id, i) => sightings.set(id, sightingOf(values[i] ?? null)));
    return sightings;
  }

  private aliasKey(alias: string): string {
    return `${this.prefix}alias:${alias}`;
  }

  /**
   * What is remembered of each id, and the ids never seen, which this caller now owns (claimed as
   * claim() does): a poll claims every first sighting it finds, so it need not send the keys twice.
   * Given `aliases` (articleAlias of each id's article, in order; null for none), an id never seen whose
   * alias names another article is neither claimed nor in `sightings`: `aliased` maps it to that
   * article's id.
   */
  async lookAndClaim(
    ids: readonly string[],
    aliases: readonly (string | null)[] = [],
  ): Promise<{ sightings: Map<string, Sighting>; claimed: Set<string>; aliased: Map<string, string> }> {
    const sightings = new Map<string, Sighting>();
    const claimed = new Set<string>();
    const aliased = new Map<string, string>();
    if (ids.length === 0) return { sightings, claimed, aliased };
    const keys = ids.map((id) => this.key(id));
    const aliasOf: number[] = [];
    aliases.forEach((alias, i) => {
      if (alias === null || i >= ids.length) return;
      keys.push(this.aliasKey(alias));
      aliasOf.push(i + 1);
    });
    const mark = this.options.mark;
    let values: (string | null)[];
    try {
      values = (await lookAndClaimScript.run(this.redis, mark === undefined ? keys : [mark, ...keys], [
        this.claimSeconds,
        mark === undefined ? 0 : 1,
        aliasOf.length,
        this.prefix,
        this.options.ttlSeconds,
        ...aliasOf,
      ])) as (string | null)[];
    } catch (error) {
      if (error instanceof Error && error.message.includes(memoryLostReply)) {
        this.options.onLost?.();
        throw new SeenMemoryLost();
      }
      throw error;
    }
    ids.forEach((id, i) => {
      const value = values[i] ?? null;
      if (value === null) claimed.add(id);
      else if (value.startsWith(aliasReply)) {
        aliased.set(id, value.slice(aliasReply.length));
        return;
      }
      sightings.set(id, sightingOf(value));
    });
    return { sightings, claimed, aliased };
  }

  /** First sightings: returns the ids this caller now owns (never seen, and not claimed by anyone else). */
  async claim(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const keys = ids.map((id) => this.key(id));
    const replies = (await claimScript.run(this.redis, keys, [this.claimSeconds])) as number[];
    return new Set(ids.filter((_id, i) => replies[i] === 1));
  }

  /**
   * Later revisions: returns the ids this caller now owns, each claimed only if its record still reads
   * `stored` (as look() gave it) and no one else has claimed a revision of it.
   */
  async claimRevisions(claims: readonly { id: string; stored: string }[]): Promise<Set<string>> {
    if (claims.length === 0) return new Set();
    const pipeline = this.redis.pipeline();
    for (const { id, stored } of claims)
      pipeline.eval(claimRevisionScript, 2, this.key(id), this.claimKey(id), stored, this.claimSeconds);
    return owned(
      claims.map((c) => c.id),
      await pipeline.exec(),
    );
  }

  /**
   * The articles reached Kafka: remember what was emitted for the full TTL, and drop the claims. `aliases`
   * (articleAlias → id) are remembered unless the alias names another article already.
   */
  async confirm(
    records: ReadonlyMap<string, ArticleRecord>,
    aliases: ReadonlyMap<string, string> = new Map(),
  ): Promise<void> {
    if (records.size === 0 && aliases.size === 0) return;
    const keys: string[] = [];
    const values: string[] = [];
    const claims: string[] = [];
    for (const [id, record] of records) {
      keys.push(this.key(id));
      values.push(encodeRecord(record));
      // Only a later revision has a claim key; a first sighting's claim is its key, overwritten here.
      if (record.revision > 1) claims.push(this.claimKey(id));
    }
    keys.push(...claims);
    for (const [alias, id] of aliases) {
      keys.push(this.aliasKey(alias));
      values.push(id);
    }
    await confirmScript.run(this.redis, keys, [
      this.options.ttlSeconds,
      records.size,
      claims.length,
      ...values,
    ]);
  }

  /** Producing failed: give the claims back so the next poll retries them. */
  async release(firstSightings: Iterable<string>, revisions: Iterable<string> = []): Promise<void> {
    const keys = [
      ...[...firstSightings].map((id) => this.key(id)),
      ...[...revisions].map((id) => this.claimKey(id)),
    ];
    if (keys.length) await this.redis.del(...keys);
  }

  /**
   * Records rebuilt from the log (seen-memory-rebuild.ts), each kept for `expiresInSeconds`, written
   * only where the memory holds nothing as new (see rememberScript), and each one's alias where the
   * alias names no article yet. Returns how many records were written.
   */
  async remember(
    records: ReadonlyMap<string, { record: ArticleRecord; expiresInSeconds: number; alias?: string }>,
  ): Promise<number> {
    if (records.size === 0) return 0;
    const keys: string[] = [];
    const args: (string | number)[] = [];
    const aliases = this.redis.pipeline();
    for (const [id, { record, expiresInSeconds, alias }] of records) {
      const seconds = Math.max(1, Math.ceil(expiresInSeconds));
      keys.push(this.key(id));
      args.push(encodeRecord(record), record.revision, seconds);
      if (alias !== undefined) aliases.set(this.aliasKey(alias), id, 'EX', seconds, 'NX');
    }
    const written = Number(await rememberScript.run(this.redis, keys, args));
    if (aliases.length > 0) await exec(aliases);
    return written;
  }

  /** Legacy 'seen' memories become records of what the items look like now; nothing is emitted for them. */
  async adopt(records: ReadonlyMap<string, ArticleRecord>): Promise<void> {
    if (records.size === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [id, record] of records)
      pipeline.eval(adoptScript, 1, this.key(id), encodeRecord(record), this.options.ttlSeconds);
    await exec(pipeline);
  }
}

/**
 * An article's alias: its source, canonical URL (without the query parameters that look made for one
 * fetch, the scheme and a leading "www.": comparableUrl) and title, hashed. What tells an item whose
 * guid, or whose link's timestamp, changed since the last poll from a new article (lookAndClaim): the
 * same page under the same title. A site that moves to https changes every link and every permalink
 * guid, so every article's id: with the scheme in the alias, each had come again as a new article.
 * (Aliases remembered before 2026-12-06 hold the scheme: an article first seen before then is not found
 * by its alias when its site moves.)
 */
export const articleAlias = (article: { source_id: string; url: string; title: string }): string =>
  hash('sha1', `${article.source_id}\n${comparableUrl(article.url)}\n${article.title}`, 'base64url');

type Replies = [Error | null, unknown][] | null;

function owned(ids: readonly string[], replies: Replies): Set<string> {
  const mine = new Set<string>();
  (replies ?? []).forEach(([error, reply], i) => {
    if (error) throw error;
    if (reply === 'OK') mine.add(ids[i]!);
  });
  return mine;
}

async function exec(pipeline: ReturnType<Redis['pipeline']>): Promise<void> {
  for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
}

/** Reader fields of the records written before `url` was one (title … published_at). */
const legacyFieldCount = 5;

/** The stored form: short keys, one hash per reader field in readerFields order. */
interface StoredRecord {
  v: 2;
  r: number;
  h: string[];
  p: number | null;
  d: number | null;
  l: number | null;
  u: number[];
}

/**
 * The record as JSON: the StoredRecord above, written out field by field (the same text as
 * JSON.stringify of it, at a third of the cost: one record per article of every poll).
 */
export function encodeRecord(record: ArticleRecord): string {
  const hashes = JSON.stringify(readerFields.map((field) => record.fingerprint[field]));
  return (
    `{"v":2,"r":${jsonNumber(record.revision)},"h":${hashes},"p":${jsonNumber(record.firstPublishedAt)},` +
    `"d":${jsonNumber(record.firstDiscoveredAt)},"l":${jsonNumber(record.lastRevisionAt)},` +
    `"u":[${record.recentUpdates.map(jsonNumber).join(',')}]}`
  );
}

/** A number as JSON.stringify writes it: null for null and for what is not finite. */
const jsonNumber = (n: number | null): string => (n !== null && Number.isFinite(n) ? String(n) : 'null');

/** Null when the value is not a record this code wrote. */
export function decodeRecord(value: string): ArticleRecord | null {
  let stored: Partial<StoredRecord>;
  try {
    stored = JSON.parse(value) as Partial<StoredRecord>;
  } catch {
    return null;
  }
  const time = (t: unknown) => (typeof t === 'number' && Number.isFinite(t) ? t : null);
  if (
    stored?.v !== 2 ||
    !Number.isInteger(stored.r) ||
    !Array.isArray(stored.h) ||
    stored.h.length > readerFields.length ||
    stored.h.length < legacyFieldCount ||
    !stored.h.every((h) => typeof h === 'string')
  )
    return null;
  // Written before `url` was a reader field: its hash is unknown (taken as unchanged until a revision).
  const hashes = [...stored.h, ...Array<string>(readerFields.length - stored.h.length).fill(unknownHash)];
  return {
    revision: stored.r!,
    fingerprint: Object.fromEntries(readerFields.map((field, i) => [field, hashes[i]!])) as Fingerprint,
    firstPublishedAt: time(stored.p),
    firstDiscoveredAt: time(stored.d),
    lastRevisionAt: time(stored.l),
    recentUpdates: Array.isArray(stored.u) ? stored.u.filter((t) => time(t) !== null) : [],
  };
}

function sightingOf(value: string | null): Sighting {
  if (value === null) return { kind: 'new' };
  if (value === claimedValue) return { kind: 'claimed' };
  const record = decodeRecord(value);
  // 'seen', or a value this code cannot read: seen before, looks unknown. The adopt script replaces only
  // 'seen', so an unreadable value stays as it is and its item is never emitted twice.
  return record ? { kind: 'emitted', record, stored: value } : { kind: 'legacy' };
}
