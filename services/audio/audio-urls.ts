// Signs the audio keys of an answer into URLs, when the answer is built: signed URLs are never stored,
// so rotating keys or changing the TTL never leaves dead links in a read model.
import { signAudioUrl, type AudioUrlKeys } from './signed-url.ts';

export interface AudioUrls {
  /** The absolute, signed, expiring URL of a stored audio file. */
  urlFor(key: string): string;
}

export function audioUrls(options: {
  /** The API's public base URL; read on every call, since it may only be known once the API listens. */
  baseUrl: () => string;
  keys: AudioUrlKeys;
  ttlSeconds: number;
  now?: () => Date;
}): AudioUrls {
  const now = options.now ?? (() => new Date());
  return {
    urlFor: (key) =>
      signAudioUrl(key, now(), {
        baseUrl: options.baseUrl(),
        keys: options.keys,
        ttlSeconds: options.ttlSeconds,
      }),
  };
}
