-- The outlet that first published an aggregator's article (news.articles.discovered.v1 `publisher_name`,
-- `publisher_url`): a Google News feed names the newspaper of each item in RSS <source>, a planet's Atom
-- entries name the blog they were copied from in <source>, while `source_name` is the feed polled. Rows
-- projected before, and articles whose feed names no other outlet, read NULL: the source published them.
ALTER TABLE articles
  ADD COLUMN publisher_name Nullable(String) AFTER image_url,
  ADD COLUMN publisher_url Nullable(String) AFTER publisher_name;
