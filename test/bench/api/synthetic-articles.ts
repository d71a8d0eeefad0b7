// A million-article stream for benchmarks, built from the BBC corpus. The
// corpus has only a hundred stories, so each copy is varied (a sentence
// dropped, one borrowed from a story of the same topic, another lead as the
// summary): ClickHouse then compresses and scans text that repeats about as
// much as real news does, instead of a hundred strings it can fold away.
// Everything is a pure function of the index, so nothing is held in memory and
// two runs produce the same articles.
import { categories, type Category } from '../../../services/runtime/categories.ts';
import type { ArticleDiscovered } from '../../../services/runtime/events/types.generated.ts';
import { articleId } from '../../../services/feeds/normalise/article-id.ts';
import { sourceIdFor } from '../../../services/sources/source.ts';
import type { CorpusArticle } from '../../../services/demo/corpus.ts';
import { discoveredArticle } from '../../support/discovered-article.ts';

export interface SyntheticSource {
  id: string;
  name: string;
  slug: string;
  language: string;
  /** The section a sectioned source files everything under; null: it files by the story's topic. */
  section: Category | null;
}

// 35 places x 20 mastheads = 700 sources; the place decides the language.
const places: [string, string][] = [
  ['London', 'en'],
  ['Leeds', 'en'],
  ['Bristol', 'en'],
  ['Glasgow', 'en'],
  ['Cardiff', 'en'],
  ['Belfast', 'en'],
  ['Dublin', 'en'],
  ['Boston', 'en'],
  ['Denver', 'en'],
  ['Austin', 'en'],
  ['Seattle', 'en'],
  ['Toronto', 'en'],
  ['Sydney', 'en'],
  ['Auckland', 'en'],
  ['Cape Town', 'en'],
  ['Mumbai', 'en'],
  ['Singapore', 'en'],
  ['Nairobi', 'en'],
  ['Manchester', 'en'],
  ['Chicago', 'en'],
  ['Berlin', 'de'],
  ['Hamburg', 'de'],
  ['Wien', 'de'],
  ['Zürich', 'de'],
  ['Paris', 'fr'],
  ['Lyon', 'fr'],
  ['Montréal', 'fr'],
  ['Madrid', 'es'],
  ['Sevilla', 'es'],
  ['Buenos Aires', 'es'],
  ['México', 'es'],
  ['Lisboa', 'pt'],
  ['São Paulo', 'pt'],
  ['Roma', 'it'],
  ['Milano', 'it'],
];
const mastheads = [
  'Herald',
  'Gazette',
  'Times',
  'Post',
  'Chronicle',
  'Tribune',
  'Courier',
  'Echo',
  'Observer',
  'Journal',
  'Mail',
  'Express',
  'Star',
  'News',
  'Standard',
  'Mercury',
  'Record',
  'Sentinel',
  'Telegraph',
  'Daily',
];
const authors = ['Ana Souza', 'Ben Clarke', 'Chloé Martin', 'David Osei', 'Eva Müller', 'Farah Khan'];

/** The corpus's five topics as our categories. */
const topicCategory: Record<string, Category> = {
  business: 'business',
  entertainment: 'entertainment',
  politics: 'politics',
  sport: 'sports',
  tech: 'technology',
};

const slugOf = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const syntheticSources: SyntheticSource[] = places.flatMap(([place, language], p) =>
  mastheads.map((masthead, m) => {
    const name = `${place} ${masthead}`;
    const slug = slugOf(name);
    const n = p * mastheads.length + m;
    return {
      id: sourceIdFor(`https://www.${slug}.example/feed.xml`),
      name,
      slug,
      language,
      section: n % 2 === 0 ? categories[(n / 2) % categories.length]! : null,
    };
  }),
);

/** A well-mixed 32-bit hash of an integer (the "lowbias32" finaliser): a PRNG indexed by position. */
function mix(n: number): number {
  let x = n >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}
const unit = (n: number) => mix(n) / 2 ** 32;

export interface SyntheticArticles {
  sources: readonly SyntheticSource[];
  article(index: number): ArticleDiscovered;
}

/** Articles published over the `days` up to `now`, spread evenly at random. */
export function syntheticArticles(
  corpus: readonly CorpusArticle[],
  options: { now: number; days: number },
): SyntheticArticles {
  if (corpus.length === 0) throw new Error('the corpus is empty');
  const byTopic = new Map<string, CorpusArticle[]>();
  for (const a of corpus) byTopic.set(a.category, [...(byTopic.get(a.category) ?? []), a]);
  const span = options.days * 86_400_000;

  const article = (index: number): ArticleDiscovered => {
    const base = corpus[index % corpus.length]!;
    const copy = Math.floor(index / corpus.length);
    const source = syntheticSources[mix(index * 3 + 1) % syntheticSources.length]!;
    const sameTopic = byTopic.get(base.category)!;
    const borrowed = sameTopic[mix(index * 3 + 2) % sameTopic.length]!;
    const sentences = base.paragraphs.filter((_, k) => k === 0 || (k + copy) % 7 !== 0);
    const extra = borrowed.paragraphs[copy % Math.max(1, borrowed.paragraphs.length)];
    if (extra) sentences.splice(1 + (copy % sentences.length), 0, extra);
    const lead = base.paragraphs[copy % 3 === 2 && base.paragraphs.length > 1 ? 1 : 0] ?? '';

    const publishedAt = options.now - Math.floor(unit(index * 3) * span);
    const discoveredAt = Math.min(options.now, publishedAt + (mix(index) % 600_000));
    const category = source.section ?? topicCategory[base.category] ?? 'general';
    const day = new Date(publishedAt).toISOString().slice(0, 10).replace(/-/g, '/');
    const url = `https://www.${source.slug}.example/${category}/${day}/${slugOf(base.title)}-${index}`;
    return discoveredArticle(articleId(source.id, url, url), discoveredAt, {
      source_id: source.id,
      source_name: source.name,
      guid: url,
      url,
      original_url: `${url}?utm_source=rss&utm_medium=feed`,
      title: base.title,
      summary: lead,
      content: sentences.join('\n\n'),
      author: index % 2 === 0 ? null : authors[index % authors.length]!,
      published_at: publishedAt,
      language: source.language,
      category,
      image_url: index % 3 === 0 ? null : `https://img.${source.slug}.example/${index}.jpg`,
    });
  };
  return { sources: syntheticSources, article };
}
