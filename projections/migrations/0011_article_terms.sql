-- The search index (from news.articles.discovered.v1; services/search/article-terms.ts): one row per
-- distinct word of each article's title and summary (not its content), with the word's count in each
-- and each one's length in words (for BM25 relevance), and one row per article under the empty term
-- with the lengths alone. Ordered by term and then by the article's key in `articles`, so the articles that
-- hold a word are one range of the primary key, already in time order. A later revision replaces the
-- rows of the words it keeps (same key, higher version); the API reads the text of what the index finds,
-- so the rows of words a revision dropped match nothing. Words are lowercased runs of letters and
-- digits, at most 64 characters.
CREATE TABLE IF NOT EXISTS article_terms (
  term String,
  published_at DateTime('UTC'),
  article_id String,
  title_tf UInt16,
  summary_tf UInt16,
  title_length UInt32,
  summary_length UInt32,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(published_at)
ORDER BY (term, published_at, article_id);
