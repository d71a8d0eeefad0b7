-- Feeds that move (docs/operations.md, "Feeds that move"): a source whose feed answers with permanent
-- redirects to one new URL poll after poll is polled there from then on, under the same source_id, and
-- the URLs it left are kept (news.sources.v1 `previous_urls`) so that adding one finds the source. The API
-- looks a new feed URL up in them, and GET /v1/sources shows them. Each poll says where the feed answered
-- and through which redirects (news.feed-polls.v1 `final_url`, `redirect_statuses`), which shows a move
-- coming and a temporary redirect that never moves anything. Rows projected before read an empty array
-- and NULL: never moved, not redirected.
ALTER TABLE sources ADD COLUMN previous_urls Array(String) AFTER feed_url;
ALTER TABLE feed_polls
  ADD COLUMN final_url Nullable(String) AFTER feed_url,
  ADD COLUMN redirect_statuses Array(UInt16) AFTER final_url;
