// Intelligence on real components: feeds served locally -> a real poller process -> Kafka -> a real
// enricher process (embedded provider) -> news.articles.enriched.v1 -> the projector -> ClickHouse ->
// the API (ai_summary in lists, POST /v1/enhance with a context citing articles in the read model);
// POST /v1/analyze and POST /api/v1/summarize with their limits; and an enricher process on the
// OpenAI provider against a local chat-completions server (429 retried, malformed answer recorded
// as a failed enrichment and not stored); and the API on that provider, whose call to the model is
// cancelled when the request passes its deadline or its client leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicNames } from '../../services/runtime/kafka/topics.ts';
import type { components } from '../api-client/schema.d.ts';
import { startFeedServer, type FeedServer } from '../support/feed-server.ts';
import { startApiStack, type ApiStack } from './support/api-stack.ts';
import {
  answerFromRequestedSchema,
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../support/chat-completions-server.ts';
import { sampleArticle } from './support/kafka.ts';
import { startPoller, type PollerProcess } from './support/poller-process.ts';
import { startServiceProcess, type ServiceProcess } from './support/service-process.ts';
import { createTestClient } from './support/test-clients.ts';
import { waitFor } from './support/wait.ts';
import { withEnrichment } from './support/enriched.ts';
import { provisionalAiSummary } from '../../services/api/articles/provisional-summary.ts';

type ArticleList = components['schemas']['ArticleList'];
type ArticleDetail = components['schemas']['ArticleDetail'];
type Subscribed = components['schemas']['SourceSubscribed'];
type Enhancement = components['schemas']['Enhancement'];
type Analysis = components['schemas']['Analysis'];
type Summary = components['schemas']['Summary'];

/** A story on the same company as BBC business/001 ("Ad sales boost Time Warner profit"), from another source. */
const followUp = (run: string, base: string) => {
  const paragraphs = [
    'Time Warner said on Thursday that its AOL internet unit would cut 700 jobs as subscriber numbers keep falling.',
    'The media giant, which owns CNN and the Warner Bros film studio, reported quarterly profits of $1.13bn last week.',
    '"We have to make AOL leaner to compete with free services," chief executive Richard Parsons told analysts in New York.',
    'AOL lost 464,000 subscribers in the fourth quarter, and advertising sales now make up a growing share of its revenue.',
    'Analysts said the cuts would save Time Warner about $100m a year but would not fix the problem of falling subscriptions.',
    'Shares in Time Warner rose 1.2% in New York trading after the announcement.',
  ];
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Follow-ups ${run}</title>
<link>${base}/</link><language>en-gb</language>
<item><title>Time Warner to cut 700 AOL jobs (${run})</title><link>${base}/follow-up/${run}/1</link>
<guid isPermaLink="false">follow-up-${run}-1</guid><pubDate>${new Date().toUTCString()}</pubDate>
<description>${paragraphs.join(' ')}</description></item></channel></rss>`;
};

/** A wait that, when it times out, says what the enricher process printed last. */
async function watching<T>(process: ServiceProcess | undefined, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    throw new Error(`${(error as Error).message}\nenricher output:\n${process?.output() ?? '(none)'}`);
  }
}

describe('intelligence', () => {
  let stack: ApiStack;
  let server: FeedServer;
  let poller: PollerProcess | undefined;
  let enricher: ServiceProcess | undefined;
  let run: string;
  let storyId: string;
  let earlierIds: string[];

  beforeAll(async () => {
    stack = await startApiStack('intel');
    run = stack.run;
    server = await startFeedServer();
    enricher = startServiceProcess('enricher', {
      CLICKHOUSE_DATABASE: stack.database,
      ENRICHER_GROUP: `test-intel-enricher-${run}`,
      ENRICHER_FROM_BEGINNING: 'false',
      LOG_LEVEL: 'info',
    });
    await waitFor(() => enricher!.output().includes('partitions assigned'), 'the enricher to join', 60_000);
  }, 120_000);

  afterAll(async () => {
    poller?.child.kill('SIGKILL');
    await enricher?.stop();
    await server?.close();
    await stack?.close();
  }, 60_000);

  const subscribe = async (path: string, name: string) => {
    const added = await stack.call<Subscribed>('POST', '/v1/sources', {
      url: `${server.url}${path}`,
      name,
      category: 'business',
      country: 'gb',
    });
    expect(added.status, added.text).toBe(201);
    return added.body.source.id;
  };

  const enrichedArticles = async (sourceId: string) => {
    const list = await stack.call<ArticleList>('GET', `/v1/articles?source=${sourceId}&limit=100`);
    return withEnrichment(stack.clickhouse, list.body.articles);
  };

  it('enriches polled articles: ai_summary in lists, and a context citing earlier articles of another source', async () => {
    const earlierSource = await subscribe(
      '/corpus/business.rss?count=3&published=recent',
      `BBC business ${run}`,
    );
    poller = startPoller({
      POLLER_GROUP: `intel-test-poller-${run}`,
      REDIS_KEY_PREFIX: `test:${run}:`,
      OUTBOUND_ALLOW_LIST: '127.0.0.1',
    });
    const earlier = await watching(
      enricher,
      waitFor(
        async () =>
          (await enrichedArticles(earlierSource)).length === 3 ? enrichedArticles(earlierSource) : null,
        'the three BBC articles to be enriched',
        90_000,
      ),
    );
    earlierIds = earlier.map((a) => a.id);
    for (const a of earlier) expect(a.ai_summary.length).toBeGreaterThan(40);

    server.setMutable(followUp(run, server.url));
    const laterSource = await subscribe('/mutable.xml', `Follow-ups ${run}`);
    const [story] = await watching(
      enricher,
      waitFor(
        async () => {
          const found = await enrichedArticles(laterSource);
          return found.length > 0 ? found : null;
        },
        'the follow-up story to be enriched',
        90_000,
      ),
    );
    storyId = story!.id;
    expect(story!.ai_summary).toContain('Time Warner');

    const detail = await stack.call<ArticleDetail>('GET', `/v1/articles/${storyId}`);
    const enrichment = detail.body.enrichment!;
    expect(enrichment).toMatchObject({ provider: 'embedded', language: 'en' });
    expect(enrichment.entities.map((e) => e.name)).toContain('Time Warner');
    expect(['positive', 'neutral', 'negative', 'mixed']).toContain(enrichment.sentiment?.label);
    // The stream's context cites the BBC story on Time Warner, which is in the read model.
    expect(enrichment.context_article_ids.length).toBeGreaterThan(0);
    for (const id of enrichment.context_article_ids) expect(earlierIds).toContain(id);
    expect(enrichment.context).toContain('BBC business');
  }, 240_000);

  it('POST /v1/enhance returns summary, context and insights, the context citing articles in the read model', async () => {
    const answer = await stack.call<Enhancement>('POST', '/v1/enhance', {
      article_id: storyId,
      enhancements: ['summary', 'context', 'insights'],
      length: 'medium',
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.summary).toContain('Time Warner');
    expect(answer.body.insights!.length).toBeGreaterThan(0);
    const cited = answer.body.context_articles!;
    expect(cited.length).toBeGreaterThan(0);
    for (const article of cited) {
      expect(earlierIds).toContain(article.id);
      expect(answer.body.context).toContain(article.title);
      const inReadModel = await stack.call<ArticleDetail>('GET', `/v1/articles/${article.id}`);
      expect(inReadModel.status).toBe(200);
      expect(inReadModel.body.title).toBe(article.title);
    }

    const onlySummary = await stack.call<Enhancement>('POST', '/v1/enhance', {
      article_id: storyId,
      enhancements: ['summary'],
      length: 'short',
    });
    expect(Object.keys(onlySummary.body).sort()).toEqual([
      'article_id',
      'length',
      'model',
      'provider',
      'summary',
    ]);
    expect(onlySummary.body.summary!.length).toBeLessThan(answer.body.summary!.length);

    // What the enrichment also finds, on request only: the three above are the default.
    const analysed = await stack.call<Enhancement>('POST', '/v1/enhance', {
      article_id: storyId,
      // in any case, as the API's every enumeration
      enhancements: ['Sentiment', 'ENTITIES', 'keywords'],
    });
    expect(analysed.status, analysed.text).toBe(200);
    expect(Object.keys(analysed.body).sort()).toEqual([
      'article_id',
      'entities',
      'keywords',
      'length',
      'model',
      'provider',
      'sentiment',
    ]);
    expect(['positive', 'neutral', 'negative', 'mixed']).toContain(analysed.body.sentiment!.label);
    expect(analysed.body.entities!.map((e) => e.name)).toContain('Time Warner');
    expect(analysed.body.keywords!.length).toBeGreaterThan(0);
    expect(Object.keys(answer.body)).not.toContain('sentiment');

    const unknown = await stack.call('POST', '/v1/enhance', { article_id: 'no-such-article' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const badKind = await stack.call('POST', '/v1/enhance', {
      article_id: storyId,
      enhancements: ['poetry'],
    });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.message).toMatch(/^enhancements\.0: must be one of summary, context, /);
  });

  it('POST /v1/analyze answers every part, or only those analysis_type asks for', async () => {
    const text = (await stack.call<ArticleDetail>('GET', `/v1/articles/${storyId}`)).body.content;
    const full = await stack.call<Analysis>('POST', '/v1/analyze', { text, context_level: 'deep' });
    expect(full.status, full.text).toBe(200);
    expect(full.body).toMatchObject({
      analysis_type: 'full',
      context_level: 'deep',
      language: 'en',
    });
    expect(full.body.summary).toContain('Time Warner');
    expect(full.body.insights!.length).toBeGreaterThan(0);
    expect(full.body.sentiment!.score).toBeGreaterThanOrEqual(-1);
    expect(full.body.entities!.map((e) => e.name)).toContain('Time Warner');
    expect(full.body.educational!.key_terms.length).toBeGreaterThan(0);
    expect(full.body.educational!.questions.length).toBeGreaterThan(0);
    expect(full.body.educational!.reading_level!.grade).toBeGreaterThan(0);
    // Posted text is not in the read model, so every article its context cites is.
    const cited = full.body.context_articles!.map((a) => a.id);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(earlierIds).toContain(id);
    // The article whose text was posted is in the read model, and is not its own context.
    expect(cited).not.toContain(storyId);

    // HTML copied from a page: its markup and script are no text, and the answer echoes none of them.
    const html = await stack.call<Analysis>('POST', '/v1/analyze', {
      text: `<script>alert('evil error')</script><p>${text.split('\n\n').join('</p><p>')}</p><img src=x onerror=alert(1)>`,
      context_level: 'deep',
    });
    expect(html.status, html.text).toBe(200);
    expect(html.body.summary).toBe(full.body.summary);
    expect(html.body.sentiment).toEqual(full.body.sentiment);
    expect(JSON.stringify(html.body)).not.toMatch(/<script|onerror|evil/);

    // Nothing in the read model names what this text names: the context is still a string (as the
    // interface types it) that says so, and cites nothing.
    const unrelated = await stack.call<Analysis>('POST', '/v1/analyze', {
      text: 'Quintaro Velsh, mayor of Brindlemarsh, opened the Ostravel Lantern Fair on Saturday. Stalls sold lanterns.',
      analysis_type: 'insights',
    });
    expect(unrelated.status, unrelated.text).toBe(200);
    expect(unrelated.body.context).toMatch(/^No related coverage: /);
    expect(unrelated.body.context_articles).toEqual([]);
    // A text that names one organisation, and nothing else the read model holds: the articles naming it
    // are its context (there is no second name to share).
    const lone = await stack.call<Analysis>('POST', '/v1/analyze', {
      text: 'Time Warner announced a new plan on Monday.',
      analysis_type: 'summary',
    });
    expect(lone.status, lone.text).toBe(200);
    expect(lone.body.context_articles!.length, lone.body.context).toBeGreaterThan(0);
    for (const article of lone.body.context_articles!) expect(article.shared_terms).toContain('Time Warner');

    const sentiment = await stack.call<Analysis>('POST', '/v1/analyze', { text, analysis_type: 'sentiment' });
    expect(Object.keys(sentiment.body).sort()).toEqual(
      ['analysis_type', 'context_level', 'entities', 'keywords', 'model', 'provider', 'sentiment'].sort(),
    );
    // A word clients guess for a level is read as it, and the answer echoes the level itself.
    const guessed = await stack.call<Analysis>('POST', '/v1/analyze', {
      text,
      analysis_type: 'Sentiment',
      context_level: 'detailed',
    });
    expect(guessed.status, guessed.text).toBe(200);
    expect([guessed.body.analysis_type, guessed.body.context_level]).toEqual(['sentiment', 'deep']);
    const unknownLevel = await stack.call('POST', '/v1/analyze', { text, context_level: 'extreme' });
    expect(unknownLevel.status).toBe(400);
    expect(unknownLevel.body.error.message).toMatch(
      /^context_level: must be one of brief, standard, deep \(or low, .*high, detailed, long\)$/,
    );
  });

  it('POST /v1/analyze reads a short text in the language the caller names, or its function words tell', async () => {
    // Under 120 characters: too short to detect, so without `language` it is read as English, unless its
    // function words plainly say otherwise.
    const german = await stack.call<Analysis>('POST', '/v1/analyze', {
      text: 'Das ist eine gute Nachricht für die Bürger und die Familien.',
    });
    expect(german.status, german.text).toBe(200);
    expect(german.body.language).toBe('de');
    expect(german.body.sentiment?.score ?? 0).toBeGreaterThanOrEqual(0); // "die" is no English verb here
    const text = 'Muertos y heridos tras el terremoto; crisis empeora.';
    const named = await stack.call<Analysis>('POST', '/v1/analyze', { text, language: 'es-ES' });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ language: 'es', sentiment: { label: 'negative' } });
    const unnamed = await stack.call<Analysis>('POST', '/v1/analyze', { text });
    expect(unnamed.body.language).toBeNull();
    for (const language of ['xx', 'spanish', '']) {
      const refused = await stack.call('POST', '/v1/analyze', { text, language });
      expect(refused.status, language).toBe(400);
      expect(refused.body.error.message).toMatch(/^language: /);
    }
  });

  it('POST /api/v1/summarize applies the tone', async () => {
    const content =
      "The company said it does not expect sales to recover this year. It is cutting costs. Investors weren't impressed.";
    const casual = await stack.call<Summary>('POST', '/api/v1/summarize', {
      content,
      tone: 'casual',
      length: 'long',
    });
    expect(casual.status, casual.text).toBe(200);
    expect(casual.body).toMatchObject({ tone: 'casual', audio_url: null, provider: 'embedded' });
    expect(casual.body.summary).toContain("doesn't");
    const professional = await stack.call<Summary>('POST', '/api/v1/summarize', {
      content,
      tone: 'professional',
      length: 'long',
    });
    expect(professional.body.summary).not.toContain("n't");
    const executive = await stack.call<Summary>('POST', '/api/v1/summarize', { content, tone: 'executive' });
    expect(executive.body.summary.split('\n').every((line) => line.startsWith('- '))).toBe(true);
  });

  it('answers other requests while a 100,000-character text is analysed', async () => {
    // The analysis takes a second or more; on the event loop, nothing else would be answered meanwhile.
    const sentences = Array.from(
      { length: 800 },
      (_, i) =>
        `Report ${i}: the Northbridge council approved budget item ${i} after a long debate on Tuesday.`,
    );
    const text = sentences.join(' ').slice(0, 100_000);
    let answeredMeanwhile = 0;
    let analysing = true;
    const analysis = stack
      .call<Analysis>('POST', '/v1/analyze', { text, analysis_type: 'educational' })
      .finally(() => (analysing = false));
    while (analysing) {
      const list = await stack.call('GET', '/v1/articles?limit=1');
      expect(list.status).toBe(200);
      if (analysing) answeredMeanwhile++;
    }
    const answer = await analysis;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.educational?.key_terms.length).toBeGreaterThan(0);
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(5);
  });

  it('refuses text over the documented maximum and empty text with 400, and callers without use:ai with 403', async () => {
    const tooLong = 'word '.repeat(20_001);
    for (const [path, field] of [
      ['/v1/analyze', 'text'],
      ['/api/v1/summarize', 'content'],
    ] as const) {
      const big = await stack.call(`POST`, path, { [field]: tooLong });
      expect(big.status, big.text).toBe(400);
      expect(big.body.error).toMatchObject({ code: 'invalid_parameter' });
      expect(big.body.error.message).toBe(`${field}: is 100,005 characters; the limit is 100,000`);
      // characters, as the OpenAPI maxLength counts them: an emoji is one, not two UTF-16 units
      const emoji = await stack.call(`POST`, path, { [field]: `Markets rose today. ${'😀'.repeat(50_000)}` });
      expect(emoji.status, emoji.text).toBe(200);
      const tooManyEmoji = await stack.call(`POST`, path, { [field]: '😀'.repeat(100_001) });
      expect(tooManyEmoji.body.error.message).toBe(`${field}: is 100,001 characters; the limit is 100,000`);
      const empty = await stack.call('POST', path, { [field]: '  \n ' });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toMatch(new RegExp(`^${field}: must not be empty`));
    }
    const badType = await stack.call('POST', '/v1/analyze', { text: 'Some text.', analysis_type: 'vibes' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.message).toMatch(/^analysis_type: must be one of/);

    const reader = await createTestClient(stack, { name: `Reader ${run}`, scopes: ['read:feeds'] });
    // The API learns of a new client from its topic within moments: until then the key is unknown (401).
    const refused = await waitFor(async () => {
      const answer = await stack.call(
        'POST',
        '/api/v1/summarize',
        { content: 'Text.' },
        { apiKey: reader.apiKey },
      );
      return answer.status === 401 ? null : answer;
    }, 'the API to know the new client');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('use:ai');
  });
});

describe('enricher on the OpenAI provider (local chat-completions server)', () => {
  let stack: ApiStack;
  let openai: ChatCompletionsServer;
  let enricher: ServiceProcess | undefined;
  let run: string;
  const refusedOnce = new Set<string>();

  beforeAll(async () => {
    stack = await startApiStack('intel_openai');
    run = stack.run;
    openai = await startChatCompletionsServer({
      respond: (request) => {
        const prompt = JSON.stringify(request.body?.messages ?? []);
        if (prompt.includes(`malformed-${run}`)) return { content: '{"summary": "no closing brace"' };
        // The first request for this article is turned away with a 429; the retry gets a valid answer.
        if (prompt.includes(`busy-${run}`) && !refusedOnce.has('busy')) {
          refusedOnce.add('busy');
          return {
            status: 429,
            headers: { 'retry-after': '0' },
            body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
          };
        }
        return answerFromRequestedSchema(request);
      },
    });
    enricher = startServiceProcess('enricher', {
      CLICKHOUSE_DATABASE: stack.database,
      ENRICHER_GROUP: `test-intel-openai-${run}`,
      ENRICHER_FROM_BEGINNING: 'false',
      ENRICHMENT_PROVIDER: 'openai',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_MODEL: 'local-test-model',
      REDIS_KEY_PREFIX: `test:${run}:`,
      LOG_LEVEL: 'info',
    });
    await waitFor(() => enricher!.output().includes('partitions assigned'), 'the enricher to join', 60_000);
    // It reads from the end of the topic as its first fetch finds it, which on a busy machine can come
    // after the join is logged: an article sent before that fetch is never read. So articles are sent
    // until one reaches the provider, and the test starts once the enricher reads what is sent.
    let probes = 0;
    await waitFor(
      async () => {
        const id = `probe-${run}-${probes++}`;
        const probe = sampleArticle(100 + probes, {
          article_id: id,
          title: `Probe ${id}`,
          content: `Report ${id}. Acme Corp said profits rose 12% in the third quarter.`,
        });
        await stack.producer.send(topicNames.articlesDiscovered, [{ key: probe.article_id, value: probe }]);
        const deadline = Date.now() + 3_000;
        while (Date.now() < deadline) {
          if (openai.requests.some((r) => r.rawBody.includes(`probe-${run}-`))) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      },
      'the enricher to read what is sent',
      60_000,
    );
    openai.requests.length = 0;
  }, 120_000);

  afterAll(async () => {
    await enricher?.stop();
    await openai?.close();
    await stack?.close();
  }, 60_000);

  it('stores valid enrichments, retries a 429, and records a malformed answer as a failed enrichment', async () => {
    const text = (tag: string) =>
      `Report ${tag}. Acme Corp said profits rose 12% in the third quarter. The company plans to hire 300 people.`;
    const busy = sampleArticle(1, {
      article_id: `busy-${run}`,
      title: `Busy ${run}`,
      content: text(`busy-${run}`),
    });
    const malformed = sampleArticle(2, {
      article_id: `malformed-${run}`,
      title: `Malformed ${run}`,
      content: text(`malformed-${run}`),
    });
    await stack.producer.send(topicNames.articlesDiscovered, [
      { key: busy.article_id, value: busy },
      { key: malformed.article_id, value: malformed },
    ]);

    const detail = await watching(
      enricher,
      waitFor(
        async () => {
          const d = await stack.call<ArticleDetail>('GET', `/v1/articles/${busy.article_id}`);
          return d.body?.enrichment ? d.body : null;
        },
        'the OpenAI enrichment to reach the read model',
        60_000,
      ),
    );
    expect(detail.enrichment).toMatchObject({ provider: 'openai', model: 'local-test-model' });
    expect(detail.ai_summary).toBeTruthy();
    const busyRequests = openai.requests.filter((r) => r.rawBody.includes(`busy-${run}`));
    expect(busyRequests.length).toBe(2); // the 429, then the retry
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${openai.apiKey}`);

    // Recorded: the failed enrichment event reached the read model (the projector wrote its row).
    const [recorded] = await waitFor(
      async () => {
        const rows = await stack.clickhouse.query<{
          status: string;
          failure_reason: string;
          provider: string;
        }>(
          `SELECT status, failure_reason, provider FROM article_enrichments WHERE article_id = '${malformed.article_id}'`,
        );
        return rows.length > 0 ? rows : null;
      },
      'the failed enrichment event',
      60_000,
    );
    expect(recorded).toMatchObject({ status: 'failed', provider: 'openai' });
    expect(recorded!.failure_reason).toMatch(/JSON/i);
    // Failed, so not stored as an enrichment: the article has none, and its ai_summary is the provisional one.
    const failedDetail = await stack.call<ArticleDetail>('GET', `/v1/articles/${malformed.article_id}`);
    expect(failedDetail.status).toBe(200);
    expect(failedDetail.body.enrichment).toBeNull();
    expect(failedDetail.body.ai_summary).toBe(
      provisionalAiSummary(failedDetail.body.title, failedDetail.body.summary),
    );
    // Rejected right away: the malformed answer was asked for once, not retried.
    expect(openai.requests.filter((r) => r.rawBody.includes(`malformed-${run}`))).toHaveLength(1);
  }, 120_000);
});

