// GET and HEAD /v1/articles/{id}/audio: an article's narration, for whoever holds a signed URL of it
// (services/audio/signed-url.ts) and no API key. Payloads built before the narrator finished (a webhook
// alert when narration lags) carry this URL instead of a file's, so it is resolved when it is fetched:
// a redirect to the signed URL of the file the read model holds for the article now.
//
// The signature is checked first, as for a file, so an unsigned request learns nothing, not even
// whether the article exists. The redirect is not cached: the article may be narrated again (a new
// revision), and the file URL it leads to expires; the file itself is cached for a year.
import type Router from '@koa/router';
import type { AudioUrls } from '../../audio/audio-urls.ts';
import type { AudioUrlKeys } from '../../audio/signed-url.ts';
import { ApiError, notFound } from '../../runtime/api-error.ts';
import type { ArticleNarration } from '../articles/article-store.ts';
import { requireSignature } from './url-signature.ts';

export const articleAudioPath = '/v1/articles/{id}/audio';

/**
 * When to ask again for a narration not made yet: the narrator answers within seconds of an
 * enrichment, but lags under load (which is why the URL was handed out before it had).
 */
export const narrationRetryAfterSeconds = 30;

export interface ArticleAudioRouteDependencies {
  /** Where an article's narration stands (ArticleStore.narration: the ClickHouse read models). */
  narrationOf: (articleId: string) => Promise<ArticleNarration>;
  keys: AudioUrlKeys;
  /** Signs the file URL the answer redirects to. */
  audio: Pick<AudioUrls, 'urlFor'>;
  now?: () => Date;
}

/** Why an article the narrator answered has no file (the status of its latest narration). */
const outcomes: Record<string, string> = {
  skipped: 'the narrator skipped it (no text, no voice for its language, or published too long ago)',
  failed: 'the narrator failed to narrate it',
  other: 'its narration has no file this API serves',
};

export function articleAudioRoutes(router: Router, deps: ArticleAudioRouteDependencies): void {
  const now = deps.now ?? (() => new Date());
  // @koa/router answers HEAD with every GET route: a HEAD gets the same redirect.
  router.get('/v1/articles/:id/audio', async (ctx) => {
    const articleId = ctx.params.id!;
    requireSignature(ctx, { articleId }, deps.keys, now());

    const narration = await deps.narrationOf(articleId);
    const quoted = JSON.stringify(articleId);
    switch (narration.state) {
      case 'narrated':
        ctx.status = 302;
        ctx.set({
          Location: deps.audio.urlFor(narration.audioKey),
          'Cache-Control': 'no-store',
          'Access-Control-Allow-Origin': '*',
        });
        return;
      case 'pending':
        throw new ApiError(
          'narration_not_ready',
          `the narration of article ${quoted} is not ready yet; this URL leads to it once it is, retry after ${narrationRetryAfterSeconds} seconds`,
          { 'Retry-After': String(narrationRetryAfterSeconds) },
        );
      case 'none':
        throw notFound(`article ${quoted} has no narration: ${outcomes[narration.status] ?? outcomes.other}`);
      case 'unknown':
        throw notFound(`no article with id ${quoted}`);
    }
  });
}
