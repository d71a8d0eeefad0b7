// The enrichment provider backed by OpenAI or any server speaking its chat-completions protocol.
// One request per operation, with a strict JSON schema for the answer; the answer is validated
// before anything uses or caches it. Retries with backoff (429, 5xx, connection failures,
// timeouts, Retry-After honoured) are the SDK's own; this module adds the cache, the input cap
// and the translation of failures into what the enricher needs to know.
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { createLogger, type Logger } from '../../runtime/logger.ts';
import {
  EnrichmentRejectedError,
  type ArticleText,
  type Education,
  type EnrichOptions,
  type Enrichment,
  type EnrichmentProvider,
  type SummarizeOptions,
  type SummaryTone,
} from '../provider.ts';
import { answerFormats, checkAnswer, educationAnswer, enrichmentAnswer, summaryAnswer } from './answers.ts';
import { capText, type CappedText } from './capped-text.ts';
import { completionCacheKey, type CompletionCache, type CompletionQuestion } from './completion-cache.ts';
import type { OpenAiConfig } from './config.ts';
import {
  educateMessages,
  enrichMessages,
  maxRelatedInPrompt,
  promptVersion,
  summarizeMessages,
} from './prompts.ts';
import { readingLevel, readingTimeSeconds } from './readability.ts';
import { describeServer, translateFailure } from './request-errors.ts';

export interface OpenAiProviderDeps {
  config: OpenAiConfig;
  /** A client built elsewhere; by default one is built from config. */
  client?: OpenAI;
  cache: CompletionCache;
  logger?: Logger;
  clock?: () => number;
}

type Operation = CompletionQuestion['operation'];

const maxTitleChars = 500;

export function createOpenAiClient(config: OpenAiConfig, logger?: Logger): OpenAI {
  return new OpenAI({
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY.reveal(),
    timeout: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
    // The SDK would log to the console in its own format; each attempt is logged below instead.
    logLevel: 'off',
    ...(logger ? { fetch: fetchLoggingAttempts(logger) } : {}),
  });
}

/** Makes the SDK's retries visible: one line per failed attempt, with what the server said to wait. */
function fetchLoggingAttempts(logger: Logger): typeof fetch {
  return async (input, init) => {
    try {
      const response = await fetch(input, init);
      if (!response.ok) {
        logger.warn(
          { status: response.status, retryAfter: response.headers.get('retry-after') },
          'openai attempt failed',
        );
      }
      return response;
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'openai attempt failed');
      throw error;
    }
  };
}

