// The article events of a batch as the projector writes them: each article's row of `articles`, encoded as
// RowBinary straight from the event (no row object), and what its list rows and postings need
// (list-rows.ts, posting-rows.ts).
//
// The fields the projector only copies through (the body, the urls, the title and summary, the author)
// are not decoded: Avro's `string` and `bytes` are encoded alike, so a reader schema that declares them
// `bytes` resolves the registered writer's `string` (projectorTypes), and its bytes are read as where
// they are in the message (RawText), which RowBinary, whose strings are UTF-8 too, copies as they are.
// Decoding every body into a JavaScript string only to encode it back to UTF-8 was, with the garbage it
// left, a fifth of the projector's CPU; a Buffer copied out for each field, half of what was left of the
// decoding. An event decoded with the ordinary schema (strings) is written the same way, byte for byte
// (article-batch.test.ts).
import avro from 'avsc';
import {
  RowBinaryWriter,
  type BufferPool,
  type Column,
  type ColumnType,
} from '../runtime/clickhouse/row-binary.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { localTypes } from '../runtime/kafka/registry.ts';
import { topicCatalog, topicNames, type TopicSpec } from '../runtime/kafka/topics.ts';
import { articlePostings, type Postings } from '../search/article-terms.ts';
import { isAscii, type PostingRows } from './posting-rows.ts';

/** The fields of an article event the projector copies into its rows without looking at them as text. */
export const rawFields = [
  'url',
  'original_url',
  'guid',
  'title',
  'summary',
  'content',
  'author',
  'image_url',
  'publisher_name',
  'publisher_url',
] as const;
type RawField = (typeof rawFields)[number];

/**
 * Where a field's UTF-8 is in the message it was read from: [start, end) of `bytes`. The projector's reader
 * schema reads the raw fields as these, neither copying the bytes nor making a Buffer of each.
 */
export interface RawText {
  readonly bytes: Buffer;
  readonly start: number;
  readonly end: number;
}

/** A field's text: a string, or where its UTF-8 is (RawText). */
export type Text = string | RawText;

/** An article event as the projector reads it: ArticleDiscovered with the copied fields as Text. */
export type ProjectedArticle = Omit<ArticleDiscovered, RawField> & {
  [F in RawField]: null extends ArticleDiscovered[F] ? Text | null : Text;
};

/** The Avro schema with `string` as raw `bytes` in the raw fields (also inside a union with null). */
function withRawFields(schema: avro.Schema): avro.Schema {
  const record = schema as { fields: { name: string; type: unknown }[] };
  const raw = new Set<string>(rawFields);
  const bytes = (type: unknown): unknown =>
    type === 'string' ? rawBytes : Array.isArray(type) ? type.map(bytes) : type;
  return {
    ...record,
    fields: record.fields.map((f) => (raw.has(f.name) ? { ...f, type: bytes(f.type) } : f)),
  } as avro.Schema;
}

/** The schema of a raw field: Avro bytes, read as RawText (rawTextType). */
const rawBytes = { type: 'bytes', rawText: true };

/**
 * Avro bytes read as RawText: where the value is in the buffer being read. Resolves from a writer's
 * `string` as `bytes` does (the two are encoded alike).
 */
class RawTextType extends (avro.types.BytesType as unknown as new () => avro.Type) {
  _read(tap: { buf: Buffer; pos: number; readLong(): number; _invalidate(): void }): RawText | undefined {
    const length = tap.readLong();
    if (length < 0) {
      tap._invalidate();
      return undefined;
    }
    const start = tap.pos;
    tap.pos += length;
    // Past the end, the tap is invalid and avsc refuses the value as truncated.
    return { bytes: tap.buf, start, end: tap.pos };
  }
}
const rawTextType = new RawTextType();
const typeHook = (schema: avro.Schema) =>
  typeof schema === 'object' && (schema as { rawText?: boolean }).rawText === true ? rawTextType : undefined;

/**
 * The reader types the projector decodes with: every topic's own (registry.ts), the article topic's with
 * its raw fields as bytes. Pass to EventCodec in place of localTypes().
 */
export function projectorTypes(
  catalog: readonly TopicSpec[] = topicCatalog(),
): Map<string, { type: avro.Type; file: string }> {
  const types = localTypes(catalog);
  const articles = types.get(topicNames.articlesDiscovered);
  if (articles) {
    const schema = articles.type.schema({ exportAttrs: true });
    types.set(topicNames.articlesDiscovered, {
      type: avro.Type.forSchema(withRawFields(schema), { typeHook }),
      file: articles.file,
    });
  }
  return types;
}

/** A field's text as a string, for the few that are read (the title and summary, for the index). */
export const textOf = (t: Text): string =>
  typeof t === 'string' ? t : t.bytes.toString('utf8', t.start, t.end);

/** A field's text into RowBinary: a string encoded, raw UTF-8 copied. */
export function writeText(w: RowBinaryWriter, t: Text): void {
  if (typeof t === 'string') w.string(t);
  else {
    w.varUInt(t.end - t.start);
    w.copyRange(t.bytes, t.start, t.end);
  }
}

/** DateTime columns take unix seconds, which is what ClickHouse keeps (as rows.ts's articleRow). */
const time = (ms: number) => Math.floor(ms / 1000);
/** DateTime is UInt32 seconds: what it cannot hold becomes its nearest bound, as row-binary.ts writes it. */
export const seconds = (s: number) => Math.min(0xffffffff, Math.max(0, s));

