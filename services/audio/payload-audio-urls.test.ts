import { describe, expect, it } from 'vitest';
import { audioUrls } from './audio-urls.ts';
import { signedPayload, unsignedAudioUrls } from './payload-audio-urls.ts';
import { parseAudioUrlKeys, verifyAudioUrl } from './signed-url.ts';

const base = 'https://news.example.com/api';
const keys = parseAudioUrlKeys(undefined);
const now = new Date(Date.UTC(2026, 11, 7, 10, 0, 0));
const signing = audioUrls({ baseUrl: () => base, keys, ttlSeconds: 7 * 86_400, now: () => now });
const stored = unsignedAudioUrls(() => base);
const key = `${'a1'.repeat(20)}.mp3`;
const vtt = `${'b2'.repeat(20)}.vtt`;

describe('audio URLs in a stored payload', () => {
  it('are stored as the unsigned addresses, which the API refuses without a signature', () => {
    expect(stored.urlFor(key)).toBe(`${base}/v1/audio/${key}`);
    expect(stored.urlForArticle('art_1f')).toBe(`${base}/v1/articles/art_1f/audio`);
    expect(unsignedAudioUrls(() => '').urlFor(key)).toBe(`http://127.0.0.1:8080/v1/audio/${key}`);
  });

  it('are signed into the body sent, file and article narration alike, and nothing else changes', () => {
    const payload = {
      event: 'documentary.ready',
      data: {
        title: `see "audio_url":"${base}/v1/audio/${key}"`,
        url: `${base}/v1/audio/${key}`,
        audio_url: stored.urlFor(key),
        transcript_url: stored.urlFor(vtt),
        transcript_json_url: null,
        article: { audio_url: stored.urlForArticle('art_1f') },
      },
    };
    const sent = JSON.parse(signedPayload(JSON.stringify(payload), signing)) as typeof payload;
    expect(sent.data.audio_url).toBe(signing.urlFor(key));
    expect(sent.data.audio_url).toMatch(/\?expires=\d+&signature=dev\./);
    expect(sent.data.transcript_url).toBe(signing.urlFor(vtt));
    expect(sent.data.article.audio_url).toBe(signing.urlForArticle('art_1f'));
    // A title quoting an address, and an article's own URL, are not audio fields.
    expect(sent.data.title).toBe(payload.data.title);
    expect(sent.data.url).toBe(payload.data.url);
    expect(sent.data.transcript_json_url).toBeNull();
    const query = new URL(sent.data.audio_url).searchParams;
    expect(
      verifyAudioUrl(
        { key, expires: query.get('expires') ?? undefined, signature: query.get('signature') ?? undefined },
        now,
        keys,
      ),
    ).toMatchObject({ ok: true });
  });

  it('leaves a URL an older dispatcher stored signed, a malformed key and a body without audio as they are', () => {
    const old = JSON.stringify({ data: { audio_url: signing.urlFor(key) } });
    expect(signedPayload(old, signing)).toBe(old);
    const odd = JSON.stringify({ data: { audio_url: `${base}/v1/audio/..%2Fetc` } });
    expect(signedPayload(odd, signing)).toBe(odd);
    const plain = JSON.stringify({ event: 'webhook.test', data: { audio_url: null } });
    expect(signedPayload(plain, signing)).toBe(plain);
  });
});
