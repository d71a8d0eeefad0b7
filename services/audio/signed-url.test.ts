import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { audioKey } from './audio-key.ts';
import {
  audioUrlExpiry,
  parseAudioUrlKeys,
  signArticleAudioUrl,
  signAudioUrl,
  verifyAudioUrl,
  type AudioUrlKeys,
  type AudioUrlRequest,
} from './signed-url.ts';

const secretA = Buffer.alloc(32, 1).toString('base64url');
const secretB = Buffer.alloc(32, 2).toString('base64url');
const key = audioKey('mp3', ['embedded', 'en-US', 'en', 1, 'Hello.']);
const otherKey = audioKey('mp3', ['embedded', 'en-US', 'en', 1, 'Goodbye.']);
const now = new Date('2030-01-01T12:00:00Z');
const day = 86_400;

const signing = (keys: AudioUrlKeys, ttlSeconds = day) => ({
  baseUrl: 'https://news.example/api/',
  keys,
  ttlSeconds,
});

/** What the route reads from a signed URL. */
function requestOf(url: string): AudioUrlRequest {
  const parsed = new URL(url);
  return {
    key: decodeURIComponent(parsed.pathname.split('/').pop()!),
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
  };
}

const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('signAudioUrl', () => {
  const keys = parseAudioUrlKeys(`a:${secretA}`);

  it('makes an absolute URL under the base, naming the key, the expiry and the signing kid', () => {
    const url = signAudioUrl(key, now, signing(keys));
    expect(url).toMatch(
      new RegExp(
        `^https://news\\.example/api/v1/audio/${key}\\?expires=\\d+&signature=a\\.[A-Za-z0-9_-]{43}$`,
      ),
    );
    const verdict = verifyAudioUrl(requestOf(url), now, keys);
    expect(verdict).toEqual({ ok: true, expires: Number(new URL(url).searchParams.get('expires')) });
  });

  it('gives the same URL to answers built within one step, so a player cache keeps hitting', () => {
    // now is on a whole hour, so one second later opens a step
    const first = signAudioUrl(key, later(1), signing(keys));
    expect(signAudioUrl(key, later(60), signing(keys))).toBe(first);
    expect(signAudioUrl(key, later(3_600), signing(keys))).toBe(first);
    expect(signAudioUrl(key, later(3_601), signing(keys))).not.toBe(first);
    expect(signAudioUrl(otherKey, now, signing(keys))).not.toBe(first);
  });

  it('refuses to sign what is not an audio key', () => {
    expect(() => signAudioUrl('../secret.mp3', now, signing(keys))).toThrow(/not an audio key/);
  });
});

describe('audioUrlExpiry', () => {
  it('is at least one TTL away and at most one step (a tenth of the TTL, up to an hour) more', () => {
    const nowSeconds = now.getTime() / 1000;
    for (const [ttl, step] of [
      [day, 3_600],
      [600, 60],
      [60, 6],
    ] as const) {
      for (const offset of [0, 1, 17, 3_599]) {
        const at = new Date((nowSeconds + offset) * 1000);
        const expires = audioUrlExpiry(at, ttl);
        expect(expires - (nowSeconds + offset)).toBeGreaterThanOrEqual(ttl);
        expect(expires - (nowSeconds + offset)).toBeLessThan(ttl + step);
        expect(expires % step).toBe(0);
      }
    }
  });
});

