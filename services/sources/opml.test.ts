import { describe, expect, it } from 'vitest';
import { parseOpml, toOpml } from './opml.ts';
import { sourceState } from './source.ts';

const sample = `<?xml version="1.0"?>
<opml version="2.0"><head><title>t</title></head><body>
  <outline text="Business">
    <outline type="rss" text="Markets &amp; Money" xmlUrl="https://feeds.example/markets.xml?utm_source=x" htmlUrl="https://example.com" language="en" country="gb"/>
  </outline>
  <outline type="rss" text="Heise" xmlUrl="https://www.heise.de/rss/heise-atom.xml" category="/technology/it" language="de" country="de" pollInterval="300"/>
  <outline type="rss" text="No country" xmlUrl="https://x.example/feed" category="/world" language="en"/>
  <outline type="rss" text="Bad language" xmlUrl="https://y.example/feed" category="/world" language="elvish" country="us"/>
  <outline type="rss" text="Bad url" xmlUrl="ftp://z.example/feed" category="/world" language="en" country="us"/>
</body></opml>`;

describe('parseOpml', () => {
  it('reads sources with category from the attribute or the enclosing folder', () => {
    const { sources } = parseOpml(sample);
    expect(sources).toEqual([
      expect.objectContaining({
        name: 'Markets & Money',
        category: 'business',
        language: 'en',
        country: 'gb',
      }),
      expect.objectContaining({
        name: 'Heise',
        category: 'technology',
        language: 'de',
        poll_interval_seconds: 300,
      }),
    ]);
  });

  it('reports each bad outline with the reason and keeps going', () => {
    const { rejected } = parseOpml(sample);
    expect(rejected.map((r) => r.outline)).toEqual(['No country', 'Bad language', 'Bad url']);
    expect(rejected[0]!.reason).toMatch(/country: country must be a lowercase ISO 3166-1 alpha-2 code/);
    expect(rejected[1]!.reason).toMatch(/language: language must be an ISO 639-1 code/);
    expect(rejected[2]!.reason).toMatch(/feed_url must be an absolute http\(s\) URL/);
  });

  it('refuses entity declarations and non-OPML documents', () => {
    expect(() => parseOpml('<!DOCTYPE x [<!ENTITY a "aaaa">]><opml><body/></opml>')).toThrow(
      /entity declarations/,
    );
    expect(() => parseOpml('<rss><channel/></rss>')).toThrow(/no <opml> root/);
  });
});

describe('toOpml', () => {
  it('round-trips sources, keeping category, language, country, interval and active', () => {
    const now = Date.UTC(2026, 10, 20);
    const sources = parseOpml(sample).sources.map((s) => sourceState(s, null, now));
    sources[1] = { ...sources[1]!, active: false };
    const again = parseOpml(toOpml(sources)).sources.map((s) => sourceState(s, null, now));
    expect(again.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      sources.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});

describe('country and language codes', () => {
  it('accepts assigned ISO codes and refuses CLDR-only, withdrawn and unknown ones', async () => {
    const { isCountryCode, isLanguageCode } = await import('./source.ts');
    for (const ok of ['gb', 'us', 'br', 'de', 'ss', 'cw']) expect(isCountryCode(ok), ok).toBe(true);
    for (const bad of ['zz', 'eu', 'un', 'uk', 'yu', 'qq', 'GB', 'gbr', ''])
      expect(isCountryCode(bad), bad).toBe(false);
    for (const ok of ['en', 'de', 'pt', 'ja']) expect(isLanguageCode(ok), ok).toBe(true);
    for (const bad of ['xx', 'eng', 'EN', 'e']) expect(isLanguageCode(bad), bad).toBe(false);
  });
});
