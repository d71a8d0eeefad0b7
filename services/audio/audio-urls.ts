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

/** What a payload knows of an article's narration when it is built. */
export interface NarrationRef {
  articleId: string;
  /** The stored narration's key, when the article was narrated before the payload was built. */
  audioKey: string | null;
  /** The unsigned address an older event carries instead of a key. */
  audioAddress: string | null;
}

/**
 * The `audio_url` of an article in a payload that is built once and read later (a webhook delivery, sent
 * the same on every retry; a stream event): the signed URL of the narration's file when its key is
 * known, else the signed URL of the article's narration, which leads to the file once the narrator has
 * made it. So a payload built while narration lags (a loaded machine) still carries audio that plays.
 * Without signing keys (a unit test that gives none) it is the address the event carries, or null.
 */
export function narrationUrl(narration: NarrationRef, audio: AudioUrls | undefined): string | null {
  if (!audio) return narration.audioAddress;
  return narration.audioKey ? audio.urlFor(narration.audioKey) : audio.urlForArticle(narration.articleId);
}
