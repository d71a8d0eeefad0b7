-- Breaking news (news.stories.v1 `breaking` events; docs/stories.md#breaking-news): one row per story
-- that reached the rule, at most once per story. `article_ids` are the story's articles when it did.
CREATE TABLE IF NOT EXISTS breaking_stories (
  story_id String,
  detected_at DateTime('UTC'),
  article_ids Array(String),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY story_id;
