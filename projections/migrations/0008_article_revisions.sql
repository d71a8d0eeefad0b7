-- Article revisions (news.articles.discovered.v1 revision, changed_fields, first_published_at,
-- first_discovered_at) and updates per poll (news.feed-polls.v1 updated_items).
--
-- An article's row is replaced by each later revision. `articles` is ordered by (published_at,
-- article_id), and ReplacingMergeTree replaces only rows with the same sort key, so published_at stays
-- the publication time of revision 1 (the event's first_published_at) whatever later revisions say:
-- the article keeps its place in every time-ordered list and cursor, and its revisions collapse into one
-- row. What the latest revision says goes in columns of their own:
-- - latest_published_at: the publication time the latest revision states (published_at until a revision
--   moves it; rows projected before this migration read published_at);
-- - revision: 1 for the first sighting, +1 per reader-visible change;
-- - changed_fields: what the latest revision changed against the one before it (title, summary, content,
--   author, published_at);
-- - updated_at: when the latest revision was discovered; null on revision 1.
-- discovered_at stays when the article was first discovered.
ALTER TABLE articles ADD COLUMN latest_published_at DateTime('UTC') DEFAULT published_at AFTER published_at_clamped;
ALTER TABLE articles ADD COLUMN revision UInt32 DEFAULT 1 AFTER image_url;
ALTER TABLE articles ADD COLUMN changed_fields Array(String) AFTER revision;
ALTER TABLE articles ADD COLUMN updated_at Nullable(DateTime('UTC')) AFTER changed_fields;

-- Items of a poll that became a new revision of an article seen before.
ALTER TABLE feed_polls ADD COLUMN updated_items UInt32 DEFAULT 0 AFTER new_items;

-- The revision of the article whose text an enrichment read.
ALTER TABLE article_enrichments ADD COLUMN revision UInt32 DEFAULT 1 AFTER model;