describe('the API on the OpenAI provider (local chat-completions server)', () => {
  let stack: ApiStack;
  let openai: ChatCompletionsServer;
  /** The API's deadline: long enough for a quick answer on a busy machine, short for the test. */
  const deadlineMs = 6_000;
  /** A slow model: far longer than the deadline, so that only a cancelled call ends before it. */
  const slowMs = 60_000;

  beforeAll(async () => {
    openai = await startChatCompletionsServer({
      respond: (request) => {
        const answer = answerFromRequestedSchema(request);
        return JSON.stringify(request.body?.messages ?? []).includes('[slow]')
          ? { ...answer, delayMs: slowMs }
          : answer;
      },
    });
    stack = await startApiStack('intel_api_openai', {
      ENRICHMENT_PROVIDER: 'openai',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_MODEL: 'local-test-model',
      API_REQUEST_DEADLINE_MS: String(deadlineMs),
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await openai?.close();
  }, 60_000);

  /** The model's requests for a text (its words are in the prompt). */
  const requestsFor = (marker: string) => openai.requests.filter((r) => r.rawBody.includes(marker));

  it('answers POST /api/v1/summarize through the provider', async () => {
    const marker = `quick-${stack.run}`;
    const answer = await stack.call<Summary>('POST', '/api/v1/summarize', {
      content: `Acme Corp (${marker}) said profits rose 12% in the third quarter.`,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'openai', model: 'local-test-model' });
    expect(requestsFor(marker)).toHaveLength(1);
    expect(requestsFor(marker)[0]!.abandonedAt).toBeUndefined();
  });

  it('cancels the call to the model at the deadline, and answers 503 deadline_exceeded', async () => {
    const marker = `late-${stack.run}`;
    const started = Date.now();
    const answer = await stack.call('POST', '/api/v1/summarize', {
      content: `[slow] Acme Corp (${marker}) said profits rose 12% in the third quarter.`,
    });
    expect(answer.status, answer.text).toBe(503);
    expect(answer.body.error.code).toBe('deadline_exceeded');
    expect(Date.now() - started).toBeLessThan(slowMs / 2);
    // The model's request was given up (its connection closed) around the deadline, not left waiting for
    // its answer, and not tried again.
    const [call] = await waitFor(
      () => (requestsFor(marker)[0]?.abandonedAt === undefined ? null : requestsFor(marker)),
      'the call to the model to be cancelled',
      slowMs / 2,
    );
    expect(call!.abandonedAt! - call!.receivedAt).toBeLessThan(deadlineMs + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(requestsFor(marker)).toHaveLength(1);
  }, 60_000);

  it('cancels the call to the model when the client leaves, before the deadline', async () => {
    const marker = `left-${stack.run}`;
    const client = new AbortController();
    // (Having aborted it, undici opens a new connection that carries nothing: the API's close must not wait
    // for it, services/runtime/unrequested-connections.ts.)
    const request = fetch(`${stack.api.url}/api/v1/summarize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.client.apiKey}` },
      body: JSON.stringify({
        content: `[slow] Acme Corp (${marker}) said profits rose 12% in the third quarter.`,
      }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => requestsFor(marker).length > 0, 'the call to reach the model', 30_000);
    const left = Date.now();
    client.abort();
    expect(await request).toMatchObject({ name: 'AbortError' });
    const [call] = await waitFor(
      () => (requestsFor(marker)[0]?.abandonedAt === undefined ? null : requestsFor(marker)),
      'the call to the model to be cancelled',
      slowMs / 2,
    );
    // Well before the API's own deadline would have stopped it.
    expect(call!.abandonedAt! - left).toBeLessThan(deadlineMs / 2);
    expect(requestsFor(marker)).toHaveLength(1);
  }, 60_000);
});
