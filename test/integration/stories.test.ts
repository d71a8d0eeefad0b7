// Stories end to end on the real stack: articles on Kafka -> the enricher process (embedded) -> the
// clusterer process -> news.stories.v1 -> the projector -> GET /v1/stories, /v1/stories/{id},
// story_id on the articles, ?story= and ?collapse=story. Then the clusterer is SIGKILLed and restarted:
// rebuilt from its topic, it puts a follow-up in the same story and decides no article twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoryEvent } from '../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import { readCorpus } from '../../services/demo/corpus.ts';
import type { components } from '../api-client/schema.d.ts';
import { discoveredArticle } from '../support/discovered-article.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import { startReadyService, type ServiceProcess } from './support/service-process.ts';
import { recordTopics, type TopicRecorder } from './support/topic-recorder.ts';
import { waitFor } from './support/wait.ts';

type ArticleList = components['schemas']['ArticleList'];
type StoryList = components['schemas']['StoryList'];
type StoryDetail = components['schemas']['StoryDetail'];
type ArticleDetail = components['schemas']['ArticleDetail'];

// One event as four outlets (and later a fifth) wrote it, and two unrelated stories of the same hours.
const grounding = [
  {
    outlet: 'Sydney Herald',
    title: 'Qantas grounds A380 fleet after engine blows apart over Indonesia',
    text: 'Qantas has grounded its six Airbus A380 superjumbos after one of the Rolls-Royce engines on flight QF32 blew apart shortly after take-off from Singapore. The plane landed safely and none of the 466 people on board was hurt. Chief executive Alan Joyce said the fleet would stay on the ground until the airline knew what caused the failure.',
  },
  {
    outlet: 'Business Daily',
    title: 'Rolls-Royce shares fall as Qantas A380 engine failure grounds superjumbos',
    text: 'Shares in Rolls-Royce fell sharply after Qantas grounded its Airbus A380 fleet following an engine failure on flight QF32 from Singapore. Alan Joyce, the Qantas chief executive, said the Rolls-Royce Trent 900 engine had suffered a significant failure. Analysts said the grounding could cost the engine maker dearly.',
  },
  {
    outlet: 'World Wire',
    title: 'Qantas A380 makes emergency landing in Singapore after engine failure',
    text: 'A Qantas Airbus A380 with 466 people on board made an emergency landing in Singapore after an engine failed over the Indonesian island of Batam. Debris from the Rolls-Royce engine fell on the island. Qantas later grounded its A380 fleet, chief executive Alan Joyce told reporters in Sydney.',
  },
  {
    outlet: 'Aviation Weekly',
    title: 'Investigators examine Trent 900 engine after Qantas QF32 failure',
    text: 'Australian investigators are examining the Rolls-Royce Trent 900 engine that failed on Qantas flight QF32 shortly after leaving Singapore. Qantas has kept its Airbus A380 fleet grounded while the inspection goes on, Alan Joyce said.',
  },
];
const unrelated = [
  {
    outlet: 'Sports Desk',
    title: 'Chelsea beat Arsenal to go top of the Premier League',
    text: 'Chelsea beat Arsenal 2-0 at Stamford Bridge to go top of the Premier League. Didier Drogba scored the first goal before half-time and Alex headed in the second. Arsene Wenger said his side had not done enough.',
  },
  {
    outlet: 'Money Times',
    title: 'Bank of England holds interest rates at record low',
    text: 'The Bank of England kept interest rates at 0.5% for another month. The Monetary Policy Committee voted to leave its quantitative easing programme unchanged, as inflation stayed above target. Mervyn King said the recovery remained fragile.',
  },
];
const followUp = {
  outlet: 'Evening Post',
  title: 'Qantas A380 fleet to stay grounded as Rolls-Royce engine checks continue',
  text: 'Qantas said its Airbus A380 fleet would stay grounded for at least another day while Rolls-Royce engineers check the Trent 900 engines, after the failure on flight QF32 from Singapore. Alan Joyce said safety came first.',
};

