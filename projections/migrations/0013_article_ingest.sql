-- Where the projector writes each article event (news.articles.discovered.v1): one row per article,
-- carrying the article's columns, the postings of its search index as parallel arrays (its words, each
-- word's count in the title and in the summary, both lengths) and the facets it is listed under. The
-- table keeps nothing (engine Null); three materialized views fan each insert out into `articles`,
-- `article_terms` (one row per word, ARRAY JOIN) and `article_list` (one row per facet).
--
-- Why: the projector had built and encoded ~30 rows per article (the article, ~25 postings, 5 list rows)
-- and was bound by its own CPU doing it, at 0.2 of a plain insert's rate. ClickHouse does the same fan-out
-- in compiled code on whole blocks. The words and facets are still computed by the projector
-- (services/search/), so they stay exactly what the API's queries compute.
--
-- The views name their targets, which ClickHouse looks up by name on each insert: when a rebuild swaps
-- freshly built tables in under these names (services/projector/switch-over.ts), the views write into
-- the new tables. They select by column name, which is how 18.16 and current releases match a view's
-- columns to its target's.
CREATE TABLE IF NOT EXISTS article_ingest (
  article_id String,
  source_id String,
  source_name String,
  url String,
  original_url String,
  guid Nullable(String),
  title String,
  summary String,
  content String,
  author Nullable(String),
  published_at DateTime('UTC'),
  published_at_clamped UInt8,
  latest_published_at DateTime('UTC'),
  discovered_at DateTime('UTC'),
  language String,
  category String,
  image_url Nullable(String),
  revision UInt32,
  changed_fields Array(String),
  updated_at Nullable(DateTime('UTC')),
  version UInt64,
  terms Array(String),
  title_tfs Array(UInt16),
  summary_tfs Array(UInt16),
  title_length UInt32,
  summary_length UInt32,
  facets Array(String)
) ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS article_ingest_articles TO articles AS
SELECT
  article_id, source_id, source_name, url, original_url, guid, title, summary, content, author,
  published_at, published_at_clamped, latest_published_at, discovered_at, language, category, image_url,
  revision, changed_fields, updated_at, version
FROM article_ingest;

CREATE MATERIALIZED VIEW IF NOT EXISTS article_ingest_terms TO article_terms AS
SELECT term, published_at, article_id, title_tf, summary_tf, title_length, summary_length, version
FROM article_ingest
ARRAY JOIN terms AS term, title_tfs AS title_tf, summary_tfs AS summary_tf;

-- The item's shown columns (title, summary, url) go on the row of every article (facet '') only.
CREATE MATERIALIZED VIEW IF NOT EXISTS article_ingest_list TO article_list AS
SELECT
  facet, published_at, article_id,
  if(facet = '', title, '') AS title,
  if(facet = '', summary, '') AS summary,
  source_id, source_name,
  if(facet = '', url, '') AS url,
  language, category, revision, updated_at, version
FROM article_ingest
ARRAY JOIN facets AS facet;
