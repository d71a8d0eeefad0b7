// The stored form of what the poller remembers of an article: written by hand for speed, so pinned here
// to the JSON of the stored record it stands for (records already in Redis must keep reading the same).
// And what an article's alias is made of: the URL without what a feed changes at every fetch, and never
// without what tells one article's page from another's.
import { describe, expect, it } from 'vitest';
import { readerFields } from '../feeds/normalise/reader-fields.ts';
import { unknownHash, type Fingerprint } from './article-fingerprint.ts';
import type { ArticleRecord } from './article-revision.ts';
import { articleAlias, decodeRecord, encodeRecord } from './seen-articles.ts';

function randomRecords(count: number, seed: number): ArticleRecord[] {
  let s = seed;
  const random = () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const times = [null, 0, -1, 1.5, NaN, Infinity, 1_764_000_000_000, Number.MAX_SAFE_INTEGER];
  const time = () =>
    random() < 0.5 ? times[Math.floor(random() * times.length)]! : Math.floor(random() * 2e12);
  return Array.from({ length: count }, () => ({
    revision: 1 + Math.floor(random() * 9),
    fingerprint: Object.fromEntries(
      readerFields.map((field) => [
        field,
        Math.floor(random() * 2 ** 48)
          .toString(16)
          .padStart(12, '0'),
      ]),
    ) as Fingerprint,
    firstPublishedAt: time(),
    firstDiscoveredAt: time(),
    lastRevisionAt: time(),
    recentUpdates: Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 2e12)),
  }));
}

describe('encodeRecord', () => {
  it('writes the JSON of the stored record, hashes in readerFields order', () => {
    for (const record of randomRecords(2_000, 3)) {
      const stored = {
        v: 2,
        r: record.revision,
        h: readerFields.map((field) => record.fingerprint[field]),
        p: record.firstPublishedAt,
        d: record.firstDiscoveredAt,
        l: record.lastRevisionAt,
        u: [...record.recentUpdates],
      };
      expect(encodeRecord(record)).toBe(JSON.stringify(stored));
    }
  });

  it('reads back as the record it was written from', () => {
    for (const record of randomRecords(500, 5).filter((r) =>
      [r.firstPublishedAt, r.firstDiscoveredAt, r.lastRevisionAt].every(
        (t) => t === null || Number.isFinite(t),
      ),
    ))
      expect(decodeRecord(encodeRecord(record))).toEqual(record);
  });

  it('reads a record written before the link was a reader field, its link hash unknown', () => {
    const legacy = '{"v":2,"r":3,"h":["a1","b2","c3","d4","e5"],"p":1,"d":2,"l":3,"u":[3]}';
    expect(decodeRecord(legacy)).toEqual({
      revision: 3,
      fingerprint: {
        title: 'a1',
        summary: 'b2',
        content: 'c3',
        author: 'd4',
        published_at: 'e5',
        url: unknownHash,
      },
      firstPublishedAt: 1,
      firstDiscoveredAt: 2,
      lastRevisionAt: 3,
      recentUpdates: [3],
    });
    expect(decodeRecord('{"v":2,"r":3,"h":["a1","b2","c3","d4"],"p":1,"d":2,"l":3,"u":[]}')).toBeNull();
  });
});

describe('articleAlias', () => {
  const article = { source_id: 'SRC_A', url: 'https://x.example/a?ts=1764000000', title: 'Minister resigns' };

  it('is the same for the same page under the same title, whatever the fetch added', () => {
    expect(articleAlias(article)).toBe(
      articleAlias({ ...article, url: 'https://x.example/a?ts=1764000300' }),
    );
  });

  it('is the same when the site moves to https or drops its "www."', () => {
    expect(articleAlias({ ...article, url: 'http://x.example/a' })).toBe(
      articleAlias({ ...article, url: 'https://www.x.example/a' }),
    );
  });

  it('differs with the source, the page or the title', () => {
    expect(articleAlias({ ...article, source_id: 'SRC_B' })).not.toBe(articleAlias(article));
    expect(articleAlias({ ...article, url: 'https://x.example/b' })).not.toBe(articleAlias(article));
    expect(articleAlias({ ...article, title: 'Minister stays' })).not.toBe(articleAlias(article));
  });
});
