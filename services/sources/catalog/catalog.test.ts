// The bundled catalog (default.opml): large, valid, deduplicated, broad, and every feed traceable to an
// openly licensed origin list that docs/operations.md names.
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import { isCategory } from '../../runtime/categories.ts';
import { parseOpml } from '../opml.ts';
import { isCountryCode, isLanguageCode, sourceState } from '../source.ts';
import { buildCatalog, catalogOpml, origins } from './build-catalog.ts';

const text = readFileSync(new URL('./default.opml', import.meta.url), 'utf8');
const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
const { sources, rejected } = parseOpml(text);
const states = sources.map((s) => sourceState(s, null, 0));

type Outline = { [attribute: string]: unknown; outline?: Outline[] };
const feedOutlines = (() => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'outline',
  });
  const doc = parser.parse(text) as { opml: { body: { outline: Outline[] } } };
  const all: Outline[] = [];
  const walk = (list: Outline[] | undefined) => {
    for (const o of list ?? []) {
      if (o.xmlUrl) all.push(o);
      else walk(o.outline);
    }
  };
  walk(doc.opml.body.outline);
  return all;
})();

describe('the bundled catalog', () => {
  it('has at least 700 feeds, every outline accepted by parseOpml', () => {
    expect(rejected).toEqual([]);
    expect(feedOutlines.length).toBe(sources.length);
    expect(sources.length).toBeGreaterThanOrEqual(700);
  });

  it('has syntactically valid http(s) feed and site URLs, unique after canonicalisation', () => {
    for (const s of sources) {
      expect(canonicalUrl(s.feed_url), s.feed_url).toMatch(/^https?:\/\/[^/\s]+\.[^/\s]+\//);
      if (s.site_url) expect(canonicalUrl(s.site_url), s.site_url).toMatch(/^https?:\/\//);
    }
    expect(new Set(states.map((s) => s.feed_url)).size).toBe(states.length);
    expect(new Set(states.map((s) => s.source_id)).size).toBe(states.length);
  });

  it('has a valid category, language and country on every feed', () => {
    for (const s of states) {
      expect(isCategory(s.category), `${s.name}: ${s.category}`).toBe(true);
      expect(isLanguageCode(s.language), `${s.name}: ${s.language}`).toBe(true);
      expect(isCountryCode(s.country), `${s.name}: ${s.country}`).toBe(true);
      expect(s.name.length).toBeLessThanOrEqual(200);
    }
  });

  it('spreads over categories, languages and countries', () => {
    expect(new Set(states.map((s) => s.category)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(states.map((s) => s.language)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(states.map((s) => s.country)).size).toBeGreaterThanOrEqual(30);
  });

  it('names the origin list of every feed, and docs/operations.md names every origin with its URL and licence', () => {
    const used = new Set<string>();
    for (const o of feedOutlines) {
      expect(typeof o.origin, String(o.xmlUrl)).toBe('string');
      used.add(o.origin as string);
    }
    const known = new Map(origins.map((o) => [o.id, o]));
    for (const id of used) {
      const origin = known.get(id);
      expect(origin, id).toBeDefined();
      expect(docs).toContain(id);
      expect(docs).toContain(origin!.url);
      expect(docs).toContain(origin!.licence);
      expect(text).toContain(origin!.url);
    }
  });

  it('is what build-catalog.ts makes of the origin lists', () => {
    expect(catalogOpml(buildCatalog())).toBe(text);
  });
});
