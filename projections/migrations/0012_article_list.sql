-- The article list (from news.articles.discovered.v1; services/search/article-list.ts), what
-- GET /v1/articles reads its pages from. Ordered by facet and then by the article's key in `articles`, so
-- "the newest articles", "the newest of this source", "... of this category" and "... in this language"
-- are each one range of the primary key, already in time order, however large the archive grows:
--   facet ''                      every article, with the columns a list item shows;
--   facet 'source:<id>'           the articles of one source,
--   facet 'source_name:<name>'    ... by its name, lowercased (the API takes either),
--   facet 'category:<category>', facet 'language:<language>'
-- The facet rows carry the columns a list filters on (source, language, category) and leave the shown
-- ones empty: a page reads its keys from the narrowest facet and its items from the '' rows, by key.
-- Smaller granules than the default 8,192 rows, because a page is read by key: 20 articles spread over
-- weeks touch 20 granules, and each costs its whole width.
-- A later revision replaces an article's rows (same key, higher version). Should a revision move an
-- article to another category or language, the old facet's row stays; the API checks each page's items
-- against their latest '' row, so it lists nothing the article no longer is.
CREATE TABLE IF NOT EXISTS article_list (
  facet String,
  published_at DateTime('UTC'),
  article_id String,
  title String,
  summary String,
  source_id String,
  source_name String,
  url String,
  language String,
  category String,
  revision UInt32,
  updated_at Nullable(DateTime('UTC')),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(published_at)
ORDER BY (facet, published_at, article_id)
SETTINGS index_granularity = 256;
