// The on-demand intelligence endpoints: POST /v1/enhance (an article in the read model),
// POST /v1/analyze (posted text), POST /api/v1/summarize (posted text, with a tone). They use the
// same provider and the same related-article lookup as the enricher, so an answer here reads like
// the enrichment the article got in the stream.
import { insufficientScope } from '../auth/scopes.ts';
import { z } from 'zod';
import type { ArticleStore } from '../articles/article-store.ts';
import { ApiError, invalidParameter, notFound } from '../../runtime/api-error.ts';
import type { Principal } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { enumInAnyCase, enumWithAliases } from '../http/params.ts';
import {
  summaryLengths,
  summaryTones,
  type ArticleText,
  type EnrichmentProvider,
  type RelatedArticle,
  type SummaryLength,
} from '../../intelligence/provider.ts';
import { isCopyOf, relatedWindow, type RelatedQuery } from '../../intelligence/related-articles.ts';
import {
  functionWordLanguage,
  languageCode,
  languageOrUsual,
  minDetectableLength,
} from '../../runtime/language.ts';
import { scriptLanguage } from '../../runtime/script-language.ts';
import { postedText as cleanedPostedText } from '../../runtime/plain-text.ts';
import { isLanguageCode } from '../../sources/source.ts';
import { InvalidSpeechRequest, type Synthesis } from '../../speech/synthesis.ts';
import { speaking, synthesizedView, type SpeechDependencies } from '../speech/routes.ts';
import { narratableSummary } from './summary-narration.ts';
import { requestSignal } from '../limits/request-deadline.ts';
import { characterCount } from '../../runtime/character-count.ts';
import { longestSummary } from '../../intelligence/embedded/summary.ts';

export interface IntelligenceDependencies {
  store: ArticleStore;
  provider: EnrichmentProvider;
  findRelated: (query: RelatedQuery) => Promise<RelatedArticle[]>;
  /**
   * Synchronous, or on a worker thread for long texts (intelligence/embedded/analysis-pool.ts), which
   * `signal` takes out of the queue or stops.
   */
  termsOf: (
    article: ArticleText,
    options?: { signal?: AbortSignal },
  ) => { entities: string[]; keywords: string[] } | Promise<{ entities: string[]; keywords: string[] }>;
  /** Narrates summaries asked for with voice_enabled. */
  speech: Pick<SpeechDependencies, 'synthesis' | 'audio'>;
  clock?: () => Date;
}

/** Longest text analyze and summarize take; longer answers 400 invalid_parameter. */
export const maxTextCharacters = 100_000;

const postedText = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim() !== '', { error: `must not be empty: give the ${what}` })
    .meta({
      maxLength: maxTextCharacters,
      description:
        `Plain text, or HTML (read as a page: its markup, scripts and styles are no text), at most ` +
        `${maxTextCharacters.toLocaleString('en-US')} characters (longer: 400 invalid_parameter). Control ` +
        'characters and bidirectional overrides are removed.',
    });

/** A short text's language when it is not English: English stays unnamed there, as before. */
const nonEnglish = (code: string | null) => (code === 'en' ? null : code);

/** The limit in characters (code points), as the OpenAPI document's maxLength counts them. */
function checkLength(field: string, text: string): void {
  // Cheap first: no text of at most the limit in UTF-16 units is over it in characters.
  if (text.length <= maxTextCharacters) return;
  const characters = characterCount(text);
  if (characters > maxTextCharacters)
    throw invalidParameter(
      field,
      `is ${characters.toLocaleString('en-US')} characters; the limit is ${maxTextCharacters.toLocaleString('en-US')}`,
    );
}

const length = enumWithAliases(
  summaryLengths,
  { brief: 'short', standard: 'medium', detailed: 'long' },
  'medium',
).meta({
  description:
    'Summary length: short (1–2 sentences), medium (the default) or long. The embedded provider picks the ' +
    `text's own sentences: about 30% of them for medium (at most ${longestSummary.medium}), 45% for long (at ` +
    `most ${longestSummary.long}); OpenAI writes about 100 and 200 words.`,
});