describe('stories', () => {
  let stack: ApiStack;
  let recorder: TopicRecorder;
  let run: string;
  let clusterer: ServiceProcess | undefined;
  const services: ServiceProcess[] = [];
  // The stack outlives a test run, and so does the clusterer's topic: an earlier run's articles (the same
  // texts) would be open stories these could join. Each run's articles are dated in a slot of their own,
  // days apart (further than the clusterer's window), so a run only ever meets its own stories.
  let now = Date.now();
  const sourceId = (outlet: string) => `src_${run}_${outlet.replace(/\W/g, '').toLowerCase()}`;
  const articleId = (i: number) => `art_story_${run}_${i}`;

  const start = (name: 'enricher' | 'clusterer', env: Record<string, string>, ready: string) =>
    startReadyService(name, { CLICKHOUSE_DATABASE: stack.database, ...env }, ready, services);
  const startClusterer = () =>
    start(
      'clusterer',
      { CLUSTERER_GROUP: `stories-clusterer-${run}`, CLUSTERER_FROM_BEGINNING: 'false' },
      'clustering (this member has the partitions)',
    );

  const article = (i: number, story: { outlet: string; title: string; text: string }, minutesAgo: number) =>
    discoveredArticle(articleId(i), now, {
      source_id: sourceId(story.outlet),
      source_name: story.outlet,
      guid: `${run}-${i}`,
      url: `https://stories-${run}.example/${i}`,
      original_url: `https://stories-${run}.example/${i}`,
      title: story.title,
      summary: story.text.split('. ')[0] + '.',
      content: story.text,
      published_at: now - minutesAgo * 60_000,
      category: 'business',
    });

  const storyOf = async (ids: string[]) => {
    const sources = [...grounding, ...unrelated, followUp].map((s) => sourceId(s.outlet)).join(',');
    const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${sources}&limit=100`);
    expect(list.status, list.text).toBe(200);
    return new Map(list.body.articles.filter((a) => ids.includes(a.id)).map((a) => [a.id, a.story_id]));
  };

  beforeAll(async () => {
    stack = await startApiStack('stories');
    run = stack.run;
    now -= (3 + (Number.parseInt(run.slice(0, 6), 16) % 600) * 3) * 86_400_000;
    recorder = await recordTopics(stack.kafka, stack.codec, [topicNames.stories]);
    await start(
      'enricher',
      { ENRICHER_GROUP: `stories-enricher-${run}`, ENRICHER_FROM_BEGINNING: 'false' },
      'partitions assigned',
    );
    clusterer = await startClusterer();
    // A clusterer that has seen a hundred articles knows which words are common: the BBC corpus, dated
    // a week before this run's slot (outside its window), so that the run does not depend on what earlier
    // test files left on a fresh stack. (A clusterer with no history compares with unsettled statistics:
    // docs/stories.md, "Limits".)
    const background = readCorpus().map((a, i) => ({
      ...article(
        100 + i,
        { outlet: 'BBC News', title: a.title, text: a.paragraphs.join(' ') },
        7 * 24 * 60 + i * 60,
      ),
      category: a.category,
    }));
    await stack.producer.send(
      topicNames.articlesDiscovered,
      background.map((a) => ({ key: a.article_id, value: a })),
    );
    const ids = new Set(background.map((a) => a.article_id));
    await waitFor(
      () =>
        recorder
          .of<StoryEvent>(topicNames.stories)
          .filter((e) => e.value.article_id && ids.has(e.value.article_id)).length >= ids.size,
      'the background clustered',
      120_000,
    );
  }, 300_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await recorder?.stop();
    await stack?.close();
  }, 60_000);

  it('puts one event from four outlets into one story, lists it with its sources, and collapses the list', async () => {
    const articles = [
      ...grounding.map((s, i) => article(i, s, 50 - i * 10)),
      ...unrelated.map((s, i) => article(10 + i, s, 45 - i * 10)),
    ];
    await stack.producer.send(
      topicNames.articlesDiscovered,
      articles.map((a) => ({ key: a.article_id, value: a })),
    );
    const ids = articles.map((a) => a.article_id);
    let stories = new Map<string, string | null>();
    await waitFor(
      async () => {
        stories = await storyOf(ids);
        return ids.every((id) => stories.get(id));
      },
      'every article to be in a story',
      90_000,
    );
    const story = stories.get(articleId(0))!;
    for (let i = 1; i < grounding.length; i += 1)
      expect(stories.get(articleId(i)), grounding[i]!.title).toBe(story);
    expect(stories.get(articleId(10))).not.toBe(story);
    expect(stories.get(articleId(11))).not.toBe(story);
    expect(stories.get(articleId(10))).not.toBe(stories.get(articleId(11)));

    const sources = grounding.map((s) => sourceId(s.outlet)).join(',');
    const listed = await stack.call<StoryList>('GET', `/v1/stories?source=${sources}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.stories.map((s) => s.id)).toEqual([story]);
    const [shown] = listed.body.stories;
    expect(shown).toMatchObject({
      article_count: 4,
      headline: grounding[0]!.title,
      lead_article_id: articleId(0),
      status: 'open',
    });
    expect(shown!.sources.map((s) => s.name).sort()).toEqual(grounding.map((s) => s.outlet).sort());
    expect(shown!.top_entities.map((e) => e.name)).toContain('Qantas');
    expect(Date.parse(shown!.first_seen)).toBeLessThan(Date.parse(shown!.last_seen));
    // Four outlets within 30 minutes of the first: breaking news, at the publication time of whichever
    // of the four reached the clusterer last (the enricher may finish them in any order).
    const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    expect(articles.slice(0, 4).map((a) => second(a.published_at))).toContain(shown!.breaking_at);
    const breaking = await stack.call<StoryList>(
      'GET',
      `/v1/stories?source=${[...grounding, ...unrelated].map((s) => sourceId(s.outlet)).join(',')}&breaking=true`,
    );
    expect(breaking.body.stories.map((s) => s.id)).toEqual([story]);
    const calm = await stack.call<StoryList>(
      'GET',
      `/v1/stories?source=${[...grounding, ...unrelated].map((s) => sourceId(s.outlet)).join(',')}&breaking=false`,
    );
    expect(calm.status, calm.text).toBe(200);
    expect(calm.body.stories.map((s) => s.id)).not.toContain(story);
    expect(calm.body.stories.length).toBeGreaterThan(0);

    const detail = await stack.call<StoryDetail>('GET', `/v1/stories/${story}?limit=10`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.articles.map((a) => a.id)).toEqual([3, 2, 1, 0].map(articleId));

    const allSources = [...grounding, ...unrelated].map((s) => sourceId(s.outlet)).join(',');
    const collapsed = await stack.call<ArticleList>(
      'GET',
      `/v1/articles?source=${allSources}&collapse=story`,
    );
    expect(collapsed.status, collapsed.text).toBe(200);
    expect(collapsed.body.articles.map((a) => a.id).sort()).toEqual(
      [articleId(3), articleId(10), articleId(11)].sort(),
    );
    // Collapsed pages of one never show a story twice.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof stack.call<ArticleList>>> = await stack.call<ArticleList>(
        'GET',
        `/v1/articles?source=${allSources}&collapse=story&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      walked.push(...page.body.articles.map((a) => a.story_id ?? a.id));
      cursor = page.body.paging.next_cursor;
    } while (cursor);
    expect(walked).toHaveLength(3);
    expect(new Set(walked).size).toBe(3);

    // Entity and sentiment filters: exactly the articles whose enrichment names the entity (any case)
    // or has the sentiment.
    const details = await Promise.all(
      [0, 1, 2, 3, 10, 11].map((i) => stack.call<ArticleDetail>('GET', `/v1/articles/${articleId(i)}`)),
    );
    const naming = details
      .filter((d) => d.body.enrichment?.entities.some((e) => e.name.toLowerCase() === 'qantas'))
      .map((d) => d.body.id);
    expect(naming.length).toBeGreaterThan(0);
    const byEntity = await stack.call<ArticleList>('GET', `/v1/articles?source=${allSources}&entity=QANTAS`);
    expect(byEntity.status, byEntity.text).toBe(200);
    expect(byEntity.body.articles.map((a) => a.id).sort()).toEqual(naming.sort());
    const football = await stack.call<ArticleList>(
      'GET',
      `/v1/articles?source=${allSources}&entity=Chelsea,Arsenal`,
    );
    expect(football.body.articles.map((a) => a.id)).toEqual([articleId(10)]);
    const label = details[0]!.body.enrichment!.sentiment!.label;
    const withLabel = details
      .filter((d) => d.body.enrichment?.sentiment?.label === label)
      .map((d) => d.body.id);
    const bySentiment = await stack.call<ArticleList>(
      'GET',
      `/v1/articles?source=${allSources}&sentiment=${label}`,
    );
    expect(bySentiment.body.articles.map((a) => a.id).sort()).toEqual(withLabel.sort());
    const badSentiment = await stack.call('GET', '/v1/articles?sentiment=angry');
    expect(badSentiment.status).toBe(400);
    expect(badSentiment.body.error.message).toMatch(/^sentiment: "angry" is not a sentiment/);

    const filtered = await stack.call<ArticleList>('GET', `/v1/articles?story=${story}`);
    expect(filtered.body.articles.map((a) => a.id).sort()).toEqual([0, 1, 2, 3].map(articleId).sort());
    const missing = await stack.call('GET', '/v1/stories/no-such-story');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('after a SIGKILL, a restarted clusterer puts a follow-up in the same story and decides no article twice', async () => {
    const story = (await storyOf([articleId(0)])).get(articleId(0))!;
    // A walk of the stories begun before the follow-up: filtered to one outlet of this story (its
    // article 50 minutes old), the Bank of England's (35) and the follow-up's, it lists the Bank's first.
    const walkSources = [grounding[0]!, unrelated[1]!, followUp].map((s) => sourceId(s.outlet)).join(',');
    const walk = (cursor?: string) =>
      stack.call<StoryList>(
        'GET',
        `/v1/stories?source=${walkSources}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
    const first = await walk();
    expect(first.status, first.text).toBe(200);
    expect(first.body.stories.map((s) => s.id)).toEqual([
      (await storyOf([articleId(11)])).get(articleId(11)),
    ]);
    expect(first.body.paging).toMatchObject({ has_more: true, next_offset: 1 });
    const cursor = first.body.paging.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    // The same walk through the articles, one per story: the Bank's first.
    const collapsedWalk = (cursor?: string) =>
      stack.call<ArticleList>(
        'GET',
        `/v1/articles?source=${walkSources}&collapse=story&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
    const collapsedFirst = await collapsedWalk();
    expect(collapsedFirst.body.articles.map((a) => a.id)).toEqual([articleId(11)]);
    const collapsedCursor = collapsedFirst.body.paging.next_cursor!;
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // discovered after the walk began

    clusterer!.child.kill('SIGKILL');
    await clusterer!.exited;
    const next = { ...article(20, followUp, 5), discovered_at: Date.now() };
    await stack.producer.send(topicNames.articlesDiscovered, [{ key: next.article_id, value: next }]);
    clusterer = await startClusterer();
    await waitFor(
      async () => Boolean((await storyOf([next.article_id])).get(next.article_id)),
      'the follow-up in a story',
      90_000,
    );
    expect((await storyOf([next.article_id])).get(next.article_id)).toBe(story);

    // The follow-up (5 minutes old) moves its story above the Bank's for a new walk. The walk begun
    // before it still ranks the story by its 50-minute-old article, so it comes next there, once,
    // where ranking it by the follow-up would have put it behind the walk's position, never listed.
    const fresh = await walk();
    expect(fresh.body.stories.map((s) => s.id)).toEqual([story]);
    const second = await walk(cursor);
    expect(second.status, second.text).toBe(200);
    expect(second.body.stories.map((s) => s.id)).toEqual([story]);
    expect(second.body.paging).toMatchObject({ has_more: false, next_offset: null, next_cursor: null });
    // So does the collapsed list: the story by its article of 50 minutes ago (represented by the
    // follow-up, above the walk's position, it had been left out), and the follow-up on a new walk.
    const collapsedSecond = await collapsedWalk(collapsedCursor);
    expect(collapsedSecond.status, collapsedSecond.text).toBe(200);
    expect(collapsedSecond.body.articles.map((a) => [a.id, a.story_id])).toEqual([[articleId(0), story]]);
    expect(collapsedSecond.body.paging).toMatchObject({ has_more: false, next_cursor: null });
    expect((await collapsedWalk()).body.articles.map((a) => a.id)).toEqual([next.article_id]);
    // An article cursor is not a story cursor.
    const stranger = await stack.call(
      'GET',
      `/v1/stories?cursor=${Buffer.from(JSON.stringify([1, 'art_x'])).toString('base64url')}`,
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toMatch(/cursor/);
    // The story's own articles page by cursor too.
    const detailWalk: string[] = [];
    let detailCursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof stack.call<StoryDetail>>> = await stack.call<StoryDetail>(
        'GET',
        `/v1/stories/${story}?limit=2${detailCursor ? `&cursor=${detailCursor}` : ''}`,
      );
      expect(page.status, page.text).toBe(200);
      detailWalk.push(...page.body.articles.map((a) => a.id));
      detailCursor = page.body.paging.next_cursor;
    } while (detailCursor);
    expect(detailWalk).toEqual([20, 3, 2, 1, 0].map(articleId));

    // Each article decided once: the background (100 on) was decided once as well, before all this.
    const expected = [0, 1, 2, 3, 10, 11, 20].map(articleId);
    const decided = recorder
      .of<StoryEvent>(topicNames.stories)
      .map((e) => e.value.article_id)
      .filter((id): id is string => id !== null && expected.includes(id));
    expect(decided.sort()).toEqual(expected.sort());
  }, 150_000);

  it("lists a merged story's articles under its old id, as GET /v1/stories/{id} answers with the story it went into", async () => {
    // Last: a rebuild leaves out a merge of a story the clusterer never made (restore.ts warns of it),
    // so the rebuild above must not see this one.
    const story = (await storyOf([articleId(0)])).get(articleId(0))!;
    const old = `merged-${stack.run}`;
    const merged: StoryEvent = {
      type: 'merged',
      story_id: old,
      article_id: null,
      source_id: null,
      language: null,
      category: null,
      article_at: Date.now(),
      similarity: null,
      terms: [],
      distinct_terms: [],
      merged_into: story,
      article_ids: [],
      occurred_at: Date.now(),
    };
    await stack.producer.send(topicNames.stories, [{ key: old, value: merged }]);
    const own = await stack.call<ArticleList>('GET', `/v1/articles?story=${story}&limit=100`);
    expect(own.body.articles.length).toBeGreaterThan(0);
    await waitFor(
      async () => (await stack.call<StoryDetail>('GET', `/v1/stories/${old}`)).status === 200,
      'the merge in the read model',
    );
    const byOld = await stack.call<ArticleList>('GET', `/v1/articles?story=${old}&limit=100`);
    expect(byOld.status, byOld.text).toBe(200);
    expect(byOld.body.articles.map((a) => a.id)).toEqual(own.body.articles.map((a) => a.id));
  });
});
