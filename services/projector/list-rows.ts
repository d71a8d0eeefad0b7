// The list rows of a batch of article events (`article_list`, services/search/article-list.ts), encoded
// as RowBinary straight from the articles, in the table's key order (facet, published_at, article_id):
// the rows articleRows (rows.ts) describes, five an article, without an object each. Built from objects
// they were a third of the projector's allocations, and ClickHouse sorts a block that does not arrive in
// key order (see posting-rows.ts).
//
// Most of a list row is names that repeat from article to article: the source's id and name, the
// category, the language and the facets made of them. Each is encoded once and kept (FacetNames), and
// copied into every row that has it; the shown fields (title, summary, url, publisher) are the article's own bytes
// (article-batch.ts).
import {
  RowBinaryWriter,
  encodedString,
  type BufferPool,
  type Column,
} from '../runtime/clickhouse/row-binary.ts';
import { articleFacets, facet } from '../search/article-list.ts';
import { seconds, writeText, type BatchArticle } from './article-batch.ts';

export const listTable = 'article_list';

const column = (name: string, kind: 'String' | 'DateTime' | 'UInt32' | 'UInt64'): Column => ({
  name,
  type: { kind },
});

/** The columns, in the order rows are encoded. */
export const listColumns: readonly Column[] = [
  column('facet', 'String'),
  column('published_at', 'DateTime'),
  column('article_id', 'String'),
  column('title', 'String'),
  column('summary', 'String'),
  column('source_id', 'String'),
  column('source_name', 'String'),
  column('url', 'String'),
  column('language', 'String'),
  column('category', 'String'),
  column('revision', 'UInt32'),
  { name: 'updated_at', type: { kind: 'Nullable', inner: { kind: 'DateTime' } } },
  column('title_length', 'UInt32'),
  column('summary_length', 'UInt32'),
  column('publisher_name', 'String'),
  column('publisher_url', 'String'),
  column('version', 'UInt64'),
];

/** A name and its encoding as a String value of RowBinary. */
export interface Encoded {
  text: string;
  bytes: Uint8Array;
}
const encoded = (text: string): Encoded => ({ text, bytes: encodedString(text) });

/** A source's id and name, and the facets it lists its articles under, encoded. */
interface SourceNames {
  id: Encoded;
  name: Encoded;
  /** Its two facets, as articleFacets names them (by id, by name). */
  facets: [Encoded, Encoded];
}

/** A category's or language's value and its facet, encoded. */
interface ValueNames {
  value: Encoded;
  facet: Encoded;
}

/**
 * The encoded names the batches have met, by source, category and language: a few thousand sources, a
 * dozen categories and languages. Forgets everything once it holds `capacity` of them.
 */
export class FacetNames {
  private readonly sources = new Map<string, SourceNames>();
  private readonly categories = new Map<string, ValueNames>();
  private readonly languages = new Map<string, ValueNames>();
  readonly all = encoded(facet.all);

  constructor(private readonly capacity = 100_000) {}

  source(id: string, name: string): SourceNames {
    const known = this.sources.get(id);
    if (known && known.name.text === name) return known;
    // As articleFacets names them: [all, source, source name, category, language].
    const [, byId, byName] = articleFacets({ source_id: id, source_name: name, category: '', language: '' });
    const names: SourceNames = {
      id: encoded(id),
      name: encoded(name),
      facets: [encoded(byId!), encoded(byName!)],
    };
    if (this.sources.size >= this.capacity) this.sources.clear();
    this.sources.set(id, names);
    return names;
  }

  category(value: string): ValueNames {
    return this.value(this.categories, value, 3);
  }

  language(value: string): ValueNames {
    return this.value(this.languages, value, 4);
  }

  private value(known: Map<string, ValueNames>, value: string, place: 3 | 4): ValueNames {
    let names = known.get(value);
    if (names) return names;
    const facets = articleFacets({
      source_id: '',
      source_name: '',
      category: place === 3 ? value : '',
      language: place === 4 ? value : '',
    });
    names = { value: encoded(value), facet: encoded(facets[place]!) };
    if (known.size >= this.capacity) known.clear();
    known.set(value, names);
    return names;
  }
}

/** The names every projector's batch has met so far. */
export const sharedFacetNames = new FacetNames();