const contextArticle = z
  .object({
    id: z.string(),
    title: z.string(),
    source: z.string(),
    published_at: z.string().meta({ description: 'ISO 8601 UTC timestamp' }),
    shared_terms: z.array(z.string()).meta({ description: 'Entities and keywords it shares with the text.' }),
  })
  .meta({ id: 'ContextArticle' });

const contextArticles = z
  .array(contextArticle)
  .meta({ description: 'The articles in the read model the context cites, in the order cited.' });

function citedArticles(related: readonly RelatedArticle[], ids: readonly string[]) {
  const byId = new Map(related.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r
      ? [
          {
            id: r.id,
            title: r.title,
            source: r.source,
            published_at: r.publishedAt.toISOString().replace('.000Z', 'Z'),
            shared_terms: r.sharedTerms,
          },
        ]
      : [];
  });
}

/**
 * A provider that failed or answered nonsense is not the caller's fault: 503. What it answered stays in
 * the log under the request's id: its text names the provider's address and may quote its body.
 */
async function fromProvider<T>(provider: EnrichmentProvider, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      'service_unavailable',
      `the ${provider.name} provider could not answer; retry shortly (the service's log has what it ` +
        "answered, under this answer's request_id)",
      { 'Retry-After': '5' },
      { cause: error },
    );
  }
}

/**
 * The context when no related article was found (or the provider wrote none): a string still, as the
 * interface types it, that says what was looked for; `context_articles` is empty beside it.
 */
const noRelatedCoverage = {
  article:
    'No related coverage: no article from another source, published in the 30 days before this one or ' +
    'the 30 days after, belongs to its story or names one of its people, organisations or places and another ' +
    'of its names or keywords.',
  text:
    'No related coverage: no article of the last 30 days names the person, organisation or place this text ' +
    'names, or, for a text naming several, one of them and another of its names or keywords.',
} as const;

/** The enhancements given when none are named: the three the reference set names. */
const defaultEnhancements = ['summary', 'context', 'insights'] as const;
/** Those and what the enrichment also finds (the overview set names sentiment as an output). */
const enhancementKinds = [...defaultEnhancements, 'sentiment', 'entities', 'keywords'] as const;

const enhanceRequest = z
  .object({
    article_id: z.string().trim().min(1, { error: 'must not be empty' }).max(200),
    enhancements: z
      // in any case, as every other enumeration of the API
      .array(enumInAnyCase(enhancementKinds))
      .min(1, { error: `ask for at least one of ${enhancementKinds.join(', ')}` })
      .default([...defaultEnhancements])
      .meta({
        description:
          'Which enhancements to return: summary, context and insights when omitted; sentiment, entities ' +
          'and keywords on request.',
      }),
    length,
  })
  .meta({ id: 'EnhanceRequest' });

const sentiment = z.object({
  label: z.enum(['positive', 'neutral', 'negative', 'mixed']),
  score: z.number().meta({ description: '-1 (most negative) to 1 (most positive).' }),
});

const entities = z.array(
  z.object({
    name: z.string(),
    type: z.enum(['person', 'organization', 'place', 'other']),
    salience: z.number(),
    mentions: z.number().int(),
  }),
);

const providerFields = {
  provider: z.string().meta({ description: 'Provider that answered: embedded or openai.' }),
  model: z.string(),
};

const enhanceResponse = z
  .object({
    article_id: z.string(),
    length: z.enum(summaryLengths),
    summary: z.string().optional(),
    context: z
      .string()
      .optional()
      .meta({
        description:
          'Background from related articles; when the read model has none, a sentence saying so ' +
          '(context_articles is then empty).',
      }),
    context_articles: contextArticles.optional(),
    insights: z.array(z.string()).optional(),
    sentiment: sentiment.optional(),
    entities: entities.optional(),
    keywords: z.array(z.string()).optional(),
    ...providerFields,
  })
  .meta({ id: 'Enhancement', description: 'Only the enhancements asked for are present.' });

