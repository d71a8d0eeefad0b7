import { describe, expect, it } from 'vitest';
import { encodeRowBinary } from '../runtime/clickhouse/row-binary.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { localTypes } from '../runtime/kafka/registry.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import {
  articleColumns,
  batchArticle,
  byArticleKey,
  encodeArticleRows,
  projectorTypes,
  rawFields,
  textOf,
  type ProjectedArticle,
} from './article-batch.ts';
import { articleRow } from './rows.ts';

const writer = localTypes().get(topicNames.articlesDiscovered)!.type;
const reader = projectorTypes().get(topicNames.articlesDiscovered)!.type;
const resolver = reader.createResolver(writer);

/** An event as written with the registered schema and read back with the projector's. */
const asProjectorReadsIt = (a: ArticleDiscovered): ProjectedArticle =>
  reader.fromBuffer(writer.toBuffer(a), resolver) as ProjectedArticle;

const at = Date.UTC(2026, 10, 20, 8);
const article = (id: string, extra: Partial<ArticleDiscovered> = {}): ArticleDiscovered => ({
  article_id: id,
  source_id: 'src_1',
  source_name: 'Zürich Herald',
  guid: `guid-${id}`,
  url: `https://news.example/${id}`,
  original_url: `https://news.example/${id}?utm_source=rss`,
  title: `Zinsen steigen in ${id}`,
  summary: 'Die Zinsen stiegen, und stiegen wieder: 5 € mehr. 😀',
  content: 'Ein langer Text. '.repeat(200),
  author: 'Eva Müller',
  published_at: at,
  published_at_clamped: false,
  discovered_at: at + 60_000,
  language: 'de',
  category: 'business',
  image_url: `https://img.example/${id}.jpg`,
  publisher_name: 'Neue Zürcher Zeitung',
  publisher_url: 'https://www.nzz.ch/',
  revision: 1,
  changed_fields: [],
  first_published_at: null,
  first_discovered_at: null,
  occurred_at: at + 60_000,
  ...extra,
});

describe('the projector reader schema', () => {
  it('reads the copied fields as their UTF-8 bytes, and the rest as the ordinary schema does', () => {
    const a = article('a1', { guid: null, author: null });
    const read = asProjectorReadsIt(a);
    for (const field of rawFields) {
      const value = a[field];
      const got = read[field];
      if (value === null) expect(got).toBeNull();
      else expect(textOf(got!)).toBe(value);
    }
    const { url, original_url, guid, title, summary, content, author, image_url, ...others } = read;
    const { publisher_name, publisher_url, ...rest } = others;
    void [url, original_url, guid, title, summary, content, author, image_url, publisher_name, publisher_url];
    expect(rest).toEqual(
      Object.fromEntries(Object.entries(a).filter(([k]) => !(rawFields as readonly string[]).includes(k))),
    );
  });
});

describe('the projector reader schema, on a truncated body', () => {
  it('refuses it, as the ordinary schema does', () => {
    const body = writer.toBuffer(article('a1'));
    const cut = body.subarray(0, body.length - 500); // within the content
    expect(() => void writer.fromBuffer(cut)).toThrow();
    expect(() => void reader.fromBuffer(cut, resolver)).toThrow();
  });
});

describe('article rows', () => {
  const events = [
    article('b'),
    article('a', {
      guid: null,
      author: null,
      image_url: null,
      language: null,
      category: null,
      publisher_name: null,
      publisher_url: null,
    }),
    article('c', {
      published_at: at + 7_200_000,
      discovered_at: at + 3_600_000,
      first_published_at: at - 60_000,
      first_discovered_at: at,
      revision: 2,
      changed_fields: ['title', 'summary'],
      published_at_clamped: true,
    }),
    article('d', { published_at: -5_000, content: '' }),
  ];
  const reference = (list: readonly ArticleDiscovered[]) =>
    encodeRowBinary(
      articleColumns,
      list
        .map((a, i) => articleRow(a, 2 ** 40 + i))
        .sort(
          (x, y) =>
            (x.published_at as number) - (y.published_at as number) ||
            (x.article_id! < y.article_id! ? -1 : 1),
        ),
    ).toString('hex');

  it('are articleRow as RowBinary, in the key order of the table', () => {
    const batch = events.map((a, i) => batchArticle(a, 2 ** 40 + i)).sort(byArticleKey);
    expect(encodeArticleRows(batch).toString('hex')).toBe(reference(events));
  });

  it('are the same from events read with the raw fields as bytes', () => {
    const batch = events.map((a, i) => batchArticle(asProjectorReadsIt(a), 2 ** 40 + i)).sort(byArticleKey);
    expect(encodeArticleRows(batch).toString('hex')).toBe(reference(events));
  });

  it('index the same words however the event was read', () => {
    const a = events[0]!;
    expect(batchArticle(asProjectorReadsIt(a), 1).words).toEqual(batchArticle(a, 1).words);
  });
});
