import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Alert, ArticleEnriched, Monitor } from '../runtime/events/types.generated.ts';
import type { ConsumedEvent } from '../runtime/kafka/consumer.ts';
import { DependencyUnavailableError } from '../runtime/kafka/errors.ts';
import { succeededEnrichment } from '../intelligence/enrichment-event.ts';
import { MonitorSet, type ArticleFacts } from '../monitors/alert-raiser.ts';
import { matcherHandler, type MatcherOptions } from './matcher.ts';

const monitor: Monitor = {
  monitor_id: 'm1',
  tenant_id: 't1',
  contact_id: 'c1',
  company: 'Globex',
  aliases: [],
  alert_webhook: 'https://crm.example/hooks',
  active: true,
  created_at: 0,
  version: 1,
  occurred_at: 0,
};

const enrichedAt = 1_000_000;

const enrichment = (named: boolean): ArticleEnriched =>
  succeededEnrichment(
    named
      ? { article_id: 'a1', url: 'https://news.example/globex', title: 'Globex opens a plant', revision: 1 }
      : 'a1',
    {
      summary: 'Globex opens a plant in Ohio.',
      context: null,
      contextArticleIds: [],
      insights: [],
      sentiment: { label: 'positive', score: 0.5 },
      entities: [{ name: 'Globex', type: 'organization', salience: 0.9, mentions: 2 }],
      keywords: [],
      category: 'business',
      language: 'en',
      readingTimeSeconds: 20,
      provider: 'embedded',
      model: 'embedded-1',
    },
    enrichedAt,
  );

const inReadModel: ArticleFacts = {
  articleId: 'a1',
  title: 'Globex opens a plant',
  url: 'https://news.example/globex',
  summary: 'Globex opens a plant.',
  content: 'Globex opened a plant in Ohio on Monday.',
  narrated: true,
  audioUrl: null,
  audioKey: null,
  sourceId: 's1',
  sourceName: 'Example News',
  publisher: null,
  publishedAt: 0,
  discoveredAt: 0,
  category: 'business',
  language: 'en',
  revision: 1,
};

const consumed = (value: ArticleEnriched): ConsumedEvent<ArticleEnriched> => ({
  topic: 'news.articles.enriched.v1',
  partition: 0,
  offset: '0',
  key: value.article_id,
  value,
  headers: {},
  timestamp: '0',
});

/** A matcher over a read model that answers with `answers` in turn (an Error: the read fails). */
function matcher(
  answers: (ArticleFacts | undefined | Error)[],
  clock: { now: number },
  claims?: MatcherOptions['claims'],
  maxAgeMs = 0,
) {
  const sent: Alert[] = [];
  const options: MatcherOptions = {
    readArticles: async () => {
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return new Map(answer ? [[answer.articleId, answer]] : []);
    },
    producer: {
      send: async (_topic, messages) => {
        sent.push(...messages.map((m) => m.value as Alert));
      },
    },
    monitors: new MonitorSet(() => [monitor]),
    logger: pino({ level: 'silent' }),
    articleWaitMs: 60_000,
    narrationWaitMs: 0,
    maxAgeMs,
    clock: () => clock.now,
    ...(claims ? { claims } : {}),
  };
  const handle = matcherHandler(options);
  return { sent, run: (e: ArticleEnriched) => handle([consumed(e)], { heartbeat: async () => {} }) };
}

