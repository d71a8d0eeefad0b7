// Search through the index the projector maintains (article_postings): on the BBC corpus, the index
// answers every query exactly as reading the text of every article does (a few hundred words, phrases
// and boolean expressions, in each field), and sort_by=relevance puts a small hand-labelled set in the
// order a reader would.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArticleStore } from '../../services/api/articles/article-store.ts';
import {
  articleListQuery,
  type ArticleFilter,
  type SearchField,
} from '../../services/api/articles/article-query.ts';
import { parseSearch, searchMatcher } from '../../services/api/articles/search-expression.ts';
import { readCorpus } from '../../services/demo/corpus.ts';
import { PostingRows, postingColumns, TermHashes } from '../../services/projector/posting-rows.ts';
import { projectBatch } from '../../services/projector/projector.ts';
import type { ClickHouse } from '../../services/runtime/clickhouse/client.ts';
import type { ArticleDiscovered } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { isUnspaced, searchWords } from '../../services/search/search-words.ts';
import { testClickHouse } from './support/stack.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { worldHeadlines } from './support/world-headlines.ts';

const run = randomUUID().slice(0, 8);
const database = `search_test_${run}`;
const start = Date.UTC(2005, 0, 3);

const article = (
  id: string,
  source: string,
  at: number,
  text: { title: string; summary: string; content: string },
): ArticleDiscovered =>
  discoveredArticle(id, at, {
    source_id: source,
    source_name: source,
    url: `https://search.example/${id}`,
    original_url: `https://search.example/${id}`,
    ...text,
    category: 'general',
  });

// The corpus (the hundred articles bundled for the demo), one article an hour, with the lead as the summary and the rest as the content.
const corpus = readCorpus().map((a, i) =>
  article(`bbc_${a.id.replace('/', '_')}`, `bbc_${a.category}`, start + i * 3_600_000, {
    title: a.title,
    summary: a.paragraphs[0] ?? '',
    content: a.paragraphs.slice(1).join('\n\n'),
  }),
);

