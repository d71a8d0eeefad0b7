-- The search index as numbers (from news.articles.discovered.v1; services/search/article-terms.ts), in
-- place of `article_terms`, and the article list written directly, in place of the ingest tables.
--
-- `article_postings`: one row per distinct word of each article's title and summary, keyed by numbers:
--   term     cityHash64 of the word (lowercased, as search-words.ts takes it): `term = cityHash64('word')`;
--   article  cityHash64 of the article's id;
-- with the word's count in the title and in the summary. Ordered by term, then by the article's place in
-- `articles` (revision 1's publication time), so the articles holding a word are one range of the primary
-- key, in time order, and a later revision replaces the postings of the words it keeps (same key, higher
-- version). Readers join it to the list with `(published_at, cityHash64(article_id))`, which ClickHouse
-- narrows through the list's primary key. Two words with one hash, or two articles of the same second
-- with one hash, only widen what the index finds: the API checks the text of every article it found
-- against the query (services/api/articles/search-index.ts).
--
-- Why: the string-keyed postings of 0011 cost ClickHouse 2 µs a row to sort and write, about 25 rows an
-- article; these rows are 32 bytes of numbers, and the projector sends each batch's postings already in
-- key order, which ClickHouse 18.16 then writes without sorting them.
CREATE TABLE IF NOT EXISTS article_postings (
  term UInt64,
  published_at DateTime('UTC'),
  article UInt64,
  title_tf UInt16,
  summary_tf UInt16,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYear(published_at)
ORDER BY (term, published_at, article);

-- The lengths in words of the title and summary (BM25's length normalisation) on the row of every article
-- (facet ''), where the empty term's posting in `article_terms` carried them; 0 on the other facets' rows
-- and on rows projected before this migration (a rebuild fills them).
ALTER TABLE article_list ADD COLUMN title_length UInt32 DEFAULT 0 AFTER updated_at;
ALTER TABLE article_list ADD COLUMN summary_length UInt32 DEFAULT 0 AFTER title_length;

-- The projector now writes `article_list` and `article_postings` itself, each batch in key order: the
-- views of 0013 (whose ARRAY JOIN copied each article's title, summary and url to every facet's row before
-- blanking them) and the tables they fed go.
DROP TABLE IF EXISTS article_terms_from_ingest;
DROP TABLE IF EXISTS article_terms_ingest;
DROP TABLE IF EXISTS article_list_from_ingest;
DROP TABLE IF EXISTS article_list_ingest;
DROP TABLE IF EXISTS article_terms;