// The values /v1/analyze accepts (docs/http-api.md, "Intelligence").
const analysisTypes = ['summary', 'sentiment', 'insights', 'educational', 'full'] as const;
const contextLevels = ['brief', 'standard', 'deep'] as const;

/** What each context level means: the summary's length and how many related articles are cited. */
const contextLevel: Record<(typeof contextLevels)[number], { length: SummaryLength; related: number }> = {
  brief: { length: 'short', related: 1 },
  standard: { length: 'medium', related: 3 },
  deep: { length: 'long', related: 6 },
};

type AnalysisType = (typeof analysisTypes)[number];
type AnalysisPart = 'summary' | 'context' | 'insights' | 'sentiment' | 'classification' | 'educational';

/** The parts of the answer each analysis type includes. */
const analysisParts: Record<AnalysisType, readonly AnalysisPart[]> = {
  summary: ['summary', 'context'],
  sentiment: ['sentiment'],
  insights: ['insights', 'context'],
  educational: ['summary', 'educational'],
  full: ['summary', 'context', 'insights', 'sentiment', 'classification', 'educational'],
};

/** A text's language as the caller gives it: ISO 639-1, or a locale such as pt-BR. */
const textLanguageField = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}(?:[-_][A-Za-z0-9]{1,8})*$/, {
    message: 'must be an ISO 639-1 language code such as es, or a locale such as pt-BR',
  })
  .refine((tag) => isLanguageCode(tag.slice(0, 2).toLowerCase()), {
    error: (issue) => `"${String(issue.input)}" does not start with an ISO 639-1 language code`,
  })
  .optional();

const analyzeRequest = z
  .object({
    text: postedText('text to analyze'),
    title: z.string().max(500).optional().meta({ description: 'Headline of the text, if it has one.' }),
    language: textLanguageField.meta({
      description:
        'The language of the text (ISO 639-1, or a locale such as pt-BR), for one too short to tell it by ' +
        '(under 120 characters): without it such a text is read as English, unless three or more of its ' +
        'function words are plainly of German, French, Spanish, Italian, Portuguese or Dutch. A longer ' +
        'text’s language is detected from the text itself.',
      example: 'es',
    }),
    analysis_type: enumWithAliases(
      analysisTypes,
      {
        all: 'full',
        comprehensive: 'full',
        complete: 'full',
        entities: 'sentiment',
        education: 'educational',
      },
      'full',
    ).meta({
      description:
        'summary: summary and context; sentiment: sentiment, entities and keywords; insights: insights and ' +
        'context; educational: summary and the educational insights; full (the default): all of these plus category, ' +
        'language and reading time.',
    }),
    context_level: enumWithAliases(
      contextLevels,
      {
        low: 'brief',
        basic: 'brief',
        short: 'brief',
        medium: 'standard',
        normal: 'standard',
        high: 'deep',
        detailed: 'deep',
        long: 'deep',
      },
      'standard',
    ).meta({
      description:
        'brief (or low): short summary, context from at most 1 related article; standard (the default, or medium): medium summary, up to 3; ' +
        'deep (or high, detailed): long summary, up to 6.',
    }),
  })
  .meta({ id: 'AnalyzeRequest' });

const educational = z
  .object({
    key_terms: z.array(z.object({ term: z.string(), explanation: z.string() })),
    reading_level: z
      .object({
        grade: z.number().meta({
          description:
            'US school grade (Flesch–Kincaid; in es, fr, de, it, nl, pt and ru read off Flesch’s table from the ease).',
        }),
        ease: z.number().meta({
          description:
            'Flesch reading ease, 0–100, higher is easier (the language’s own adaptation where it has one).',
        }),
        label: z.enum(['elementary', 'middle school', 'high school', 'college', 'graduate']),
      })
      .nullable()
      .meta({
        description:
          'Null for a text in another script than Latin, in a language without an adaptation of its own ' +
          '(Japanese, Chinese, Arabic, …), where Flesch’s counts of syllables and words mean nothing.',
      }),
    questions: z.array(z.string()).meta({ description: 'Questions to think about.' }),
  })
  .meta({ id: 'EducationalInsights' });

