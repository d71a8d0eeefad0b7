import { describe, expect, it } from 'vitest';
import { freshnessOf, linkTargets } from './response-hints.ts';

const now = Date.parse('2026-11-27T12:00:00Z');

describe('freshnessOf', () => {
  it('prefers max-age, treats no-cache and no-store as 0, and is null when the server is silent', () => {
    expect(freshnessOf('public, max-age=300', 'Thu, 01 Jan 2099 00:00:00 GMT', null, now)).toBe(300_000);
    expect(freshnessOf('max-age="60"', null, null, now)).toBe(60_000);
    expect(freshnessOf('no-cache, max-age=600', null, null, now)).toBe(0);
    expect(freshnessOf('private', null, null, now)).toBeNull();
    expect(freshnessOf(null, null, null, now)).toBeNull();
  });

  it('reads Expires against the response Date when there is one, and an invalid Expires as expired', () => {
    expect(freshnessOf(null, 'Fri, 27 Nov 2026 10:10:00 GMT', 'Fri, 27 Nov 2026 10:00:00 GMT', now)).toBe(
      600_000,
    );
    expect(freshnessOf(null, 'Fri, 27 Nov 2026 12:05:00 GMT', null, now)).toBe(300_000);
    expect(freshnessOf(null, 'Fri, 27 Nov 2026 11:00:00 GMT', null, now)).toBe(0);
    expect(freshnessOf(null, '0', null, now)).toBe(0);
  });
});

describe('linkTargets', () => {
  it('finds hub and self among several links and headers, resolved against the feed URL', () => {
    expect(
      linkTargets(
        ['<https://hub.example/>; rel="hub", </feed>; rel=self', '<https://a.example/>; rel="alternate"'],
        'https://news.example/x/feed',
      ),
    ).toEqual({ hubs: ['https://hub.example/'], selfUrl: 'https://news.example/feed' });
    expect(linkTargets(['<mailto:a@b>; rel="hub"', 'garbage'], 'https://news.example/')).toEqual({
      hubs: [],
      selfUrl: null,
    });
  });
});
