// The provider against a local server speaking OpenAI's chat-completions protocol: the wire
// protocol is the provider's boundary, so this is where its behaviour is pinned down.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openAiErrorBody,
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type ReceivedRequest,
} from '../../../test/support/chat-completions-server.ts';
import { createLogger } from '../../runtime/logger.ts';
import { EnrichmentRejectedError, type ArticleText, type RelatedArticle } from '../provider.ts';
import type { CompletionCache } from './completion-cache.ts';
import { loadOpenAiConfig } from '../../../test/support/openai-config.ts';
import { createMemoryCache } from './memory-cache.ts';
import { createOpenAiProvider } from './openai-provider.ts';
import { readingLevel } from './readability.ts';
import { OpenAiRequestError } from './request-errors.ts';

const apiKey = 'sk-test-provider-7c1e9a4b';

const article: ArticleText = {
  title: 'Harbour city opens its first tidal power station',
  text: Array.from(
    { length: 23 },
    (_, i) =>
      `The station's turbines turned for the ${i + 1}th time today as engineers watched the tide rise.`,
  ).join(' '),
  language: 'en',
};

const related: RelatedArticle[] = [
  {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    title: 'Council approves tidal power plan',
    source: 'Harbour Gazette',
    publishedAt: new Date('2024-03-01T08:00:00Z'),
    sharedTerms: ['tidal power', 'harbour council'],
    summary: 'The harbour council approved the tidal power plan after two years of debate.',
  },
  {
    id: 'a1b2c3d4-0000-4000-8000-000000000002',
    title: 'Fishermen worry about turbines',
    source: 'Coast News',
    publishedAt: new Date('2024-04-12T08:00:00Z'),
    sharedTerms: ['turbines'],
    summary: null,
  },
];

const validAnswer = {
  summary: 'The city opened a tidal power station.',
  context: 'The council approved the plan in March after long debate.',
  context_article_ids: [related[0]!.id],
  insights: ['Tidal power is predictable, unlike wind.'],
  sentiment: { label: 'positive', score: 0.6 },
  entities: [{ name: 'Harbour City', type: 'place', salience: 0.9, mentions: 3 }],
  keywords: ['tidal power', 'energy'],
  category: 'environment',
  language: 'en',
};

const answer = (changes: Record<string, unknown>) => ({
  content: JSON.stringify({ ...validAnswer, ...changes }),
});

let server: ChatCompletionsServer;
beforeEach(async () => {
  server = await startChatCompletionsServer({ apiKey });
});
afterEach(async () => {
  await server.close();
});

function setup(env: Record<string, string> = {}, cache: CompletionCache = createMemoryCache()) {
  const lines: string[] = [];
  const logger = createLogger('openai-test', 'debug', { write: (line: string) => void lines.push(line) });
  const config = loadOpenAiConfig({
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: apiKey,
    OPENAI_TIMEOUT_MS: '5000',
    OPENAI_MAX_RETRIES: '2',
    ...env,
  });
  return { provider: createOpenAiProvider({ config, cache, logger }), lines };
}

function userMessage(request: ReceivedRequest | undefined): string {
  const content = request?.body?.messages?.find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
}

