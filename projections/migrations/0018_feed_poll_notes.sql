-- Why a poll's items did not all become articles, and what the parser noticed (news.feed-polls.v1
-- skipped_reasons and warnings, at most 5 each): they were on the topic only, so a source that kept
-- dropping items (no link, a body cut off, an ignored charset) looked healthy in GET /v1/sources and
-- in SQL. Rows projected before this migration read empty arrays.
ALTER TABLE feed_polls ADD COLUMN skipped_reasons Array(String) AFTER skipped_items;
ALTER TABLE feed_polls ADD COLUMN warnings Array(String) AFTER skipped_reasons;