/**
 * An article of the batch, with what its rows are made of: the values of its row of `articles` that are
 * computed (as articleRow in rows.ts computes them), its postings, and its source's and facets' encoded
 * names (list-rows.ts).
 */
export interface BatchArticle {
  article: ProjectedArticle;
  version: number;
  /** Unix seconds: revision 1's publication (the row's key), this revision's, revision 1's discovery. */
  publishedAt: number;
  latestPublishedAt: number;
  discoveredAt: number;
  /** When this revision was seen, for revisions after the first; null for revision 1. */
  updatedAt: number | null;
  language: string;
  category: string;
  /** The title's and summary's lengths in words (on the list's row of every article). */
  words: Pick<Postings, 'title_length' | 'summary_length'>;
}

/** An article of the batch; its postings go into `postings` when given (the projector's batch). */
export function batchArticle(
  article: ProjectedArticle,
  version: number,
  postings?: PostingRows,
): BatchArticle {
  const publishedAt = time(article.first_published_at ?? article.published_at);
  const words = (): BatchArticle['words'] => {
    const { title, summary } = article;
    if (!postings) return articlePostings({ title: textOf(title), summary: textOf(summary) });
    if (
      typeof title !== 'string' &&
      typeof summary !== 'string' &&
      isAscii(title.bytes, title.start, title.end) &&
      isAscii(summary.bytes, summary.start, summary.end)
    )
      return postings.addAscii(publishedAt, article.article_id, version, title, summary);
    return postings.addText(publishedAt, article.article_id, version, textOf(title), textOf(summary));
  };
  return {
    article,
    version,
    publishedAt,
    latestPublishedAt: time(article.published_at),
    discoveredAt: time(article.first_discovered_at ?? article.discovered_at),
    updatedAt: article.revision > 1 ? time(article.discovered_at) : null,
    language: article.language ?? '',
    category: article.category ?? 'general',
    words: words(),
  };
}

/** By their key in `articles`, (published_at, article_id). */
export const byArticleKey = (a: BatchArticle, b: BatchArticle): number =>
  a.publishedAt - b.publishedAt ||
  (a.article.article_id < b.article.article_id ? -1 : a.article.article_id > b.article.article_id ? 1 : 0);

export const articlesTable = 'articles';

const type = (kind: 'String' | 'DateTime' | 'UInt8' | 'UInt32' | 'UInt64'): ColumnType => ({ kind });
const nullable = (inner: ColumnType): ColumnType => ({ kind: 'Nullable', inner });

/** The columns of `articles` the projector writes, in the order rows are encoded: articleRow's. */
export const articleColumns: readonly Column[] = (
  [
    ['article_id', type('String')],
    ['source_id', type('String')],
    ['source_name', type('String')],
    ['url', type('String')],
    ['original_url', type('String')],
    ['guid', nullable(type('String'))],
    ['title', type('String')],
    ['summary', type('String')],
    ['content', type('String')],
    ['author', nullable(type('String'))],
    ['published_at', type('DateTime')],
    ['published_at_clamped', type('UInt8')],
    ['latest_published_at', type('DateTime')],
    ['discovered_at', type('DateTime')],
    ['language', type('String')],
    ['category', type('String')],
    ['image_url', nullable(type('String'))],
    ['publisher_name', nullable(type('String'))],
    ['publisher_url', nullable(type('String'))],
    ['revision', type('UInt32')],
    ['changed_fields', { kind: 'Array', inner: type('String') }],
    ['updated_at', nullable(type('DateTime'))],
    ['version', type('UInt64')],
  ] as const
).map(([name, columnType]) => ({ name, type: columnType }));

const nullableText = (w: RowBinaryWriter, t: Text | null) => {
  if (t === null) w.uint8(1);
  else {
    w.uint8(0);
    writeText(w, t);
  }
};

/** The articles' rows as RowBinary of articleColumns, in the order given. */
export function encodeArticleRows(articles: readonly BatchArticle[], pool?: BufferPool): Buffer {
  // Sized from the batches before, so a batch of bodies is not copied over as the buffer grows.
  const w = new RowBinaryWriter(Math.ceil(articles.length * bytesPerArticle * 1.2) + 4096, pool);
  for (const a of articles) {
    const { article } = a;
    w.string(article.article_id);
    w.string(article.source_id);
    w.string(article.source_name);
    writeText(w, article.url);
    writeText(w, article.original_url);
    nullableText(w, article.guid);
    writeText(w, article.title);
    writeText(w, article.summary);
    writeText(w, article.content);
    nullableText(w, article.author);
    w.uint32(seconds(a.publishedAt));
    w.uint8(article.published_at_clamped ? 1 : 0);
    w.uint32(seconds(a.latestPublishedAt));
    w.uint32(seconds(a.discoveredAt));
    w.string(a.language);
    w.string(a.category);
    nullableText(w, article.image_url);
    nullableText(w, article.publisher_name);
    nullableText(w, article.publisher_url);
    w.uint32(article.revision);
    w.varUInt(article.changed_fields.length);
    for (const field of article.changed_fields) w.string(field);
    if (a.updatedAt === null) w.uint8(1);
    else {
      w.uint8(0);
      w.uint32(seconds(a.updatedAt));
    }
    w.uint64(a.version);
  }
  if (articles.length > 0) bytesPerArticle = Math.max(bytesPerArticle, w.offset / articles.length);
  return w.bytes();
}

/** The most bytes an article's row has taken in a batch so far. */
let bytesPerArticle = 4096;