const analyzeResponse = z
  .object({
    analysis_type: z.enum(analysisTypes),
    context_level: z.enum(contextLevels),
    summary: z.string().optional(),
    context: z.string().optional().meta({
      description: 'Background from related articles; when the read model has none, a sentence saying so.',
    }),
    context_articles: contextArticles.optional(),
    insights: z.array(z.string()).optional(),
    sentiment: sentiment.optional(),
    entities: entities.optional(),
    keywords: z.array(z.string()).optional(),
    category: z.string().nullable().optional(),
    language: z.string().nullable().optional().meta({ description: 'ISO 639-1, when detected.' }),
    reading_time_seconds: z.number().int().optional(),
    educational: educational.optional(),
    ...providerFields,
  })
  .meta({ id: 'Analysis', description: 'The parts analysis_type asks for are present; see AnalyzeRequest.' });

const summarizeRequest = z
  .object({
    content: postedText('content to summarize'),
    tone: enumWithAliases(
      summaryTones,
      { formal: 'professional', informal: 'casual', friendly: 'casual' },
      'neutral',
    ).meta({
      description:
        'neutral (the default): as written; professional (or formal): no contractions; casual (or informal): contractions; executive: points, most ' +
        'important first, one per line starting with "- ".',
    }),
    length,
    language: textLanguageField.meta({
      description:
        'The language of the content (ISO 639-1, or a locale such as pt-BR): its summary is narrated in ' +
        'that language’s default voice. Without it the language is detected (from 120 characters) or told ' +
        'by the script (Cyrillic, Arabic, Han, ...).',
      example: 'ru',
    }),
    voice_enabled: z
      .boolean({ error: 'must be true or false' })
      .default(false)
      .meta({
        description:
          'Also narrate the summary (mp3, in the default voice of its language): audio_url, voice and ' +
          'duration_ms in the response. Needs the scope use:audio besides use:ai (403 insufficient_scope ' +
          'without it).',
      }),
  })
  .meta({ id: 'SummarizeRequest' });

const summarizeResponse = z
  .object({
    summary: z.string(),
    tone: z.enum(summaryTones),
    length: z.enum(summaryLengths),
    audio_url: z.string().nullable().meta({
      description: 'Signed, expiring URL of the narrated summary (mp3); null without voice_enabled.',
    }),
    voice: z
      .string()
      .nullable()
      .meta({ description: 'The voice it was narrated in; null without voice_enabled.' }),
    duration_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Length of the narration; null without it.' }),
    ...providerFields,
  })
  .meta({ id: 'Summary' });

/**
 * The summary in the default voice of its language: the one declared (a locale, pt-BR, chooses its
 * accent), else told from the content, which has more text to tell it by, English unless detection
 * plainly finds another (languageOrUsual); in the default voice when no voice speaks it.
 */
async function narrateSummary(
  synthesis: Synthesis,
  summary: string,
  content: string,
  declared: string | null,
) {
  const request = { text: summary, format: 'mp3' as const };
  const language = declared ?? languageOrUsual(content, 'en');
  try {
    return await synthesis.synthesize({ ...request, language });
  } catch (error) {
    if (error instanceof InvalidSpeechRequest && error.field === 'language')
      return synthesis.synthesize(request);
    throw error;
  }
}

