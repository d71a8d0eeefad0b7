import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRealFeeds } from './feed-responses.ts';

describe('readRealFeeds', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'real-feeds-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('takes the feed files of the folder, each with its content type, and leaves the rest', () => {
    for (const name of ['README.md', 'notes.txt', 'a.rss', 'b.atom', 'c.json', 'uolNoticias.rss']) {
      writeFileSync(path.join(directory, name), name);
    }
    const feeds = readRealFeeds(directory);
    expect([...feeds.keys()]).toEqual(['a.rss', 'b.atom', 'c.json', 'uolNoticias.rss']);
    expect(feeds.get('a.rss')?.contentType).toBe('application/rss+xml');
    expect(feeds.get('b.atom')?.contentType).toBe('application/atom+xml');
    expect(feeds.get('c.json')?.contentType).toBe('application/feed+json');
    expect(feeds.get('uolNoticias.rss')?.contentType).toBe('text/xml; charset=ISO-8859-1');
  });

  it('finds every snapshot of the repository, giantbomb-podcast.rss included', () => {
    const names = [...readRealFeeds().keys()];
    expect(names).toHaveLength(17);
    expect(names).toContain('giantbomb-podcast.rss');
  });
});
