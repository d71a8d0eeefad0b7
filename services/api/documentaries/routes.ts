// POST /api/v1/documentaries (the integration set's path), GET /api/v1/documentaries,
// GET /api/v1/documentaries/{id} and POST /api/v1/documentaries/{id}/cancel. A request is checked here, appended as a `requested` event and
// answered 202; the documentary processor does the work and appends each step. Documentaries belong
// to the tenant of the credential: another tenant's id is 404.
import { z } from 'zod';
import { ApiError, invalidParameter, notFound } from '../../runtime/api-error.ts';
import { busyUnlessFree, LocalMutex, type KeyedMutex } from '../../runtime/keyed-mutex.ts';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import {
  defaultDocumentaryLanguage,
  defaultMaxArticles,
  defaultPeriodMs,
  type DocumentaryLength,
  documentaryFormats,
  documentaryLengths,
  documentarySources,
  maxArticlesLimit,
  maxPeriodMs,
  topicLimits,
} from '../../documentaries/documentary-request.ts';
import {
  documentaryStatuses,
  type DocumentaryRegistry,
  type DocumentaryState,
  type DocumentaryStatusFilter,
} from '../../documentaries/documentary-registry.ts';
import type { Synthesis } from '../../speech/synthesis.ts';
import { parseDateRange } from '../http/date-range.ts';
import { enumInAnyCase, enumWithAliases, limitParam, listParam, offsetParam } from '../http/params.ts';
import { offsetPage, offsetPaging } from '../http/paging.ts';
import { tenantOf } from '../http/principal.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';
import { speechError } from '../speech/routes.ts';

export interface DocumentaryDependencies {
  documentaries: DocumentaryRegistry;
  /** Checks voice and language against the voices on offer. */
  synthesis: Pick<Synthesis, 'voiceFor'>;
  audio: AudioUrls;
  /** Documentaries a tenant may have in progress at once (API_DOCUMENTARIES_IN_PROGRESS); 0: no limit. */
  inProgressLimit?: number;
  /**
   * One request of a tenant at a time from the count to the read model showing the new documentary,
   * across the API's processes (a RedisMutex); absent: within this process.
   */
  limitLock?: KeyedMutex;
  clock?: () => Date;
}

/**
 * A documentary in progress for longer than this (its processor stopped, its events lost) no longer holds
 * one of its tenant's places: the longest takes minutes.
 */
const inProgressWindowMs = 6 * 3_600_000;

/** The tenants' line where no lock shared between processes is given. */
const localLimitLock = new LocalMutex();

const time = z.string().meta({ description: 'ISO 8601 UTC timestamp' });
const languageTag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, {
    message: 'must be a language code such as en or a locale such as pt-BR',
  })
  .transform(conventionalCase);

/**
 * A language tag in BCP 47's conventional case, as it is shown back: `EN` is `en`, `pt_br` is `pt-BR`,
 * `zh-hant-tw` is `zh-Hant-TW` (language lower, script title, region upper, the rest lower).
 */
export function conventionalCase(tag: string): string {
  const parts = tag.split(/[-_]/);
  // After a singleton (an extension, `-u-`, or private use, `-x-`) every subtag is lower case.
  const extension = parts.findIndex((part, i) => i > 0 && part.length === 1);
  return parts
    .map((part, i) => {
      const lower = part.toLowerCase();
      if (i === 0 || (extension > 0 && i >= extension) || !/^[A-Za-z]+$/.test(part)) return lower;
      if (part.length === 4) return lower[0]!.toUpperCase() + lower.slice(1);
      return part.length === 2 ? part.toUpperCase() : lower;
    })
    .join('-');
}