describe('verifyAudioUrl', () => {
  const keys = parseAudioUrlKeys(`a:${secretA}`);
  const url = signAudioUrl(key, now, signing(keys));
  const good = requestOf(url);

  it('accepts the URL until its expiry and not from that second on', () => {
    const expires = Number(good.expires);
    const expiresAt = new Date(expires * 1000);
    expect(verifyAudioUrl(good, new Date(expiresAt.getTime() - 1), keys).ok).toBe(true);
    expect(verifyAudioUrl(good, expiresAt, keys)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyAudioUrl(good, later(40 * day), keys)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses the signature for another key', () => {
    expect(verifyAudioUrl({ ...good, key: otherKey }, now, keys)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses a later expiry written into the URL', () => {
    const stretched = { ...good, expires: String(Number(good.expires) + 3_600) };
    expect(verifyAudioUrl(stretched, now, keys)).toEqual({ ok: false, reason: 'tampered' });
    // and one that is expired does not say "expired": nothing tells a forger which part is wrong
    expect(verifyAudioUrl({ ...good, expires: '1' }, now, keys)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses an altered signature, including another spelling of the same bytes', () => {
    const [kid, mac] = good.signature!.split('.') as [string, string];
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(verifyAudioUrl({ ...good, signature: `${kid}.${flipped}` }, now, keys)).toEqual({
      ok: false,
      reason: 'tampered',
    });
    // The last of 43 characters carries 2 unused bits: a spelling that decodes the same is still refused.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const index = last.indexOf(mac.at(-1)!);
    const sibling = last[index ^ 1]!;
    expect(Buffer.from(mac.slice(0, -1) + sibling, 'base64url').equals(Buffer.from(mac, 'base64url'))).toBe(
      true,
    );
    expect(verifyAudioUrl({ ...good, signature: `${kid}.${mac.slice(0, -1)}${sibling}` }, now, keys)).toEqual(
      {
        ok: false,
        reason: 'malformed',
      },
    );
  });

  it('refuses a kid it does not hold, and a URL signed with another secret under the same kid', () => {
    const [, mac] = good.signature!.split('.') as [string, string];
    expect(verifyAudioUrl({ ...good, signature: `z.${mac}` }, now, keys)).toEqual({
      ok: false,
      reason: 'unknown-kid',
    });
    const impostor = requestOf(signAudioUrl(key, now, signing(parseAudioUrlKeys(`a:${secretB}`))));
    expect(verifyAudioUrl(impostor, now, keys)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('still verifies URLs signed with a rotated-out key while it is listed, and signs with the new one', () => {
    const rotated = parseAudioUrlKeys(`b:${secretB},a:${secretA}`);
    expect(verifyAudioUrl(good, now, rotated).ok).toBe(true);
    const fresh = requestOf(signAudioUrl(key, now, signing(rotated)));
    expect(fresh.signature).toMatch(/^b\./);
    expect(verifyAudioUrl(fresh, now, rotated).ok).toBe(true);
    // once the old key is dropped, its URLs stop working
    expect(verifyAudioUrl(good, now, parseAudioUrlKeys(`b:${secretB}`))).toEqual({
      ok: false,
      reason: 'unknown-kid',
    });
  });

  it('refuses unsigned and malformed requests', () => {
    expect(verifyAudioUrl({ key, expires: undefined, signature: undefined }, now, keys)).toEqual({
      ok: false,
      reason: 'unsigned',
    });
    expect(verifyAudioUrl({ ...good, signature: undefined }, now, keys).ok).toBe(false);
    for (const bad of [
      { ...good, expires: '-5' },
      { ...good, expires: '1e10' },
      { ...good, expires: '' },
      // The same instant spelled with leading zeros: a URL has one form.
      { ...good, expires: `0${good.expires}` },
      { ...good, expires: '0' },
      { ...good, signature: 'no-dot' },
      { ...good, signature: `a.${'x'.repeat(42)}` },
      { ...good, signature: `a.b.${'x'.repeat(43)}` },
      { ...good, key: '../x.mp3' },
    ]) {
      expect(verifyAudioUrl(bad, now, keys), JSON.stringify(bad)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});

describe('parseAudioUrlKeys', () => {
  it('falls back to the public development key when empty, and says so', () => {
    for (const empty of [undefined, '', '  ']) {
      const keys = parseAudioUrlKeys(empty);
      expect(keys.development).toBe(true);
      expect(keys.signing.secret.length).toBe(32);
    }
    expect(parseAudioUrlKeys(`a:${secretA}`).development).toBe(false);
  });

  it('names the problem, never the secret', () => {
    const short = Buffer.alloc(16, 9).toString('base64url');
    for (const [text, message] of [
      [`a:${short}`, /at least 32 bytes/],
      [`a:${secretA},a:${secretB}`, /used twice/],
      [secretA, /kid/],
      [`bad kid:${secretA}`, /kid/],
      [`a:${secretA.slice(0, 20)}!${secretA.slice(21)}`, /base64url/],
      [',', /no keys/],
    ] as const) {
      expect(() => parseAudioUrlKeys(text)).toThrow(message);
      try {
        parseAudioUrlKeys(text);
      } catch (error) {
        expect((error as Error).message).not.toContain(secretA.slice(0, 20));
      }
    }
  });
});

describe('signArticleAudioUrl', () => {
  const keys = parseAudioUrlKeys(`a:${secretA}`);
  const articleId = 'art_0123456789abcdef0123456789abcdef';

  /** What the article route reads from a signed URL: the id between /v1/articles/ and /audio. */
  function articleRequestOf(url: string): AudioUrlRequest {
    const parsed = new URL(url);
    const [, id] = /^\/api\/v1\/articles\/([^/]+)\/audio$/.exec(parsed.pathname) ?? [];
    return {
      articleId: id!,
      expires: parsed.searchParams.get('expires') ?? undefined,
      signature: parsed.searchParams.get('signature') ?? undefined,
    };
  }

  const url = signArticleAudioUrl(articleId, now, signing(keys));
  const good = articleRequestOf(url);

  it("makes an absolute URL of the article's narration under the base, verified for that article", () => {
    expect(url).toMatch(
      new RegExp(
        `^https://news\\.example/api/v1/articles/${articleId}/audio\\?expires=\\d+&signature=a\\.[A-Za-z0-9_-]{43}$`,
      ),
    );
    // the same TTL and rounding as a file's URL
    expect(good.expires).toBe(new URL(signAudioUrl(key, now, signing(keys))).searchParams.get('expires'));
    expect(verifyAudioUrl(good, now, keys)).toEqual({ ok: true, expires: Number(good.expires) });
  });

  it('signs an article under a label of its own, and a file as it always has', () => {
    const expires = Number(good.expires);
    const hmac = (message: string) =>
      createHmac('sha256', Buffer.from(secretA, 'base64url')).update(message).digest('base64url');
    expect(good.signature).toBe(`a.${hmac(`article-audio-url-v1\n${articleId}\n${expires}`)}`);
    // URLs handed out before articles had URLs (a webhook's live for days) keep their signature
    const file = requestOf(signAudioUrl(key, now, signing(keys)));
    expect(file.signature).toBe(`a.${hmac(`audio-url-v1\n${key}\n${expires}`)}`);
  });

  it("never takes a file's signature for an article's, nor an article's for a file's, even under the same name", () => {
    // An audio key is also a well-formed article id: only the label tells the two apart.
    const file = requestOf(signAudioUrl(key, now, signing(keys)));
    const fileAsArticle = { articleId: key, expires: file.expires, signature: file.signature };
    expect(verifyAudioUrl(fileAsArticle, now, keys)).toEqual({ ok: false, reason: 'tampered' });
    const article = articleRequestOf(signArticleAudioUrl(key, now, signing(keys)));
    expect(verifyAudioUrl(article, now, keys).ok).toBe(true);
    const articleAsFile = { key, expires: article.expires, signature: article.signature };
    expect(verifyAudioUrl(articleAsFile, now, keys)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses the signature for another article, a stretched expiry, and an expired URL', () => {
    expect(verifyAudioUrl({ ...good, articleId: 'art_other' }, now, keys)).toEqual({
      ok: false,
      reason: 'tampered',
    });
    const stretched = { ...good, expires: String(Number(good.expires) + 3_600) };
    expect(verifyAudioUrl(stretched, now, keys)).toEqual({ ok: false, reason: 'tampered' });
    const expiresAt = new Date(Number(good.expires) * 1000);
    expect(verifyAudioUrl(good, new Date(expiresAt.getTime() - 1), keys).ok).toBe(true);
    expect(verifyAudioUrl(good, expiresAt, keys)).toEqual({ ok: false, reason: 'expired' });
  });

  it('names only ids a URL path carries as they are, and refuses any other as malformed', () => {
    for (const id of ['', '..', '.hidden', 'a/b', 'a b', 'a%2Fb', 'é', 'x'.repeat(201)]) {
      expect(() => signArticleAudioUrl(id, now, signing(keys)), id).toThrow(/not an article id/);
      expect(verifyAudioUrl({ ...good, articleId: id }, now, keys), id).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(verifyAudioUrl({ ...good, signature: undefined }, now, keys)).toEqual({
      ok: false,
      reason: 'unsigned',
    });
  });
});
