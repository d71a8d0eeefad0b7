// The search index's keys are computed by the projector (services/search/city-hash.ts) and read by SQL
// that may compute them too (`term = cityHash64('word')`, `cityHash64(article_id)`): both must be
// ClickHouse's cityHash64, checked here on every word of the BBC corpus and on article ids.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../../services/demo/corpus.ts';
import { articleId } from '../../services/feeds/normalise/article-id.ts';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import { sql } from '../../services/runtime/clickhouse/literal.ts';
import { cityHash64, hashText } from '../../services/search/city-hash.ts';
import { searchWords } from '../../services/search/search-words.ts';
import { testClickHouse } from './support/stack.ts';

const database = `city_hash_test_${randomUUID().slice(0, 8)}`;

describe('cityHash64', () => {
  let clickhouse: ClickHouse;
  beforeAll(async () => {
    clickhouse = await testClickHouse(database);
  });
  afterAll(async () => {
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  const corpus = readCorpus();
  const words = [...new Set(corpus.flatMap((a) => searchWords(`${a.title} ${a.paragraphs.join(' ')}`)))];
  const ids = corpus.map((a, i) => articleId(`src_${i}`, a.id, `https://example.com/${a.id}`));
  // Every length up to 200 bytes, in one and more bytes a character.
  const lengths = Array.from({ length: 200 }, (_, n) => 'ab€'.repeat(n).slice(0, n));

  it('is what ClickHouse computes, for every word of the corpus, article ids and every length', async () => {
    const texts = [...words, ...ids, ...lengths];
    expect(words.length).toBeGreaterThan(5_000);
    for (let i = 0; i < texts.length; i += 1_000) {
      const chunk = texts.slice(i, i + 1_000);
      const [row] = await clickhouse.query<{ hashes: string[] }>(
        sql`SELECT arrayMap(t -> toString(cityHash64(t)), ${chunk}) AS hashes`,
      );
      expect(chunk.map((t) => hashText(cityHash64(t)))).toEqual(row!.hashes);
    }
  });
});
