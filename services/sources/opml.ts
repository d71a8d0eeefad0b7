// OPML import and export of sources. Our fields travel as outline
// attributes: the OPML 2.0 `category` ("/business"), plus `language`,
// `country`, `pollInterval` (seconds) and `active`. Outlines nested under a
// category folder (the common reader layout) take the folder's name as their
// category. A bad outline is reported and skipped, never fatal to the import.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { Source } from '../runtime/events/types.generated.ts';
import { sourceInput, type SourceInput } from './source.ts';

export interface OpmlImport {
  sources: SourceInput[];
  rejected: { outline: string; reason: string }[];
}

export type Outline = { [attribute: string]: unknown; outline?: Outline[] };

/** An attribute's text; anything else (a nested element by the same name) counts as absent. */
export const attr = (outline: Outline, name: string): string | undefined => {
  const value = outline[name];
  return typeof value === 'string' ? value : undefined;
};

/** OPML as a tree of outlines (attributes unprefixed); also read by catalog/build-catalog.ts. */
export const opmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  // Only XML's five predefined entities; nothing a DOCTYPE declares is ever expanded.
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => name === 'outline',
});

export function parseOpml(text: string): OpmlImport {
  if (/<!ENTITY/i.test(text))
    throw new Error('OPML with entity declarations is refused (possible entity-expansion attack)');
  let document: { opml?: { body?: { outline?: Outline[] } } };
  try {
    document = opmlParser.parse(text, true) as typeof document;
  } catch (error) {
    throw new Error(`not valid OPML: ${(error as Error).message}`, { cause: error });
  }
  const outlines = document.opml?.body?.outline;
  if (!document.opml) throw new Error('not OPML: no <opml> root element');
  const result: OpmlImport = { sources: [], rejected: [] };
  const visit = (list: Outline[] | undefined, folder: string | null) => {
    for (const outline of list ?? []) {
      const label = attr(outline, 'title') ?? attr(outline, 'text') ?? attr(outline, 'xmlUrl') ?? '(unnamed)';
      const feedUrl = attr(outline, 'xmlUrl');
      if (!feedUrl) {
        visit(
          outline.outline,
          (attr(outline, 'text') ?? attr(outline, 'title') ?? '').trim().toLowerCase() || folder,
        );
        continue;
      }
      const category = (attr(outline, 'category') ?? '')
        .split(',')[0]!
        .replace(/^\/+/, '')
        .split('/')[0]!
        .trim()
        .toLowerCase();
      const candidate = {
        name: label,
        feed_url: feedUrl,
        site_url: attr(outline, 'htmlUrl') ?? null,
        category: category || folder || undefined,
        language: attr(outline, 'language'),
        country: attr(outline, 'country'),
        active: attr(outline, 'active') !== 'false',
        poll_interval_seconds:
          attr(outline, 'pollInterval') === undefined ? undefined : Number(attr(outline, 'pollInterval')),
      };
      const parsed = sourceInput.safeParse(candidate);
      if (parsed.success) result.sources.push(candidate as SourceInput);
      else
        result.rejected.push({
          outline: label,
          reason: parsed.error.issues
            .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
            .join('; '),
        });
    }
  };
  visit(outlines, null);
  return result;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
});

export function toOpml(sources: readonly Source[], title = 'News sources', now = new Date()): string {
  const byCategory = new Map<string, Source[]>();
  for (const s of [...sources].sort((a, b) => a.name.localeCompare(b.name))) {
    byCategory.set(s.category, [...(byCategory.get(s.category) ?? []), s]);
  }
  const body = [...byCategory.keys()].sort().map((category) => ({
    text: category,
    title: category,
    outline: byCategory.get(category)!.map((s) => ({
      type: 'rss',
      text: s.name,
      title: s.name,
      xmlUrl: s.feed_url,
      ...(s.site_url ? { htmlUrl: s.site_url } : {}),
      category: `/${s.category}`,
      language: s.language,
      country: s.country,
      pollInterval: String(s.poll_interval_seconds),
      ...(s.active ? {} : { active: 'false' }),
    })),
  }));
  const xml = builder.build({
    opml: { version: '2.0', head: { title, dateCreated: now.toUTCString() }, body: { outline: body } },
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}