const newDocumentary = z
  .object({
    topic: z
      .string()
      .trim()
      .min(topicLimits.minCharacters, { error: `must be at least ${topicLimits.minCharacters} characters` })
      .max(topicLimits.maxCharacters, { error: `must be at most ${topicLimits.maxCharacters} characters` })
      // A topic is looked for in articles' words: one with none (emoji, control characters) could only
      // end, a queue's wait later, in no_articles.
      .refine((topic) => !/\p{Cc}/u.test(topic), { error: 'must not contain control characters' })
      // The topic is spoken in the intro and written into the transcripts and the mp3's title: an override
      // would show the text after it reversed there (a spoofing tool no topic needs).
      .refine((topic) => !/[\u202a-\u202e\u2066-\u2069]/u.test(topic), {
        error: 'must not contain bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069)',
      })
      .refine((topic) => /[\p{L}\p{N}]/u.test(topic), { error: 'must contain at least one letter or digit' })
      .meta({
        description: 'What the documentary is about, in a few words: "semiconductors", "interest rates".',
      }),
    sources: z
      .array(enumInAnyCase(documentarySources))
      .min(1, { error: 'must name at least one kind of source' })
      .default(['news'])
      .meta({
        description:
          'Where its articles come from: `news` (the catalog of publishers), `internal` (your own sources, ' +
          'added or subscribed with POST /v1/sources), `social` (sources of category social or community).',
      }),
    format: enumWithAliases(documentaryFormats, {}, 'audio+transcript').meta({
      description:
        'audio+transcript (the default): the audio with WebVTT and JSON transcripts; audio: the audio alone. In any case.',
    }),
    date_range: z
      .string()
      .max(100)
      .optional()
      .meta({
        description:
          'The period whose articles it covers, as in GET /v1/articles (`24h`, `7d`, `P2W`, `yesterday`, ' +
          '`FROM..TO`, ...); default the last 7 days, at most 366 days. One ending in the future ends now; ' +
          'one starting in the future is 400.',
        example: '7d',
      }),
    language: languageTag
      .optional()
      .meta({ description: 'Language of the documentary and of its articles (default en).' }),
    voice: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'A voice id from GET /v1/voices; default the language’s default voice.' }),
    length: enumWithAliases(documentaryLengths, {}, 'medium').meta({
      description:
        'short ≈ 2 minutes, medium (the default) ≈ 5, long ≈ 10 (shorter when there is little news). In any case.',
    }),
    max_articles: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(maxArticlesLimit, { error: `must be at most ${maxArticlesLimit}` })
      .optional()
      .meta({
        description: `Most articles to cite (default ${defaultMaxArticles.short} short, ${defaultMaxArticles.medium} medium, ${defaultMaxArticles.long} long).`,
      }),
  })
  .strict()
  .meta({ id: 'NewDocumentary' });

const chapter = z.object({
  kind: z.string().meta({ description: 'intro, story, transition or outro' }),
  title: z.string(),
  sentences: z.array(z.string()).meta({ description: 'What is spoken in it, sentence by sentence.' }),
  start_ms: z.number().int().nullable(),
  end_ms: z.number().int().nullable(),
  article_ids: z.array(z.string()),
});
const citedArticle = z.object({
  id: z.string(),
  title: z.string(),
  source: z.string(),
  url: z.string(),
  published_at: time,
  story: z.number().int().meta({ description: 'Index of the story (among the story chapters) it tells.' }),
});

const documentaryItem = z
  .object({
    id: z.string(),
    topic: z.string(),
    sources: z.array(z.string()),
    format: z.string(),
    status: z.string().meta({
      description:
        'requested, gathering, scripting, narrating, assembling, ready, failed or cancelled (POST …/cancel).',
    }),
    progress: z.number().meta({ description: 'Share of the work done, 0 to 1.' }),
    length: z.string(),
    language: z.string().meta({ description: 'Its language (en when the request named none).' }),
    voice: z
      .string()
      .nullable()
      .meta({
        description:
          'The voice that speaks it: the one asked for, or, when none was, null until narrating starts, then ' +
          "the language's default voice (GET /v1/voices) that speaks it.",
      }),
    script_writer: z.string().nullable().meta({
      description:
        'Who wrote the script, from narrating on: embedded, or openai/<model> (its script checked against the articles).',
    }),
    date_range: z.string().nullable(),
    period: z.object({ from: time.nullable(), to: time.nullable() }),
    max_articles: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Most articles it cites (the length’s default when the request named none).' }),
    audio_url: z
      .string()
      .nullable()
      .meta({ description: 'When ready: a signed URL that plays without a key, valid for a day.' }),
    transcript_url: z
      .string()
      .nullable()
      .meta({ description: 'When ready: the WebVTT transcript (signed).' }),
    transcript_json_url: z.string().nullable().meta({
      description: 'When ready: the JSON transcript, segments with their articles and times (signed).',
    }),
    duration_ms: z.number().int().nullable(),
    chapters: z.array(chapter).meta({ description: 'The script’s parts; with times once ready.' }),
    articles: z.array(citedArticle).meta({ description: 'The articles it cites.' }),
    failure: z
      .object({ code: z.string().nullable(), reason: z.string().nullable() })
      .nullable()
      .meta({ description: 'When failed: why (code no_articles: nothing on the topic in the period).' }),
    created_at: time,
    updated_at: time,
    links: z.object({ self: z.string() }),
  })
  .meta({ id: 'Documentary' });

