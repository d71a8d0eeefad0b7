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
// Synthesis takes a core for a second or more, so the API makes only a few at once (API_NARRATIONS_AT_ONCE),
// and a few more requests wait in line for a place; requests for an article already being narrated wait
// for that narration instead of starting another.
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
  /** Narrations this API instance makes at once. */
  atOnce: number;
  /**
   * Requests that wait for one of those places, beyond which a request is told to come back (503): a page
   * of older articles asks for a dozen at once, and an <audio> element or a podcast player does not
   * retry a 503, where it does wait for a slow answer. Default: four per place.
   */
  waiting?: number;
}

export class NarrationsOnRequest {
  private readonly running = new Map<string, Promise<OnRequestNarration>>();
  /** Places taken, and the requests waiting for one, first come first served. */
  private taken = 0;
  private readonly line: (() => void)[] = [];

  constructor(private readonly options: NarrationsOnRequestOptions) {}

  /** Narrations in progress on this instance, those waiting for a place among them. */
  get inProgress(): number {
    return this.running.size;
  }

  /**
   * The article's narration, made now if need be, or once a place is free; null when this instance is
   * already making as many as it may and as many wait (the caller answers 503 with Retry-After). Throws
   * what the speech provider throws when it is down.
   */
  narrate(articleId: string): Promise<OnRequestNarration> | null {
    const running = this.running.get(articleId);
    if (running) return running;
    const waiting = this.options.waiting ?? 4 * this.options.atOnce;
    if (this.running.size >= this.options.atOnce + waiting) return null;
    const work = this.place()
      .then(() => this.make(articleId))
      .finally(() => {
        this.leave();
        this.running.delete(articleId);
      });
    this.running.set(articleId, work);
    return work;
  }

  private place(): Promise<void> {
    if (this.taken < this.options.atOnce) {
      this.taken++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.line.push(resolve));
  }

  /** A place given up goes to the first in line (it stays taken), or is free. */
  private leave(): void {
    const next = this.line.shift();
    if (next) next();
    else this.taken--;
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