// The hand-labelled set, from a source of its own: for each query, how relevant each article is
// (2: about it, 1: mentions it, 0 or absent: does not match). Written to be judged by a reader, not
// fitted to the scorer.
const labelledSource = `labelled_${run}`;
const long = (sentence: string) =>
  Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of the report covers local matters in detail.`)
    .concat(sentence)
    .join(' ');
const labelledTexts: Record<string, { title: string; summary: string; content: string }> = {
  rates_hike: {
    title: 'Bank of England raises interest rates to 5%',
    summary: 'The Bank of England has raised interest rates for the third time this year.',
    content: 'Interest rates rose by a quarter point. Economists expect interest rates to stay high.',
  },
  rates_savers: {
    title: 'Interest rates: what the rise means for savers',
    summary: 'Savers should see better returns as interest rates climb.',
    content: 'Banks are passing the higher interest rates on to savings accounts slowly.',
  },
  housing: {
    title: 'Housing market cools in the north',
    summary: 'House prices fell for a second month.',
    content: long('Agents blamed higher interest rates for the fall.'),
  },
  interest_only: {
    title: 'Collectors show interest in old coins',
    summary: 'A coin fair drew record crowds.',
    content: 'Dealers said the rates of return on rare coins were high.',
  },
  election_vote: {
    title: 'Election called after government loses confidence vote',
    summary: 'The prime minister called an election after losing a vote in parliament.',
    content: 'The election will be held next month.',
  },
  election_mention: {
    title: 'Council budget approved',
    summary: 'The budget passed a year before the next election.',
    content: 'Councillors debated spending on roads and schools.',
  },
  vote_mention: {
    title: 'Village fete raises money for church roof',
    summary: 'Hundreds attended the summer fete.',
    content: long('A vote on next year’s theme will be held in the spring.'),
  },
  football_final: {
    title: 'Football: late goal settles cup final',
    summary: 'A football cup final decided in the last minute.',
    content: 'The winners lifted the trophy in front of their fans.',
  },
  football_mention: {
    title: 'Town centre traffic plan delayed',
    summary: 'The plan was delayed again.',
    content: long('Football fans will be diverted on match days.'),
  },
  football_transfer: {
    title: 'Football transfer window closes',
    summary: 'Clubs rushed to complete football transfer deals.',
    content: 'The transfer deadline passed at midnight.',
  },
  twin_older: {
    title: 'Lighthouse keeper retires after forty years',
    summary: 'The lighthouse keeper retires.',
    content: 'The lighthouse will be automated.',
  },
  twin_newer: {
    title: 'Lighthouse keeper retires after forty years',
    summary: 'The lighthouse keeper retires.',
    content: 'The lighthouse will be automated.',
  },
  // A feed that carries only a description: the article shows it as its content.
  description_only: {
    title: 'Island timetable changes in May',
    summary: 'Ferries to the islands will sail twice a day from May, the operator announced.',
    content: '',
  },
};
const labelledIds = Object.keys(labelledTexts);
const labelled = labelledIds.map((key, i) =>
  article(`lab_${run}_${key}`, labelledSource, start + 3_600_000 * (3000 + i), labelledTexts[key]!),
);
const labelledId = (key: string) => `lab_${run}_${key}`;

// Headlines in scripts written without spaces (and spaced ones with combining marks), from a source of
// their own.
const worldSource = `world_${run}`;
const world = worldHeadlines.map((h, i) => ({
  ...article(`world_${run}_${i}`, worldSource, start + 3_600_000 * (4000 + i), { ...h, content: '' }),
  language: h.language,
}));

describe('search', () => {
  let clickhouse: ClickHouse;
  let store: ArticleStore;

  beforeAll(async () => {
    clickhouse = await testClickHouse(database, { migrated: true });
    // What the projector writes for these events (services/projector/projector.ts), offsets as versions.
    await projectBatch(
      clickhouse,
      [...corpus, ...labelled, ...world].map((a, offset) => ({
        topic: topicNames.articlesDiscovered,
        partition: 0,
        offset: String(offset),
        key: a.article_id,
        value: a,
        headers: {},
        timestamp: String(a.occurred_at),
      })),
    );
    store = new ArticleStore(clickhouse, { urlFor: (key) => key, urlForArticle: (id) => `article:${id}` });
  }, 120_000);

  afterAll(async () => {
    await clickhouse?.command(`DROP DATABASE IF EXISTS ${database}`);
    await clickhouse?.close();
  });

  const ids = async (filter: ArticleFilter) =>
    (
      await clickhouse.query<{ article_id: string }>(articleListQuery(filter, { limit: 5000, offset: 0 }))
    ).map((r) => r.article_id);

  // A few hundred words across the corpus's range of frequencies: every 20th of its vocabulary by
  // count, which runs from words in most articles to words in one.
  const vocabulary = (() => {
    const counts = new Map<string, number>();
    for (const a of corpus)
      for (const w of new Set(searchWords(`${a.title} ${a.summary} ${a.content}`)))
        counts.set(w, (counts.get(w) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  })();
  const sampled = vocabulary.filter((_, i) => i % 20 === 0).slice(0, 300);

  // The index holds titles and summaries; a search in the content reads it (and so equals the scan).
  it('finds what a scan finds, for a few hundred words in each field', async () => {
    expect(sampled.length).toBeGreaterThanOrEqual(300);
    let nonEmpty = 0;
    const fieldSets: SearchField[][] = [['title', 'summary'], ['content'], ['title', 'summary', 'content']];
    for (const [i, word] of sampled.entries()) {
      const searchIn = fieldSets[i % fieldSets.length]!;
      const search = parseSearch(word);
      const scanned = await ids({ search, searchIn, searchBy: 'scan' });
      expect(await ids({ search, searchIn }), `${word} in ${searchIn.join(',')}`).toEqual(scanned);
      if (scanned.length > 0) nonEmpty += 1;
    }
    // The comparison means something only if most words find articles.
    expect(nonEmpty).toBeGreaterThan(200);
  }, 300_000);

  it('finds what a scan finds, for phrases, boolean expressions and with other filters', async () => {
    const w = (i: number) => vocabulary[i * 7 + 50]!;
    const queries = [
      '"interest rates"',
      '"prime minister" -blair',
      '(economy OR growth) AND -china',
      '"world cup" OR "six nations"',
      'microsoft NOT (apple OR google)',
      'film (oscar OR award) -"best actor"',
      `${w(1)} ${w(2)}`,
      `${w(3)} OR ${w(4)} OR ${w(5)}`,
      `(${w(6)} OR ${w(7)}) -${w(8)}`,
      `"${w(9)} ${w(10)}" OR ${w(11)}`,
      'U.S. anti-spyware',
      '2004',
    ];
    const dateRange = { from: new Date(start + 500 * 3_600_000), to: new Date(start + 1500 * 3_600_000) };
    for (const q of queries) {
      for (const extra of [{}, { dateRange }, { categories: ['general'] }, { sources: ['bbc_business'] }]) {
        const search = parseSearch(q);
        const searchIn: SearchField[] = ['title', 'summary'];
        const scanned = await ids({ search, searchIn, searchBy: 'scan', ...extra });
        expect(await ids({ search, searchIn, ...extra }), `${q} ${JSON.stringify(extra)}`).toEqual(scanned);
      }
    }
    expect((await ids({ search: parseSearch('"interest rates"') })).length).toBeGreaterThan(0);
  }, 120_000);

  // Queries taken from the headlines themselves: each spaced word, and pieces of 1, 2 and 4 characters
  // from the start, middle and end of each unspaced run; then expressions over them. The index, the scan
  // (re2 in ClickHouse) and the live stream's matcher (JavaScript) must agree, and each query taken from
  // a headline must find it.
  it('finds what a scan and the stream find in Chinese, Japanese, Korean, Thai, Hindi and other scripts', async () => {
    const queries = new Map<string, string>();
    for (const a of world) {
      for (const word of searchWords(`${a.title} ${a.summary}`)) {
        if (!isUnspaced(word)) {
          queries.set(word, a.article_id);
          continue;
        }
        const chars = Array.from(word);
        for (const length of [1, 2, 4]) {
          if (chars.length < length) continue;
          const middle = Math.floor((chars.length - length) / 2);
          for (const at of new Set([0, middle, chars.length - length]))
            queries.set(chars.slice(at, at + length).join(''), a.article_id);
        }
      }
    }
    expect(queries.size).toBeGreaterThan(500);
    const expressions = [
      '首相',
      '首相 辞任',
      '"日本 首相"',
      '日本 -北京',
      '台风 OR 地震',
      'G7サミット',
      'g7',
      'G20',
      '"G20 शिखर"',
      'हिन्दी समाचार',
      'हिन',
      '서울 -금리',
      'กรุงเทพ OR ญี่ปุ่น',
      'ငလျင်',
      '(首相 OR 知事) AND -北京',
    ];
    const worldIds = new Set(world.map((a) => a.article_id));
    const text = new Map(world.map((a) => [a.article_id, `${a.title}\n${a.summary}`.toLowerCase()]));
    // Every other one keeps the run short; which ones is fixed by the headlines' order.
    const sampled = [...queries.keys()].filter((_, i) => i % 2 === 0);
    for (const q of [...sampled, ...expressions]) {
      const search = parseSearch(q);
      const scanned = (await ids({ search, searchBy: 'scan' })).filter((id) => worldIds.has(id));
      expect(await ids({ search, sources: [worldSource] }), `index: ${q}`).toEqual(scanned);
      const matcher = searchMatcher(search);
      expect(
        world
          .filter((a) => matcher(text.get(a.article_id)!))
          .map((a) => a.article_id)
          .reverse(),
        `stream: ${q}`,
      ).toEqual(scanned);
      const from = queries.get(q);
      if (from) expect(scanned, `${q} finds its headline`).toContain(from);
    }
    // The example of the bug this pins: "首相" inside 日本の首相が辞任を表明 (and in Chinese text too).
    expect(await ids({ search: parseSearch('首相'), sources: [worldSource] })).toEqual([
      world[8]!.article_id,
      world[0]!.article_id,
    ]);
    // Relevance weighs the pairs of characters the query is looked up by.
    const relevant = await store.list(
      { search: parseSearch('首相 辞任'), sources: [worldSource] },
      { limit: 10, offset: 0, sort: 'relevance' },
    );
    expect(relevant.items.map((a) => a.id)).toEqual([world[0]!.article_id]);
  }, 120_000);

  // The index is keyed by hashes: two words with one cityHash64 would file an article under a word it
  // does not hold. The answer must not change, since the text of whatever the index finds is checked.
  it('lists no article the index files under a word its text does not hold, as a hash collision would', async () => {
    const word = 'lighthouse';
    const expected = await ids({ search: parseSearch(word), searchBy: 'scan' });
    expect(expected.length).toBeGreaterThan(0);
    const stranger = corpus.find((a) => !searchWords(`${a.title} ${a.summary}`).includes(word))!;
    const rows = new PostingRows(new TermHashes());
    rows.add(Math.floor(stranger.published_at / 1000), stranger.article_id, 1_000_000, {
      terms: [word],
      title_tfs: [3],
      summary_tfs: [3],
      title_length: 3,
      summary_length: 3,
    });
    await clickhouse.insertRowBinary('article_postings', postingColumns, rows.encode());
    const [found] = await clickhouse.query<{ n: string }>(
      `SELECT count() AS n FROM article_postings WHERE term = cityHash64('${word}') AND article = cityHash64('${stranger.article_id}')`,
    );
    expect(Number(found!.n)).toBe(1);
    expect(await ids({ search: parseSearch(word) })).toEqual(expected);
    const relevant = await store.list(
      { search: parseSearch(word) },
      { limit: 100, offset: 0, sort: 'relevance' },
    );
    expect(relevant.items.map((a) => a.id)).not.toContain(stranger.article_id);
    expect(relevant.items.map((a) => a.id).sort()).toEqual([...expected].sort());
  });

  const byRelevance = async (q: string) => {
    const page = await store.list(
      { search: parseSearch(q), searchIn: ['title', 'summary', 'content'], sources: [labelledSource] },
      { limit: 100, offset: 0, sort: 'relevance' },
    );
    return page.items.map((a) => a.id);
  };
  // Every article above every one its reader judged less relevant, and nothing else.
  const inOrder = (found: string[], grades: Record<string, number>) => {
    expect(new Set(found)).toEqual(new Set(Object.keys(grades).map(labelledId)));
    const grade = found.map((id) => grades[id.slice(labelledId('').length)]!);
    expect(grade, found.join(' ')).toEqual([...grade].sort((a, b) => b - a));
  };

  it('orders a hand-labelled set by relevance', async () => {
    inOrder(await byRelevance('"interest rates"'), { rates_hike: 2, rates_savers: 2, housing: 1 });
    inOrder(await byRelevance('election OR vote'), {
      election_vote: 2,
      election_mention: 1,
      vote_mention: 1,
    });
    inOrder(await byRelevance('football -transfer'), { football_final: 2, football_mention: 1 });
  });

  it('looks in the description that an article without content shows as its content', async () => {
    const id = labelledId('description_only');
    expect((await store.get(id))?.content).toBe(labelledTexts.description_only!.summary);
    for (const searchBy of ['index', 'scan'] as const)
      expect(
        await ids({
          search: parseSearch('ferries'),
          searchIn: ['content'],
          searchBy,
          sources: [labelledSource],
        }),
      ).toEqual([id]);
    // Content that is there is the text looked in, not the summary beside it.
    expect(
      await ids({ search: parseSearch('keeper'), searchIn: ['content'], sources: [labelledSource] }),
    ).toEqual([]);
  });

  it('puts the newer of two equally relevant articles first', async () => {
    expect(await byRelevance('lighthouse keeper')).toEqual([
      labelledId('twin_newer'),
      labelledId('twin_older'),
    ]);
  });

  it('pages by relevance with offset, each article once', async () => {
    const filter: ArticleFilter = {
      search: parseSearch('said OR year'),
      searchIn: ['title', 'summary', 'content'],
    };
    const pages: string[] = [];
    for (let offset = 0; offset < 60; offset += 20) {
      const page = await store.list(filter, { limit: 20, offset, sort: 'relevance' });
      expect(page.nextCursor).toBeNull();
      pages.push(...page.items.map((a) => a.id));
    }
    expect(new Set(pages).size).toBe(60);
    const all = await store.list(filter, { limit: 60, offset: 0, sort: 'relevance' });
    expect(all.items.map((a) => a.id)).toEqual(pages);
  });
});