export function createOpenAiProvider(deps: OpenAiProviderDeps): EnrichmentProvider {
  const { config, cache } = deps;
  const model = config.OPENAI_MODEL;
  const clock = deps.clock ?? Date.now;
  const log = (deps.logger ?? createLogger('openai', 'silent')).child({ provider: 'openai', model });
  const client = deps.client ?? createOpenAiClient(config, log);
  const server = describeServer(client.baseURL);

  /** Empty text is rejected before any token is spent; long text is capped. */
  function prepare(article: ArticleText, operation: Operation) {
    if (article.text.trim().length === 0) {
      throw new EnrichmentRejectedError(`openai ${operation}: the article has no text`);
    }
    const text = capText(article.text, config.OPENAI_MAX_INPUT_CHARS);
    if (text.truncated) {
      log.info(
        {
          operation,
          articleChars: text.originalLength,
          sentChars: text.text.length,
          maxInputChars: config.OPENAI_MAX_INPUT_CHARS,
        },
        'article text capped before sending',
      );
    }
    const title = capText(article.title, maxTitleChars).text;
    return { title, text, language: article.language };
  }

  async function complete<T>(request: {
    operation: Operation;
    schema: z.ZodType<T>;
    messages: ChatCompletionMessageParam[];
    question: Omit<CompletionQuestion, 'model' | 'operation' | 'promptVersion' | 'title' | 'text'> & {
      title: string;
      text: CappedText;
    };
    signal?: AbortSignal | undefined;
  }): Promise<T> {
    const { operation, schema, messages, signal } = request;
    const key = completionCacheKey({
      ...request.question,
      text: request.question.text.text,
      model,
      operation,
      promptVersion,
    });

    const cached = await cacheGet(key, operation);
    if (cached !== null) {
      const check = checkAnswer(schema, cached);
      if (check.ok) {
        log.debug({ operation, cache: 'hit' }, 'completion answered from cache');
        return check.answer;
      }
      log.warn(
        { operation, reason: check.reason },
        'cached completion does not match the schema; asking again',
      );
    }

    const started = clock();
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(
        { model, messages, response_format: answerFormats[operation] },
        signal ? { signal } : undefined,
      );
    } catch (error) {
      const failure = translateFailure(error, {
        operation,
        server,
        apiKey: client.apiKey ?? config.OPENAI_API_KEY.reveal(),
        timeoutMs: client.timeout,
        maxRetries: client.maxRetries,
      });
      log.warn(
        {
          operation,
          durationMs: clock() - started,
          status: 'status' in failure ? failure.status : undefined,
          code: 'code' in failure ? failure.code : undefined,
          rejected: failure instanceof EnrichmentRejectedError,
        },
        'completion failed',
      );
      throw failure;
    }

    const answer = readAnswer(completion, schema, operation);
    log.info(
      {
        operation,
        cache: 'miss',
        durationMs: clock() - started,
        promptTokens: completion.usage?.prompt_tokens,
        completionTokens: completion.usage?.completion_tokens,
      },
      'completion answered',
    );
    await cacheSet(key, JSON.stringify(answer), operation);
    return answer;
  }

  function readAnswer<T>(completion: ChatCompletion, schema: z.ZodType<T>, operation: Operation): T {
    const choice = completion.choices[0];
    const reject = (reason: string, details?: string) => {
      log.warn({ operation, reason }, 'completion rejected');
      return new EnrichmentRejectedError(`openai (${model}) ${operation}: ${reason}`, details);
    };
    if (!choice) throw reject('the answer has no choices');
    if (choice.message.refusal) throw reject('the model refused', choice.message.refusal.slice(0, 500));
    if (choice.finish_reason === 'length') throw reject('the answer was cut off at the token limit');
    if (choice.finish_reason === 'content_filter')
      throw reject('the answer was withheld by the content filter');
    const content = choice.message.content;
    if (!content) throw reject('the answer is empty');
    const check = checkAnswer(schema, content);
    if (!check.ok) throw reject(check.reason);
    return check.answer;
  }

  // The cache saves money; it is never a reason to fail. Any error is logged and the request goes on.
  async function cacheGet(key: string, operation: Operation): Promise<string | null> {
    try {
      return await cache.get(key);
    } catch (error) {
      log.warn({ operation, error: messageOf(error) }, 'completion cache unavailable; asking the model');
      return null;
    }
  }

  async function cacheSet(key: string, value: string, operation: Operation): Promise<void> {
    try {
      await cache.set(key, value, config.OPENAI_CACHE_TTL_SECONDS);
    } catch (error) {
      log.warn({ operation, error: messageOf(error) }, 'completion cache unavailable; answer not kept');
    }
  }

  return {
    name: 'openai',
    model,

    async enrich(article: ArticleText, options: EnrichOptions): Promise<Enrichment> {
      const prepared = prepare(article, 'enrich');
      const offered = options.related.slice(0, maxRelatedInPrompt);
      const answer = await complete({
        operation: 'enrich',
        schema: enrichmentAnswer,
        messages: enrichMessages(prepared, options.length, offered),
        question: {
          options: { length: options.length },
          title: prepared.title,
          text: prepared.text,
          relatedArticleIds: offered.map((r) => r.id),
        },
        signal: options.signal,
      });

      // The contract promises cited ids are among those handed in; a model can invent one.
      const offeredIds = new Set(offered.map((r) => r.id));
      const cited = [...new Set(answer.context_article_ids)].filter((id) => offeredIds.has(id));
      const invented = answer.context_article_ids.filter((id) => !offeredIds.has(id)).length;
      if (invented > 0)
        log.warn({ operation: 'enrich', invented }, 'dropped context citations of articles not offered');
      const context = cited.length > 0 && answer.context?.trim() ? answer.context.trim() : null;

      return {
        summary: answer.summary,
        context,
        contextArticleIds: context === null ? [] : cited,
        insights: answer.insights,
        sentiment: answer.sentiment,
        entities: answer.entities,
        keywords: answer.keywords,
        category: answer.category,
        language: answer.language ?? article.language ?? null,
        readingTimeSeconds: readingTimeSeconds(article.text),
        provider: 'openai',
        model,
      };
    },

    async summarize(
      article: ArticleText,
      options: SummarizeOptions,
    ): Promise<{ summary: string; tone: SummaryTone }> {
      const prepared = prepare(article, 'summarize');
      const answer = await complete({
        operation: 'summarize',
        schema: summaryAnswer,
        messages: summarizeMessages(prepared, options.length, options.tone),
        question: {
          options: { length: options.length, tone: options.tone },
          title: prepared.title,
          text: prepared.text,
          relatedArticleIds: [],
        },
        signal: options.signal,
      });
      return { summary: answer.summary, tone: options.tone };
    },

    async educate(article: ArticleText, options: { signal?: AbortSignal }): Promise<Education> {
      const prepared = prepare(article, 'educate');
      const answer = await complete({
        operation: 'educate',
        schema: educationAnswer,
        messages: educateMessages(prepared),
        question: { options: {}, title: prepared.title, text: prepared.text, relatedArticleIds: [] },
        signal: options.signal,
      });
      return {
        keyTerms: answer.key_terms,
        readingLevel: readingLevel(article.text),
        questions: answer.questions,
      };
    },
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
