-- The monitor's own version (news.monitors.v1 `version`: 1 on creation, one more per change), beside
-- `version`, which stays the Kafka offset that orders the replacements. The API writes a pause or a
-- resume as this plus one. Rows written before this column were all first states (the API could only
-- create and delete monitors then), so they read it as 1; a deletion's row is written with 0.
ALTER TABLE monitors ADD COLUMN state_version UInt64 DEFAULT 1 AFTER deleted;
