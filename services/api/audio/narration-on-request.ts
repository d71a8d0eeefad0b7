// Narration on request: every article's `audio_url` leads to audio, not only the articles the narrator
// got to. The narrator skips articles published before NARRATOR_MAX_AGE_HOURS (an archive would hold up
// today's news), may have failed on one, or may be far behind; when such an article's signed audio URL is
// fetched, the API narrates it then, the way the narrator would (the same text and format), and
// redirects to the file.
//
// Synthesis is content-addressed (audio/audio-key.ts): the second request for the article, from this
// instance or another, finds the stored file and synthesizes nothing, and so does the narrator if it
// narrates the same text later. Nothing is appended to the narration topic: the event log records what
// the narrator decided, and an on-request narration only makes a file that the URL resolves to.
//
// Synthesis takes a core for a second or more, so the API makes only a few at once (API_NARRATIONS_AT_ONCE);
// requests for an article already being narrated wait for that narration instead of starting another.
import { readArticleWords } from '../../narration/article-words.ts';
import { narrateArticle, type NarrateArticleDependencies } from '../../narration/narrate-article.ts';
import type { ArticleWords } from '../../narration/narration-text.ts';
import type { ClickHouse } from '../../runtime/clickhouse/client.ts';
import { enrichmentQuery } from '../articles/article-query.ts';

export type OnRequestNarration =
  | { kind: 'narrated'; audioKey: string }
  /** Nothing can be narrated (no text, no voice for its language) or the provider refused it. */
  | { kind: 'none'; reason: string }
  | { kind: 'unknown' };

export interface NarrationsOnRequestOptions {
  /** The article's words as the narrator reads them (read model and enrichment); null if no such article. */
  wordsOf: (articleId: string) => Promise<ArticleWords | null>;
  /** The narrator's own settings (text, format, voice choice); `retry` should be short: a client waits. */
  narration: NarrateArticleDependencies;
  /** Narrations this API instance makes at once; a request beyond them is told to come back. */
  atOnce: number;
}

export class NarrationsOnRequest {
  private readonly running = new Map<string, Promise<OnRequestNarration>>();

  constructor(private readonly options: NarrationsOnRequestOptions) {}

  /** Narrations in progress on this instance. */
  get inProgress(): number {
    return this.running.size;
  }

  /**
   * The article's narration, made now if need be; null when this instance is already making as many as it
   * may (the caller answers 503 with Retry-After). Throws what the speech provider throws when it is down.
   */
  narrate(articleId: string): Promise<OnRequestNarration> | null {
    const running = this.running.get(articleId);
    if (running) return running;
    if (this.running.size >= this.options.atOnce) return null;
    const work = this.make(articleId).finally(() => this.running.delete(articleId));
    this.running.set(articleId, work);
    return work;
  }

  private async make(articleId: string): Promise<OnRequestNarration> {
    const words = await this.options.wordsOf(articleId);
    if (!words) return { kind: 'unknown' };
    const narrated = await narrateArticle(articleId, words, this.options.narration);
    if (narrated.status === 'succeeded' && narrated.audio_key)
      return { kind: 'narrated', audioKey: narrated.audio_key };
    return { kind: 'none', reason: narrated.failure_reason ?? narrated.status };
  }
}

/**
 * An article's words as the narrator reads them: headline, feed summary and text from the read model, the
 * AI summary and language of its latest successful enrichment (the narrator's wordsOf, from stored rows).
 */
export async function readNarrationWords(
  clickhouse: ClickHouse,
  articleId: string,
): Promise<ArticleWords | null> {
  const [stored, [enrichment]] = await Promise.all([
    readArticleWords(clickhouse, [articleId]),
    clickhouse.query<{ summary: string | null; language: string | null }>(enrichmentQuery(articleId)),
  ]);
  const article = stored.get(articleId);
  if (!article) return null;
  return {
    title: article.title,
    summary: article.summary,
    content: article.content,
    aiSummary: enrichment?.summary ?? null,
    language: enrichment?.language ?? article.language,
  };
}