const idParams = z.object({ id: z.string().min(1).max(200) });

const statusParam = listParam({
  check: (s) => (documentaryStatuses as readonly string[]).includes(s),
  expected: `a documentary status (one of ${documentaryStatuses.join(', ')})`,
  description:
    `Only documentaries in this status, or in any of several separated by commas: ${documentaryStatuses.join(', ')}. ` +
    'A stage (gathering … assembling) is the status of one under way.',
  example: 'ready',
});

export function documentaryRoutes(deps: DocumentaryDependencies): RouteSpec[] {
  const view = (d: DocumentaryState): z.output<typeof documentaryItem> => ({
    id: d.id,
    topic: d.topic,
    sources: d.sources,
    format: d.format,
    status: d.status,
    progress: d.progress,
    length: d.length,
    // What it is made with: a request that named no language or maximum gets the defaults.
    language: d.language ?? defaultDocumentaryLanguage,
    voice: d.voice,
    script_writer: d.scriptWriter,
    date_range: d.dateRange,
    period: { from: d.periodFrom, to: d.periodTo },
    max_articles: d.maxArticles ?? defaultMaxArticles[d.length as DocumentaryLength] ?? null,
    audio_url: d.audioKey ? deps.audio.urlFor(d.audioKey) : null,
    transcript_url: d.transcriptKey ? deps.audio.urlFor(d.transcriptKey) : null,
    transcript_json_url: d.transcriptJsonKey ? deps.audio.urlFor(d.transcriptJsonKey) : null,
    duration_ms: d.durationMs,
    chapters: d.segments as z.output<typeof chapter>[],
    articles: d.articles as z.output<typeof citedArticle>[],
    failure: d.status === 'failed' ? { code: d.failureCode, reason: d.failureReason } : null,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    links: { self: `/api/v1/documentaries/${d.id}` },
  });

  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/documentaries',
      operationId: 'createDocumentary',
      idempotent: true,
      tag: 'Documentaries',
      scope: 'use:audio',
      summary: 'Ask for an audio documentary on a topic',
      description:
        'Accepted at once (202); the documentary goes through gathering, scripting, narrating and assembling ' +
        'to ready (or failed), which GET /api/v1/documentaries/{id} shows with its progress. When ready, ' +
        'webhooks subscribed to documentary.ready receive {documentary_id, topic, audio_url, transcript_url, ' +
        'transcript_json_url, duration_ms, language, voice}; those subscribed to documentary.failed receive ' +
        '{documentary_id, topic, failure}. A tenant may have 5 documentaries in progress (requested, not yet ready, failed or cancelled) at ' +
        'once (API_DOCUMENTARIES_IN_PROGRESS), whatever its plan; one more answers 429 `documentary_limit` ' +
        'with Retry-After.',
      body: newDocumentary,
      responses: {
        202: {
          description: 'Accepted',
          schema: documentaryItem,
          headers: { Location: 'The documentary, to follow its progress: /api/v1/documentaries/{id}.' },
        },
      },
      errors: ['documentary_limit'],
      handler: async (ctx, { body }) => {
        const at = deps.clock?.() ?? new Date();
        const range = body.date_range === undefined ? null : parseDateRange(body.date_range, at);
        if (typeof range === 'string') throw invalidParameter('date_range', range);
        // A range ending in the future ends now: there is no news past now, and the documentary's intro
        // and transcripts name its period ("from 7 December 2026 to 1 January 2030" was spoken).
        // "366d" reaches now inclusive (a millisecond past it), and is now too.
        const periodTo = range?.to && range.to.getTime() < at.getTime() ? range.to : at;
        const periodFrom = range?.from ?? new Date(periodTo.getTime() - defaultPeriodMs);
        const covered = periodTo.getTime() - periodFrom.getTime();
        if (covered > maxPeriodMs)
          throw invalidParameter(
            'date_range',
            `covers ${Math.ceil(covered / 86_400_000)} days, more than the 366 a documentary may cover`,
          );
        if (periodFrom.getTime() > at.getTime())
          throw invalidParameter('date_range', 'starts in the future: there is no news there yet');
        let voice: string | null = null;
        if (body.voice !== undefined || body.language !== undefined) {
          // Fails now, naming the field, rather than minutes later in the processor: a voice must speak
          // the documentary's language, the default one when the request names none. A voice asked for by
          // another provider's name ("en-US-JennyNeural") is kept as the voice that stands in for it, so the
          // answer names the voice that will speak.
          try {
            const chosen = await deps.synthesis.voiceFor({
              ...(body.voice !== undefined ? { voiceId: body.voice } : {}),
              language: body.language ?? defaultDocumentaryLanguage,
            });
            if (body.voice !== undefined) voice = chosen.id;
          } catch (error) {
            throw speechError(error);
          }
        }
        // Each documentary is minutes of the speech engines' CPU, shared by every tenant: one tenant's
        // requests are held to a few at once. Counted from the read model, under the tenant's lock until
        // the read model shows the new one (request waits for that), so requests sent at the same moment
        // are counted one after another: ten at once were ten accepted.
        const limit = deps.inProgressLimit ?? 0;
        const ask = () =>
          deps.documentaries.request(tenantOf(ctx), {
            topic: body.topic,
            sources: [...new Set(body.sources)],
            format: body.format,
            length: body.length,
            language: body.language ?? null,
            voice,
            dateRange: body.date_range?.trim() ?? null,
            periodFrom,
            periodTo,
            maxArticles: body.max_articles ?? null,
          });
        const counted = async () => {
          const running = await deps.documentaries.inProgress(
            tenantOf(ctx),
            at.getTime() - inProgressWindowMs,
          );
          if (running >= limit)
            throw new ApiError(
              'documentary_limit',
              `${running} documentaries of yours are in progress, the most there may be at once (${limit}); ` +
                'ask again when one is ready or failed (the documentary.ready and documentary.failed webhooks say when)',
              { 'Retry-After': '60' },
            );
          return ask();
        };
        const state =
          limit > 0
            ? await busyUnlessFree(
                (deps.limitLock ?? localLimitLock).run(tenantOf(ctx), counted),
                'other documentary requests of yours are being counted against your limit',
              )
            : await ask();
        ctx.status = 202;
        ctx.set('Location', `/api/v1/documentaries/${state.id}`);
        ctx.body = view(state);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/documentaries',
      operationId: 'listDocumentaries',
      tag: 'Documentaries',
      scope: 'use:audio',
      summary: "List the caller's documentaries",
      description: 'Newest request first.',
      query: z.object({ limit: limitParam(100, 20), offset: offsetParam, status: statusParam.optional() }),
      responses: {
        200: {
          description: 'A page of documentaries',
          schema: z
            .object({ documentaries: z.array(documentaryItem), paging: offsetPaging })
            .meta({ id: 'DocumentaryList' }),
        },
      },
      handler: async (ctx, { query }) => {
        const { items, hasMore } = await deps.documentaries.list(
          tenantOf(ctx),
          query,
          query.status as DocumentaryStatusFilter[] | undefined,
        );
        ctx.body = { documentaries: items.map(view), paging: offsetPage(query, items.length, hasMore) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/documentaries/{id}',
      operationId: 'getDocumentary',
      tag: 'Documentaries',
      scope: 'use:audio',
      summary: 'One documentary: status, progress, and when ready its audio, transcripts and chapters',
      params: idParams,
      responses: { 200: { description: 'The documentary', schema: documentaryItem } },
      errors: ['not_found'],
      handler: async (ctx, { params }) => {
        const documentary = await deps.documentaries.get(tenantOf(ctx), params.id);
        if (!documentary) throw notFound(`no documentary with id "${params.id}"`);
        ctx.body = view(documentary);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/documentaries/{id}/cancel',
      operationId: 'cancelDocumentary',
      tag: 'Documentaries',
      scope: 'use:audio',
      summary: 'Cancel a documentary that is not ready yet',
      description:
        'Its status becomes cancelled at once; the processor stops before its next sentence or step, ' +
        'nothing is made and no webhook is sent, and it no longer counts against the documentaries you ' +
        'may have in progress. Cancelling a cancelled documentary answers it as it is; a ready or failed ' +
        'one answers 409 conflict.',
      params: idParams,
      responses: { 200: { description: 'The documentary, cancelled', schema: documentaryItem } },
      errors: ['not_found', 'conflict'],
      handler: async (ctx, { params }) => {
        const outcome = await deps.documentaries.cancel(tenantOf(ctx), params.id);
        if (!outcome) throw notFound(`no documentary with id "${params.id}"`);
        if (outcome.finished)
          throw new ApiError(
            'conflict',
            `documentary "${params.id}" is ${outcome.state.status} already: there is nothing left to cancel`,
          );
        ctx.body = view(outcome.state);
      },
    }),
  ];
}
