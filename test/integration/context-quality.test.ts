// Context that is about the same event or its direct background, never a link through one common word,
// on the real stack: the BBC corpus and follow-up stories written for this test go to Kafka, the enricher
// process enriches them (its context from the read model) and the clusterer places them in stories. Every
// article a context cites, in the enrichments and in POST /v1/enhance, shares the story or a named entity
// with the article; the Microsoft anti-spyware article and the Millennium Dome sale, which share only
// "attempt", never cite each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../../services/demo/corpus.ts';
import type { ArticleDiscovered, ArticleEnriched } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { components } from '../api-client/schema.d.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startReadyService, type ServiceProcess } from './support/service-process.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';

type Enhanced = components['schemas']['Enhancement'];
type ArticleList = components['schemas']['ArticleList'];

// Follow-ups to corpus stories, by other outlets, a day later: each should find its background.
const followUps = [
  {
    outlet: 'Tech Wire',
    title: 'Microsoft warns users over trojan that disables its anti-spyware tool',
    text: 'Microsoft has warned users of its anti-spyware software about a trojan program that tries to switch the protection off. The firm said an update to the software would stop the trojan, which has been seen in the wild.',
  },
  {
    outlet: 'Westminster Daily',
    title: 'Watchdog report criticises handling of Millennium Dome sale',
    text: 'The National Audit Office has criticised the way the government handled the first attempt to sell the Millennium Dome. English Partnerships said lessons had been learned before the second sale process.',
  },
  {
    outlet: 'City Journal',
    title: 'Pernod Ricard confirms talks over Allied Domecq bid',
    text: 'Pernod Ricard has confirmed it is in talks about a possible bid for Allied Domecq, the UK drinks group whose shares rose on takeover speculation. Allied Domecq owns brands including Ballantines whisky.',
  },
];

describe('context quality', () => {
  let stack: ApiStack;
  let recorder: TopicRecorder;
  let run: string;
  const services: ServiceProcess[] = [];
  const now = Date.now();

  const start = (name: 'enricher' | 'clusterer', env: Record<string, string>, ready: string) =>
    startReadyService(name, { CLICKHOUSE_DATABASE: stack.database, ...env }, ready, services);

  const discovered = (
    id: string,
    outlet: string,
    title: string,
    paragraphs: string[],
    publishedAt: number,
    category: string,
  ): ArticleDiscovered =>
    discoveredArticle(id, now, {
      source_id: `src_${run}_${outlet.replace(/\W/g, '').toLowerCase()}`,
      source_name: outlet,
      url: `https://context-${run}.example/${id}`,
      original_url: `https://context-${run}.example/${id}`,
      title,
      summary: paragraphs[0] ?? '',
      content: paragraphs.join('\n\n'),
      published_at: publishedAt,
      category,
    });

  const corpus = readCorpus();
  const corpusId = (id: string) => `art_ctx_${run}_${id.replace('/', '_')}`;
  const followUpId = (i: number) => `art_ctx_${run}_followup_${i}`;
  const enrichments = () => {
    const latest = new Map<string, ArticleEnriched>();
    for (const e of recorder.of<ArticleEnriched>(topicNames.articlesEnriched))
      if (e.value.article_id.startsWith(`art_ctx_${run}_`)) latest.set(e.value.article_id, e.value);
    return latest;
  };

  beforeAll(async () => {
    stack = await startApiStack('context');
    run = stack.run;
    recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.articlesEnriched]);
    await start(
      'enricher',
      { ENRICHER_GROUP: `context-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
      'partitions assigned',
    );
    await start(
      'clusterer',
      { CLUSTERER_GROUP: `context-clusterer-${run}`, CLUSTERER_FROM_BEGINNING: 'false' },
      'clustering (this member has the partitions)',
    );
    // The corpus first (BBC News, the last ten days), then the follow-ups once the corpus is in the read
    // model, so their contexts have it to cite.
    const articles = corpus.map((a, i) =>
      discovered(
        corpusId(a.id),
        'BBC News',
        a.title,
        a.paragraphs,
        now - (i + 24) * 2 * 3_600_000,
        a.category,
      ),
    );
    await stack.producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );
    await waitFor(() => enrichments().size >= corpus.length, 'the corpus enriched', 120_000);
    const shown = async () => {
      const list = await stack.call<ArticleList>(
        'GET',
        `/v1/articles?source=${articles[0]!.source_id}&limit=100`,
      );
      return list.body.articles.length;
    };
    await waitFor(async () => (await shown()) >= corpus.length, 'the corpus in the read model', 60_000);
    const later = followUps.map((f, i) =>
      discovered(followUpId(i), f.outlet, f.title, [f.text], now - 3_600_000, 'general'),
    );
    await stack.producer.send(
      topicNames.articlesDiscovered,
      later.map((a) => ({ key: a.article_id, value: a })),
    );
    await waitFor(
      () => enrichments().size >= corpus.length + followUps.length,
      'the follow-ups enriched',
      60_000,
    );
  }, 360_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await recorder?.stop();
    await stack?.close();
  }, 60_000);

  it('cites in every context only articles that share the story or a named entity', async () => {
    const all = enrichments();
    const entitiesOf = (id: string) => new Set(all.get(id)?.entities.map((e) => e.name) ?? []);
    let cited = 0;
    for (const [id, enrichment] of all) {
      for (const citedId of enrichment.context_article_ids) {
        cited += 1;
        const shared = [...entitiesOf(citedId)].filter((n) => entitiesOf(id).has(n));
        expect(shared.length, `${id} cites ${citedId} without a shared entity`).toBeGreaterThan(0);
      }
    }
    // The follow-ups find their background in the corpus.
    for (const [i, expected] of [
      [0, 'tech/003'],
      [1, 'politics/006'],
      [2, 'business/005'],
    ] as const) {
      expect(all.get(followUpId(i))!.context_article_ids, followUps[i]!.title).toContain(corpusId(expected));
    }
    expect(cited).toBeGreaterThan(3);
  });

  it('answers POST /v1/enhance with the story first and never a link through one common word', async () => {
    const spyware = corpusId('tech/003');
    const dome = corpusId('politics/006');
    for (const [article, other] of [
      [spyware, dome],
      [dome, spyware],
      [followUpId(0), dome],
      [followUpId(1), spyware],
    ] as const) {
      const answer = await stack.call<Enhanced>('POST', '/v1/enhance', {
        article_id: article,
        enhancements: ['context'],
      });
      expect(answer.status, answer.text).toBe(200);
      const ids = answer.body.context_articles!.map((a) => a.id);
      expect(ids, `${article} cites ${other}`).not.toContain(other);
    }
    // The Dome follow-up is in the story of its background or shares its names: either way it is cited.
    const dome1 = await stack.call<Enhanced>('POST', '/v1/enhance', {
      article_id: followUpId(1),
      enhancements: ['context'],
    });
    expect(dome1.body.context_articles!.map((a) => a.id)).toContain(dome);
  });
});