describe('matcherHandler', () => {
  it('alerts a monitor once for an article edited after it alerted, with the claim naming the revision', async () => {
    const held = new Map<string, { articleId: string; revision: number }>();
    const claims: NonNullable<MatcherOptions['claims']> = {
      holders: async (batch) =>
        batch.map((c) => {
          const key = `${c.monitorId} ${c.url}`;
          if (!held.has(key)) held.set(key, { articleId: c.articleId, revision: c.revision });
          return held.get(key)!;
        }),
    };
    const clock = { now: enrichedAt + 1_000 };
    const edited = { ...inReadModel, title: 'Globex opens a plant in Ohio', revision: 2 };
    const { sent, run } = matcher([inReadModel, edited, inReadModel], clock, claims);
    await run(enrichment(true));
    expect(sent).toHaveLength(1);
    await run({ ...enrichment(true), revision: 2 });
    expect(sent).toHaveLength(1); // the edit matched again and raised nothing
    await run(enrichment(true)); // revision 1 replayed: its alert again, under the same id
    expect(sent.map((a) => a.alert_id)).toEqual([sent[0]!.alert_id, sent[0]!.alert_id]);
  });

  it('raises the alert from the read model when it shows the article', async () => {
    const clock = { now: enrichedAt + 1_000 };
    const { sent, run } = matcher([inReadModel], clock);
    await run(enrichment(true));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      article_url: 'https://news.example/globex',
      article_title: 'Globex opens a plant',
      article_source_name: 'Example News',
    });
  });

  it('raises no alert for an article published long before it was found, and says when one was published', async () => {
    const week = 7 * 86_400_000;
    const clock = { now: enrichedAt + 1_000 };
    const found = Date.UTC(2026, 11, 1);
    const archive = { ...inReadModel, publishedAt: Date.UTC(2005, 2, 1), discoveredAt: found };
    const lastWeek = { ...inReadModel, publishedAt: found - week + 60_000, discoveredAt: found };
    const { sent, run } = matcher([archive, lastWeek], clock, undefined, week);
    await run(enrichment(true));
    expect(sent).toEqual([]);
    // Found within the week, it alerts, however long ago that was (an outage, a replay).
    clock.now = found + 30 * 86_400_000;
    await run(enrichment(true));
    expect(sent.map((a) => a.article_published_at)).toEqual([lastWeek.publishedAt]);
    // Without a limit, the archive alerts too.
    const unlimited = matcher([archive], clock);
    await unlimited.run(enrichment(true));
    expect(unlimited.sent.map((a) => a.article_published_at)).toEqual([archive.publishedAt]);
  });

  it('waits for an article the read model does not show yet, then matches the enrichment, which names it', async () => {
    const clock = { now: enrichedAt + 1_000 };
    const { sent, run } = matcher([undefined, undefined], clock);
    await expect(run(enrichment(true))).rejects.toBeInstanceOf(DependencyUnavailableError);
    clock.now = enrichedAt + 60_000;
    await run(enrichment(true));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      article_id: 'a1',
      article_url: 'https://news.example/globex',
      article_title: 'Globex opens a plant',
      article_source_name: null,
      article_published_at: null,
    });
  });

  it('counts the wait from the end of a read-model outage, not from the enrichment', async () => {
    const clock = { now: enrichedAt + 1_000 };
    const down = new Error('connect ECONNREFUSED 127.0.0.1:8123');
    const { sent, run } = matcher([down, down, undefined, undefined, inReadModel], clock);
    await expect(run(enrichment(true))).rejects.toBe(down);
    clock.now = enrichedAt + 79_000;
    await expect(run(enrichment(true))).rejects.toBe(down);
    // ClickHouse is back 80 s after the enrichment (20 s past its wait), and the projector has not written
    // the article yet: the matcher still waits for it, up to a wait after the last failed read.
    clock.now = enrichedAt + 80_000;
    await expect(run(enrichment(true))).rejects.toBeInstanceOf(DependencyUnavailableError);
    clock.now = enrichedAt + 138_000;
    await expect(run(enrichment(true))).rejects.toBeInstanceOf(DependencyUnavailableError);
    clock.now = enrichedAt + 139_000;
    await run(enrichment(true));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ article_source_name: 'Example News' });
  });

  it('gives up on the read model a wait after the outage ended', async () => {
    const clock = { now: enrichedAt + 1_000 };
    const { sent, run } = matcher([new Error('timeout'), undefined], clock);
    await expect(run(enrichment(true))).rejects.toThrow('timeout');
    clock.now = enrichedAt + 1_000 + 60_000;
    await run(enrichment(true));
    expect(sent.map((a) => a.article_url)).toEqual(['https://news.example/globex']);
  });

  it('matches an enrichment written before enrichments named their article with what it has', async () => {
    const clock = { now: enrichedAt + 60_000 };
    const { sent, run } = matcher([undefined], clock);
    await run(enrichment(false));
    expect(sent.map((a) => [a.article_id, a.article_url, a.article_title])).toEqual([['a1', '', '']]);
  });
});
