// Signs the audio keys of an answer into URLs, when the answer is built: signed URLs are never stored,
// so rotating keys or changing the TTL never leaves dead links in a read model.
import { signArticleAudioUrl, signAudioUrl, type AudioUrlKeys } from './signed-url.ts';

export interface AudioUrls {
  /** The absolute, signed, expiring URL of a stored audio file. */
  urlFor(key: string): string;
  /**
   * The absolute, signed, expiring URL of an article's narration, with the same keys and TTL: the API
   * resolves it when it is fetched, redirecting to the file once the article is narrated.
   */
  urlForArticle(articleId: string): string;
}

export function audioUrls(options: {
  /** The API's public base URL; read on every call, since it may only be known once the API listens. */
  baseUrl: () => string;
  keys: AudioUrlKeys;
  ttlSeconds: number;
  now?: () => Date;
}): AudioUrls {
  const now = options.now ?? (() => new Date());
  const signing = () => ({ baseUrl: options.baseUrl(), keys: options.keys, ttlSeconds: options.ttlSeconds });
  return {
    urlFor: (key) => signAudioUrl(key, now(), signing()),
    urlForArticle: (articleId) => signArticleAudioUrl(articleId, now(), signing()),
  };
}
