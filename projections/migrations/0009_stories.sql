-- Stories: which story each article belongs to, and each story's state (news.stories.v1, written by
-- the clusterer; docs/stories.md). The topic has one partition, so `version` (its offset) orders every
-- decision: a merge rewrites the story of each article it moves with a higher version, and the newest
-- row of an article is its story now.

-- The story of each article. `similarity` is the cosine with the story when the article joined; null
-- for the article that opened the story and for articles moved by a merge.
CREATE TABLE IF NOT EXISTS story_articles (
  article_id String,
  story_id String,
  similarity Nullable(Float64),
  assigned_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY article_id;

-- The state of each story: open (taking articles), closed (inactive; takes no more) or merged (its
-- articles moved to merged_into, and its id is not used again).
CREATE TABLE IF NOT EXISTS stories (
  story_id String,
  status String,
  merged_into Nullable(String),
  changed_at DateTime('UTC'),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY story_id;
