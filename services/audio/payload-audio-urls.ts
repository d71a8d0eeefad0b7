// Audio URLs in a payload that is stored before it is sent: a webhook delivery job is kept for 90 days on
// news.webhook-deliveries.v1 (and in the webhook_deliveries read model), where downstream teams and analysts
// read it, and a signed URL there would open another tenant's audio to them. So the job holds the
// unsigned addresses (`<base>/v1/audio/<key>`, `<base>/v1/articles/<id>/audio`, which the API refuses
// without a signature), and each attempt signs them into the body it sends, as every API answer is signed
// when it is built.
import type { AudioUrls } from './audio-urls.ts';
import { audioAddress, localApiUrl } from './audio-address.ts';
import { isAudioKey } from './audio-key.ts';

/** AudioUrls that give the unsigned addresses, for payloads that are stored (the fan-outs). */
export function unsignedAudioUrls(baseUrl: () => string): AudioUrls {
  return {
    urlFor: (key) => audioAddress(baseUrl(), key),
    urlForArticle: (articleId) =>
      `${(baseUrl() || localApiUrl).replace(/\/+$/, '')}/v1/articles/${articleId}/audio`,
  };
}

// Only the fields payloads put audio in, as JSON writes them: a title or an article's own `url` that
// happens to look like an address is left alone (inside a JSON string the quotes would be escaped).
const storedAddress =
  /"(audio_url|transcript_url|transcript_json_url)":"https?:\/\/[^"?#]*?\/v1\/(?:audio\/([^"/?#]+)|articles\/([A-Za-z0-9_-]{1,100})\/audio)"/g;

/**
 * The body to send: each unsigned audio address of the stored payload signed (with the current base URL,
 * keys and TTL). URLs stored signed by an older dispatcher, and anything else, are left as they are.
 */
export function signedPayload(body: string, audio: AudioUrls): string {
  if (!body.includes('/v1/')) return body;
  return body.replace(storedAddress, (whole, field: string, key?: string, articleId?: string) => {
    if (key !== undefined) return isAudioKey(key) ? `"${field}":"${audio.urlFor(key)}"` : whole;
    return `"${field}":"${audio.urlForArticle(articleId!)}"`;
  });
}
