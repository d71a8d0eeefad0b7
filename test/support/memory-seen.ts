// The dedupe memory of the poller (services/poller/seen-articles.ts) in a Map, keeping values as Redis
// would (the record codec of seen-articles.ts): the poll's logic is tested against it in
// services/poller/poll-source.test.ts and simulated with it by bench:freshness, and the Redis commands are
// tested in test/integration/seen-articles.test.ts.
import type { ArticleRecord } from '../../services/poller/article-revision.ts';
import {
  decodeRecord,
  encodeRecord,
  type SeenArticles,
  type Sighting,
} from '../../services/poller/seen-articles.ts';

export function memorySeen(values = new Map<string, string>()) {
  const claims = new Set<string>();
  /** articleAlias → article id, as the alias keys hold them. */
  const aliases = new Map<string, string>();
  const seen = {
    look: async (ids: readonly string[]) =>
      new Map(
        ids.map((id): [string, Sighting] => {
          const value = values.get(id);
          if (value === undefined) return [id, { kind: 'new' }];
          if (value === 'claimed') return [id, { kind: 'claimed' }];
          const record = decodeRecord(value);
          return [id, record ? { kind: 'emitted', record, stored: value } : { kind: 'legacy' }];
        }),
      ),
    lookAndClaim: async (ids: readonly string[], aliasesOf: readonly (string | null)[] = []) => {
      const sightings = await seen.look(ids);
      const aliased = new Map<string, string>();
      ids.forEach((id, i) => {
        const alias = aliasesOf[i];
        const other = alias == null ? undefined : aliases.get(alias);
        if (sightings.get(id)!.kind === 'new' && other !== undefined && other !== id) {
          aliased.set(id, other);
          sightings.delete(id);
        }
      });
      const claimed = new Set(ids.filter((id) => sightings.get(id)?.kind === 'new'));
      claimed.forEach((id) => values.set(id, 'claimed'));
      return { sightings, claimed, aliased };
    },
    claim: async (ids: readonly string[]) => {
      const mine = ids.filter((id) => !values.has(id));
      mine.forEach((id) => values.set(id, 'claimed'));
      return new Set(mine);
    },
    claimRevisions: async (wanted: readonly { id: string; stored: string }[]) => {
      const mine = wanted.filter(({ id, stored }) => values.get(id) === stored && !claims.has(id));
      mine.forEach(({ id }) => claims.add(id));
      return new Set(mine.map(({ id }) => id));
    },
    confirm: async (
      records: ReadonlyMap<string, ArticleRecord>,
      named: ReadonlyMap<string, string> = new Map(),
    ) => {
      for (const [id, record] of records) {
        values.set(id, encodeRecord(record));
        claims.delete(id);
      }
      for (const [alias, id] of named) if (!aliases.has(alias)) aliases.set(alias, id);
    },
    release: async (firsts: Iterable<string>, revisions: Iterable<string> = []) => {
      for (const id of firsts) values.delete(id);
      for (const id of revisions) claims.delete(id);
    },
    adopt: async (records: ReadonlyMap<string, ArticleRecord>) => {
      for (const [id, record] of records) if (values.get(id) === 'seen') values.set(id, encodeRecord(record));
    },
  };
  return { seen: seen as unknown as SeenArticles, values, aliases };
}