const byText = (a: Encoded, b: Encoded) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);

/**
 * The list rows of these articles as RowBinary of listColumns: the facets in order of their names, each
 * facet's articles in the order given, which is the articles' key order (published_at, article_id).
 */
export function encodeListRows(
  articles: readonly BatchArticle[],
  names: FacetNames = sharedFacetNames,
  pool?: BufferPool,
): { body: Buffer; rows: number } {
  // By the facet's name (two sources of one name share their name's facet).
  const byFacet = new Map<string, { name: Encoded; listed: number[] }>();
  const add = (name: Encoded, i: number) => {
    const known = byFacet.get(name.text);
    if (known) known.listed.push(i);
    else byFacet.set(name.text, { name, listed: [i] });
  };
  const sources: SourceNames[] = [];
  const categories: ValueNames[] = [];
  const languages: ValueNames[] = [];
  articles.forEach(({ article, category, language }, i) => {
    const source = names.source(article.source_id, article.source_name);
    const c = names.category(category);
    const l = names.language(language);
    sources.push(source);
    categories.push(c);
    languages.push(l);
    add(names.all, i);
    add(source.facets[0], i);
    add(source.facets[1], i);
    add(c.facet, i);
    add(l.facet, i);
  });
  // A row under any facet but every article's ('') is the same after its facet's name: it is encoded
  // once an article (tails) and copied for each of the four.
  const tails = new RowBinaryWriter(articles.length * 160 + 4096, pool);
  const tailEnd = new Int32Array(articles.length + 1);
  articles.forEach(({ article, publishedAt, updatedAt, version }, i) => {
    const source = sources[i]!;
    tails.uint32(seconds(publishedAt));
    tails.string(article.article_id);
    tails.uint8(0); // title, summary: empty
    tails.uint8(0);
    tails.copy(source.id.bytes);
    tails.copy(source.name.bytes);
    tails.uint8(0); // url: empty
    tails.copy(languages[i]!.value.bytes);
    tails.copy(categories[i]!.value.bytes);
    tails.uint32(article.revision);
    if (updatedAt === null) tails.uint8(1);
    else {
      tails.uint8(0);
      tails.uint32(seconds(updatedAt));
    }
    tails.uint32(0); // title_length, summary_length, publisher: on every article's row only
    tails.uint32(0);
    tails.uint8(0);
    tails.uint8(0);
    tails.uint64(version);
    tailEnd[i + 1] = tails.offset;
  });
  // Sized from the batch before, so the rows are written without the buffer growing (and copied) midway.
  const w = new RowBinaryWriter(Math.ceil(articles.length * bytesPerArticle * 1.2) + 4096, pool);
  let rows = 0;
  for (const { name, listed } of [...byFacet.values()].sort((a, b) => byText(a.name, b.name))) {
    if (name.text !== facet.all) {
      for (const i of listed) {
        w.copy(name.bytes);
        w.copyRange(tails.buffer, tailEnd[i]!, tailEnd[i + 1]!);
      }
      rows += listed.length;
      continue;
    }
    for (const i of listed) {
      const { article, publishedAt, updatedAt, version, words } = articles[i]!;
      const source = sources[i]!;
      w.copy(name.bytes);
      w.uint32(seconds(publishedAt));
      w.string(article.article_id);
      writeText(w, article.title);
      writeText(w, article.summary);
      w.copy(source.id.bytes);
      w.copy(source.name.bytes);
      writeText(w, article.url);
      w.copy(languages[i]!.value.bytes);
      w.copy(categories[i]!.value.bytes);
      w.uint32(article.revision);
      if (updatedAt === null) w.uint8(1);
      else {
        w.uint8(0);
        w.uint32(seconds(updatedAt));
      }
      w.uint32(words.title_length);
      w.uint32(words.summary_length);
      writeText(w, article.publisher_name ?? '');
      writeText(w, article.publisher_url ?? '');
      w.uint64(version);
    }
    rows += listed.length;
  }
  if (articles.length > 0) bytesPerArticle = Math.max(bytesPerArticle, w.offset / articles.length);
  pool?.give(tails.buffer);
  return { body: w.bytes(), rows };
}

/** The most list bytes an article has taken in a batch so far. */
let bytesPerArticle = 1024;