export function intelligenceRoutes(deps: IntelligenceDependencies): RouteSpec[] {
  const { provider } = deps;
  const now = () => deps.clock?.() ?? new Date();
  const related = async (
    text: ArticleText,
    limit: number,
    query: Omit<RelatedQuery, 'entities' | 'keywords' | 'limit'>,
    signal: AbortSignal | undefined,
  ) => {
    if (limit <= 0) return [];
    // The terms come from the provider's methods (on a worker thread for a long text): a failure there
    // is the provider's, as for the analysis itself.
    const terms = await fromProvider(provider, async () => deps.termsOf(text, { signal }));
    return deps.findRelated({ ...terms, ...query, limit });
  };

  return [
    defineRoute({
      method: 'post',
      path: '/v1/enhance',
      operationId: 'enhanceArticle',
      tag: 'Intelligence',
      scope: 'use:ai',
      summary: 'Summary, context and insights for an article',
      description:
        'Works on the article as the read model holds it. The context cites up to 3 other articles in the ' +
        'read model from other sources, published in the 30 days before it or since (at most 30 days after ' +
        'it): first the other ' +
        'articles of its story, then articles naming one of its people, organisations or places and sharing ' +
        'another name or keyword with it (a shared keyword alone never makes an article context); ' +
        '`context_articles` lists them.',
      body: enhanceRequest,
      responses: { 200: { description: 'The enhancements asked for', schema: enhanceResponse } },
      errors: ['not_found', 'service_unavailable'],
      handler: async (ctx, { body }) => {
        const article = await deps.store.get(body.article_id);
        if (!article) throw notFound(`no article with id "${body.article_id}"`);
        const text: ArticleText = {
          title: article.title,
          text: article.content || article.title,
          language: article.language,
        };
        const wants = new Set(body.enhancements);
        const signal = requestSignal(ctx);
        const cited = wants.has('context')
          ? await related(
              text,
              3,
              {
                excludeArticleId: article.id,
                excludeSourceId: article.source_id,
                storyId: article.story_id,
                ...relatedWindow(new Date(article.published_at), now()),
              },
              signal,
            )
          : [];
        const result = await fromProvider(provider, () =>
          provider.enrich(text, {
            length: body.length,
            related: cited,
            publishedAt: new Date(article.published_at),
            signal,
          }),
        );
        ctx.body = {
          article_id: article.id,
          length: body.length,
          ...(wants.has('summary') ? { summary: result.summary } : {}),
          ...(wants.has('context')
            ? {
                context: result.context ?? noRelatedCoverage.article,
                context_articles: citedArticles(cited, result.contextArticleIds),
              }
            : {}),
          ...(wants.has('insights') ? { insights: result.insights } : {}),
          ...(wants.has('sentiment') ? { sentiment: result.sentiment } : {}),
          ...(wants.has('entities') ? { entities: result.entities } : {}),
          ...(wants.has('keywords') ? { keywords: result.keywords } : {}),
          provider: result.provider,
          model: result.model,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/analyze',
      operationId: 'analyzeText',
      tag: 'Intelligence',
      scope: 'use:ai',
      summary: 'Analyze a text: summary, context, insights, sentiment and educational insights',
      description:
        'The context cites articles in the read model, published in the last 30 days, that name the text’s ' +
        'person, organisation or place when it names one, or one of them and another of its names or keywords ' +
        'when it names several (shared keywords rank them, never admit them alone).',
      body: analyzeRequest,
      responses: { 200: { description: 'The analysis', schema: analyzeResponse } },
      errors: ['service_unavailable'],
      handler: async (ctx, { body }) => {
        checkLength('text', body.text);
        const posted = cleanedPostedText(body.text);
        if (posted === '') throw invalidParameter('text', 'holds no text once its markup is removed');
        const text: ArticleText = {
          title: cleanedPostedText(body.title ?? ''),
          text: posted,
          // Without a language named, English unless the text plainly says otherwise (languageOrUsual):
          // detection alone read English copy full of quotes as Swedish, and analysed it without
          // English's words. A Latin text too short to detect is told by its function words when they
          // plainly say another language (functionWordLanguage), and otherwise stays without one (read as
          // English all the same), rather than be called English when it is Spanish.
          language:
            languageCode(body.language) ??
            (posted.length >= minDetectableLength || scriptLanguage(posted) !== null
              ? languageOrUsual(posted, 'en')
              : nonEnglish(functionWordLanguage(posted))),
        };
        const level = contextLevel[body.context_level];
        const parts = new Set(analysisParts[body.analysis_type]);
        const signal = requestSignal(ctx);
        // A few more than cited, since the text itself (an article the caller read from us) is left out.
        const cited = parts.has('context')
          ? (await related(text, level.related + 2, { ...relatedWindow(now()), loneEntity: true }, signal))
              .filter((r) => !isCopyOf(r, posted))
              .slice(0, level.related)
          : [];
        const [result, education] = await fromProvider(provider, () =>
          Promise.all([
            provider.enrich(text, { length: level.length, related: cited, signal }),
            parts.has('educational') ? provider.educate(text, { signal }) : Promise.resolve(null),
          ]),
        );
        ctx.body = {
          analysis_type: body.analysis_type,
          context_level: body.context_level,
          ...(parts.has('summary') ? { summary: result.summary } : {}),
          ...(parts.has('context')
            ? {
                context: result.context ?? noRelatedCoverage.text,
                context_articles: citedArticles(cited, result.contextArticleIds),
              }
            : {}),
          ...(parts.has('insights') ? { insights: result.insights } : {}),
          ...(parts.has('sentiment')
            ? { sentiment: result.sentiment, entities: result.entities, keywords: result.keywords }
            : {}),
          ...(parts.has('classification')
            ? {
                category: result.category,
                language: result.language,
                reading_time_seconds: result.readingTimeSeconds,
              }
            : {}),
          ...(education
            ? {
                educational: {
                  key_terms: education.keyTerms,
                  reading_level: education.readingLevel,
                  questions: education.questions,
                },
              }
            : {}),
          provider: result.provider,
          model: result.model,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/summarize',
      operationId: 'summarizeText',
      tag: 'Intelligence',
      scope: 'use:ai',
      summary: 'Summarize a text in a tone',
      body: summarizeRequest,
      responses: { 200: { description: 'The summary', schema: summarizeResponse } },
      errors: ['service_unavailable', 'provider_unavailable', 'insufficient_scope'],
      handler: async (ctx, { body }) => {
        checkLength('content', body.content);
        const content = cleanedPostedText(body.content);
        if (content === '') throw invalidParameter('content', 'holds no text once its markup is removed');
        // Audio is what use:audio sells: a key without it gets the summary only if it asks for no voice.
        const principal = (ctx.state as { principal?: Principal }).principal;
        if (body.voice_enabled && !principal?.scopes.has('use:audio'))
          throw insufficientScope('use:audio', 'voice_enabled needs the scope use:audio');
        const result = await fromProvider(provider, () =>
          provider.summarize(
            { title: '', text: content, language: languageCode(body.language) },
            { length: body.length, tone: body.tone, signal: requestSignal(ctx) },
          ),
        );
        const narration = body.voice_enabled
          ? await speaking(() =>
              narrateSummary(
                deps.speech.synthesis,
                narratableSummary(result.summary),
                content,
                body.language?.replace(/_/g, '-') ?? null,
              ).catch((error: unknown) => {
                // The text spoken is the summary of `content`: a refusal names the field this request has.
                if (error instanceof InvalidSpeechRequest && error.field === 'text')
                  throw new InvalidSpeechRequest(
                    'content',
                    `its summary ${error.message.slice('text: '.length)}; send voice_enabled: false for the summary alone`,
                  );
                throw error;
              }),
            )
          : null;
        const narrated = narration ? synthesizedView(narration, deps.speech.audio) : null;
        ctx.body = {
          summary: result.summary,
          tone: result.tone,
          length: body.length,
          audio_url: narrated?.audio_url ?? null,
          voice: narrated?.voice ?? null,
          duration_ms: narrated?.duration_ms ?? null,
          provider: provider.name,
          model: provider.model,
        };
      },
    }),
  ];
}
