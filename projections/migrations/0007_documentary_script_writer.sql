-- Who wrote a documentary's script (news.documentaries.v1 script_writer): "embedded" or
-- "openai/<model>", set from the narrating step on; null before it and for rows projected earlier.
ALTER TABLE documentaries ADD COLUMN script_writer Nullable(String) AFTER voice;
