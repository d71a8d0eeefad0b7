-- The registration's own version (news.webhooks.v1 `version`: 1 on creation, one more per change), beside
-- `version`, which stays the Kafka offset that orders the replacements. The API writes a change as this
-- plus one; it had taken the offset, so a webhook's versions jumped (1, then 5, then 6) where the schema
-- promises steps of one. Rows written before this column read it as their offset, never below the
-- version they carried, so the next state written still replaces theirs wherever states are compared.
ALTER TABLE webhooks ADD COLUMN state_version UInt64 DEFAULT version AFTER deleted;
