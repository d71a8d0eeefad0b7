-- The outlet of an aggregator's article (0021) on the list's row of every article (facet ''), so a list
-- item names it as the article's detail does without a read of `articles` a page. Empty when the source
-- published the article itself, on the other facets' rows, and on rows projected before this migration
-- (a rebuild fills them).
ALTER TABLE article_list
  ADD COLUMN publisher_name String DEFAULT '' AFTER summary_length,
  ADD COLUMN publisher_url String DEFAULT '' AFTER publisher_name;