describe('enrich', () => {
  it('asks for a strict JSON-schema answer with the article and related articles, and returns it', async () => {
    const { provider } = setup();
    server.plan({ content: JSON.stringify(validAnswer) });

    const result = await provider.enrich(article, { length: 'short', related });

    expect(result).toEqual({
      summary: validAnswer.summary,
      context: validAnswer.context,
      contextArticleIds: [related[0]!.id],
      insights: validAnswer.insights,
      sentiment: { label: 'positive', score: 0.6 },
      entities: validAnswer.entities,
      keywords: validAnswer.keywords,
      category: 'environment',
      language: 'en',
      readingTimeSeconds: 90, // 23 sentences x 15 words at 230 words a minute
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request.body?.model).toBe('gpt-4o-mini');
    expect(request.body?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'article_enrichment', strict: true },
    });
    const prompt = userMessage(request);
    expect(prompt).toContain(article.title);
    expect(prompt).toContain(article.text);
    for (const r of related) expect(prompt).toContain(r.id);
    expect(prompt).toContain('Harbour Gazette');
    expect(prompt).toContain('2024-03-01');
  });

  it('accepts the answer the default responder builds from the requested schema', async () => {
    const { provider } = setup();
    const result = await provider.enrich(article, { length: 'medium', related: [] });
    expect(result.summary).toBe('sample summary');
    expect(result.sentiment.score).toBe(0);
    expect(result.category).toBe('general');
  });

  it('drops cited ids that were not among the related articles handed in', async () => {
    const { provider } = setup();
    server.plan(answer({ context_article_ids: ['invented-id', related[1]!.id, related[1]!.id] }));
    const result = await provider.enrich(article, { length: 'short', related });
    expect(result.contextArticleIds).toEqual([related[1]!.id]);
    expect(result.context).toBe(validAnswer.context);
  });

  it('drops the context when none of its citations is valid', async () => {
    const { provider } = setup();
    server.plan(answer({ context_article_ids: ['invented-id'] }));
    const result = await provider.enrich(article, { length: 'short', related });
    expect(result.context).toBeNull();
    expect(result.contextArticleIds).toEqual([]);
  });

  it.each([
    ['not JSON', { content: 'Sure! Here is the summary: ...' }, /not JSON/],
    ['JSON of the wrong shape', { content: JSON.stringify({ summary: 'x', mood: 'good' }) }, /sentiment/],
    ['an out-of-range score', answer({ sentiment: { label: 'positive', score: 3 } }), /sentiment\.score/],
    ['an unknown category', answer({ category: 'astrology' }), /category/],
    ['an empty summary', answer({ summary: '  ' }), /summary/],
  ])('rejects %s, naming what was wrong, and caches nothing', async (_, reply, reason) => {
    const { provider } = setup();
    server.plan(reply);
    const error = await provider.enrich(article, { length: 'short', related }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnrichmentRejectedError);
    expect((error as Error).message).toMatch(reason);

    await provider.enrich(article, { length: 'short', related });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects a refusal and an answer cut off at the token limit', async () => {
    const { provider } = setup();
    server.plan(
      { refusal: 'I cannot help with that.' },
      { content: '{"summary": "The ci', finishReason: 'length' },
    );
    await expect(provider.enrich(article, { length: 'short', related })).rejects.toThrow(/refused/);
    await expect(provider.enrich(article, { length: 'short', related })).rejects.toThrow(/cut off/);
  });

  it('rejects an article without text before spending a request', async () => {
    const { provider } = setup();
    await expect(
      provider.enrich({ title: 'x', text: ' \n ' }, { length: 'short', related }),
    ).rejects.toBeInstanceOf(EnrichmentRejectedError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('cache', () => {
  it('asks once for the same text and options, again for another length or other related articles', async () => {
    const { provider } = setup();
    const first = await provider.enrich(article, { length: 'short', related });
    const again = await provider.enrich(article, { length: 'short', related });
    expect(again).toEqual(first);
    expect(server.requests).toHaveLength(1);

    await provider.enrich(article, { length: 'long', related });
    expect(server.requests).toHaveLength(2);
    await provider.enrich(article, { length: 'short', related: related.slice(0, 1) });
    expect(server.requests).toHaveLength(3);
  });

  it('goes on without the cache when the cache fails', async () => {
    const broken: CompletionCache = {
      get: () => Promise.reject(new Error('cache down')),
      set: () => Promise.reject(new Error('cache down')),
    };
    const { provider } = setup({}, broken);
    await expect(provider.enrich(article, { length: 'short', related })).resolves.toMatchObject({
      provider: 'openai',
    });
  });
});

describe('retries and timeouts', () => {
  it('retries a 429 and succeeds', async () => {
    const { provider } = setup();
    server.plan({
      status: 429,
      headers: { 'retry-after': '0' },
      body: openAiErrorBody('Rate limit reached for gpt-4o-mini', 'requests', 'rate_limit_exceeded'),
    });
    await expect(provider.enrich(article, { length: 'short', related })).resolves.toMatchObject({
      provider: 'openai',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as Retry-After says before retrying', async () => {
    const { provider } = setup();
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    await provider.enrich(article, { length: 'short', related });
    const [first, second] = server.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 and a dropped connection, and succeeds', async () => {
    const { provider } = setup();
    server.plan({ status: 500 }, { disconnect: true });
    await expect(provider.enrich(article, { length: 'short', related })).resolves.toMatchObject({
      provider: 'openai',
    });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after OPENAI_MAX_RETRIES with an error the enricher treats as transient', async () => {
    const { provider } = setup({ OPENAI_MAX_RETRIES: '2' });
    const failing = { status: 503, headers: { 'retry-after-ms': '0' } };
    server.plan(failing, failing, failing);
    const error = await provider.enrich(article, { length: 'short', related }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAiRequestError);
    expect(error).not.toBeInstanceOf(EnrichmentRejectedError);
    expect((error as OpenAiRequestError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('fails after about the timeout when the server does not answer', async () => {
    const { provider } = setup({ OPENAI_TIMEOUT_MS: '200', OPENAI_MAX_RETRIES: '0' });
    server.plan({ delayMs: 10_000 });
    const started = Date.now();
    const error = await provider.enrich(article, { length: 'short', related }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(OpenAiRequestError);
    expect((error as OpenAiRequestError).code).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('retries an attempt that timed out', async () => {
    const { provider } = setup({ OPENAI_TIMEOUT_MS: '200', OPENAI_MAX_RETRIES: '1' });
    server.plan({ delayMs: 10_000 });
    await expect(provider.enrich(article, { length: 'short', related })).resolves.toMatchObject({
      provider: 'openai',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the caller aborts', async () => {
    const { provider } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(
      provider.enrich(article, { length: 'short', related, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('input cap', () => {
  it('sends at most OPENAI_MAX_INPUT_CHARS of the text, cut at a sentence', async () => {
    const { provider } = setup({ OPENAI_MAX_INPUT_CHARS: '2000' });
    const long = { ...article, text: article.text.repeat(30) }; // ~60,000 characters
    await provider.enrich(long, { length: 'short', related: [] });

    const prompt = userMessage(server.requests[0]);
    const sent = /<article>\n([\s\S]*)\n<\/article>/.exec(prompt)?.[1] ?? '';
    expect(sent.length).toBeGreaterThan(1000);
    expect(sent.length).toBeLessThanOrEqual(2000);
    expect(sent).toMatch(/rise\.$/);
    expect(prompt).toMatch(/the rest was cut/);
    expect(server.requests[0]!.rawBody.length).toBeLessThan(10_000);
  });
});

describe('API key', () => {
  it('reports a refused key clearly, without the key or any part of it, and does not retry', async () => {
    const wrongKey = 'sk-wrong-key-5f3b9d21';
    const { provider } = setup({ OPENAI_API_KEY: wrongKey });
    const error = await provider.enrich(article, { length: 'short', related }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAiRequestError);
    expect((error as OpenAiRequestError).status).toBe(401);
    expect((error as Error).message).toMatch(/refused the API key.*OPENAI_API_KEY/);
    expect(String(error)).not.toContain(wrongKey);
    expect(String(error)).not.toContain('9d21');
    expect(JSON.stringify(error)).not.toContain(wrongKey);
    expect(server.requests).toHaveLength(1);
  });

  it('never appears in anything logged, on success, retry, rejection or refusal', async () => {
    const { provider, lines } = setup({ OPENAI_TIMEOUT_MS: '200', OPENAI_MAX_RETRIES: '1' });
    server.plan({ status: 429, headers: { 'retry-after': '0' } });
    await provider.enrich(article, { length: 'short', related });
    server.plan({ content: 'not json' });
    await provider.enrich(article, { length: 'long', related }).catch(() => undefined);
    server.plan({ delayMs: 5_000 }, { delayMs: 5_000 });
    await provider.summarize(article, { length: 'short', tone: 'casual' }).catch(() => undefined);
    const refused = setup({ OPENAI_API_KEY: 'sk-other-key-0a0a0a0a' });
    await refused.provider.enrich(article, { length: 'short', related }).catch(() => undefined);

    const logged = [...lines, ...refused.lines].join('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(logged).not.toContain(apiKey);
    expect(logged).not.toContain('sk-other-key-0a0a0a0a');
  });
});

describe('summarize', () => {
  it('asks for the tone and length and returns the summary', async () => {
    const { provider } = setup();
    server.plan({ content: JSON.stringify({ summary: 'A tidal station opened, folks!' }) });
    const result = await provider.summarize(article, { length: 'short', tone: 'casual' });
    expect(result).toEqual({ summary: 'A tidal station opened, folks!', tone: 'casual' });
    const system = String(server.requests[0]?.body?.messages?.[0]?.content);
    expect(system).toMatch(/casual/);
    expect(server.requests[0]?.body?.response_format?.json_schema?.name).toBe('article_summary');

    await provider.summarize(article, { length: 'short', tone: 'casual' });
    await provider.summarize(article, { length: 'short', tone: 'professional' });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects a summary of the wrong shape', async () => {
    const { provider } = setup();
    server.plan({ content: JSON.stringify({ text: 'no summary field' }) });
    await expect(provider.summarize(article, { length: 'short', tone: 'neutral' })).rejects.toThrow(
      /summary/,
    );
  });
});

describe('educate', () => {
  it('returns key terms and questions from the model and a reading level computed locally', async () => {
    const { provider } = setup();
    server.plan({
      content: JSON.stringify({
        key_terms: [
          { term: 'tidal power', explanation: 'Electricity made from the rise and fall of the sea.' },
        ],
        questions: ['Where was the station opened?'],
      }),
    });
    const result = await provider.educate(article, {});
    expect(result.keyTerms).toEqual([
      { term: 'tidal power', explanation: 'Electricity made from the rise and fall of the sea.' },
    ]);
    expect(result.questions).toEqual(['Where was the station opened?']);
    expect(result.readingLevel).toEqual(readingLevel(article.text));
  });

  it('rejects key terms without explanations', async () => {
    const { provider } = setup();
    server.plan({ content: JSON.stringify({ key_terms: [{ term: 'tidal power' }], questions: [] }) });
    await expect(provider.educate(article, {})).rejects.toThrow(/key_terms\.0\.explanation/);
  });
});
