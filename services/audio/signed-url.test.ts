import { describe, expect, it } from 'vitest';
import { audioKey } from './audio-key.ts';
import {
  audioUrlExpiry,
  parseAudioUrlKeys,
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
