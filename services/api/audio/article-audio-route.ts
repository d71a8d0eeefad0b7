// GET and HEAD /v1/articles/{id}/audio: an article's narration, for whoever holds a signed URL of it
// (services/audio/signed-url.ts) and no API key. Answers and payloads that have no file for the article
// (a list when the narrator has not narrated it, a webhook alert when narration lags) carry this URL
// instead of a file's, so it is resolved when it is fetched: a redirect to the signed URL of the file the
// read model holds for the article now; failing that, of a narration made on request
// (narration-on-request.ts) for an article the narrator skipped (too old), failed on, or is late with.
//
// The signature is checked first, as for a file, so an unsigned request learns nothing, not even
// whether the article exists. The redirect is not cached: the article may be narrated again (a new
// revision), and the file URL it leads to expires; the file may be cached until then.
import type Router from '@koa/router';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import type { AudioUrlKeys } from '../../audio/signed-url.ts';
import { ApiError, notFound } from '../../runtime/api-error.ts';
import type { ArticleNarration } from '../articles/article-store.ts';
import { speechError } from '../speech/routes.ts';
import type { NarrationsOnRequest } from './narration-on-request.ts';
import { requireSignature } from './url-signature.ts';

export const articleAudioPath = '/v1/articles/{id}/audio';

/**
 * When to ask again for a narration not made yet: the narrator answers within seconds of an
 * enrichment, but lags under load (which is why the URL was handed out before it had).
 */
export const narrationRetryAfterSeconds = 30;

/** When to come back while this instance is making as many narrations on request as it may. */
export const busyRetryAfterSeconds = 5;

export interface ArticleAudioRouteDependencies {
  /** Where an article's narration stands (ArticleStore.narration: the ClickHouse read models). */
  narrationOf: (articleId: string) => Promise<ArticleNarration>;
  keys: AudioUrlKeys;
  /** Signs the file URL the answer redirects to. */
  audio: Pick<AudioUrls, 'urlFor'>;
  /** Narrates an article the narrator has not; without it such an article's URL answers 404. */
  onRequest?: Pick<NarrationsOnRequest, 'narrate'>;
  /**
   * How long after an article is discovered the narrator is waited for (its narration then answers 404
   * narration_not_ready) before the article is narrated on request.
   */
  narratorGraceMs?: number;
  now?: () => Date;
}

/** The narrator narrates an article within seconds of its enrichment; two minutes is well behind. */
export const defaultNarratorGraceMs = 120_000;

/** Why an article the narrator answered has no file (the status of its latest narration). */
const outcomes: Record<string, string> = {
  skipped: 'the narrator skipped it (no text, no voice for its language, or published too long ago)',
  failed: 'the narrator failed to narrate it',
  other: 'its narration has no file this API serves',
};

export function articleAudioRoutes(router: Router, deps: ArticleAudioRouteDependencies): void {
  const now = deps.now ?? (() => new Date());
  const graceMs = deps.narratorGraceMs ?? defaultNarratorGraceMs;
  // @koa/router answers HEAD with every GET route: a HEAD gets the same redirect.
  router.get('/v1/articles/:id/audio', async (ctx) => {
    const articleId = ctx.params.id!;
    requireSignature(ctx, { articleId }, deps.keys, now());

    const narration = await deps.narrationOf(articleId);
    const quoted = JSON.stringify(articleId);
    const redirect = (audioKey: string) => {
      ctx.status = 302;
      ctx.set({
        Location: deps.audio.urlFor(audioKey),
        'Cache-Control': 'no-store',
        'Access-Control-Allow-Origin': '*',
      });
    };
    if (narration.state === 'narrated') return redirect(narration.audioKey);
    if (narration.state === 'unknown') throw notFound(`no article with id ${quoted}`);
    if (narration.state === 'pending') {
      const waited = now().getTime() - narration.discoveredAt;
      if (!deps.onRequest || waited < graceMs) {
        const retryAfter = deps.onRequest
          ? Math.max(1, Math.min(narrationRetryAfterSeconds, Math.ceil((graceMs - waited) / 1000)))
          : narrationRetryAfterSeconds;
        throw new ApiError(
          'narration_not_ready',
          `the narration of article ${quoted} is not ready yet; this URL leads to it once it is, retry after ${retryAfter} seconds`,
          { 'Retry-After': String(retryAfter) },
        );
      }
    }
    if (!deps.onRequest) {
      const status = narration.state === 'none' ? narration.status : 'other';
      throw notFound(`article ${quoted} has no narration: ${outcomes[status] ?? outcomes.other}`);
    }

    const making = deps.onRequest.narrate(articleId);
    if (!making)
      throw new ApiError(
        'service_unavailable',
        `article ${quoted} is narrated on request and this server is busy narrating others; retry after ${busyRetryAfterSeconds} seconds`,
        { 'Retry-After': String(busyRetryAfterSeconds) },
      );
    let made;
    try {
      made = await making;
    } catch (error) {
      throw speechError(error);
    }
    if (made.kind === 'narrated') return redirect(made.audioKey);
    if (made.kind === 'unknown') throw notFound(`no article with id ${quoted}`);
    throw notFound(`article ${quoted} has no narration: ${made.reason}`);
  });
}
