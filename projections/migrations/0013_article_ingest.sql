-- How the projector writes the search index and the list of each article event
-- (news.articles.discovered.v1): beside the article's row in `articles`, one row of `article_terms_ingest`
-- carrying the postings as parallel arrays (its words, each word's count in the title and in the summary,
-- both lengths), and one row of `article_list_ingest` carrying the facets it is listed under. Both keep
-- nothing (engine Null); a materialized view on each writes a row per element into `article_terms` (one
-- per word) and `article_list` (one per facet).
--
-- Why: the projector had built and encoded ~30 rows per article (the article, ~25 postings, 5 list rows)
-- and was bound by its own CPU doing it, at 0.2 of a plain insert's rate. ClickHouse does the fan-out
-- with ARRAY JOIN on whole blocks. The words and facets are still computed by the projector
-- (services/search/), so they stay exactly what the API's queries compute.
--
-- Two narrow tables rather than one with the article: ClickHouse 18.16 repeats every column of the
-- inserted block for each element an ARRAY JOIN makes, and the content of 100,000 articles repeated for
-- each of their ~25 words asked for 11 GiB.
--
-- The views name their targets, which ClickHouse looks up by name on each insert: when a rebuild swaps
-- freshly built tables in under these names (services/projector/switch-over.ts), the views write into
-- the new tables. They select by column name, which is how 18.16 and current releases match a view's
-- columns to its target's.
CREATE TABLE IF NOT EXISTS article_terms_ingest (
  published_at DateTime('UTC'),
  article_id String,
  terms Array(String),
  title_tfs Array(UInt16),
  summary_tfs Array(UInt16),
  title_length UInt32,
  summary_length UInt32,
  version UInt64
) ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS article_terms_from_ingest TO article_terms AS
SELECT term, published_at, article_id, title_tf, summary_tf, title_length, summary_length, version
FROM article_terms_ingest
ARRAY JOIN terms AS term, title_tfs AS title_tf, summary_tfs AS summary_tf;

CREATE TABLE IF NOT EXISTS article_list_ingest (
  facets Array(String),
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
) ENGINE = Null;

-- The item's shown columns (title, summary, url) go on the row of every article (facet '') only.
CREATE MATERIALIZED VIEW IF NOT EXISTS article_list_from_ingest TO article_list AS
SELECT
  facet, published_at, article_id,
  if(facet = '', title, '') AS title,
  if(facet = '', summary, '') AS summary,
  source_id, source_name,
  if(facet = '', url, '') AS url,
  language, category, revision, updated_at, version
FROM article_list_ingest
ARRAY JOIN facets AS facet;
