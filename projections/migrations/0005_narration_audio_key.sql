-- Where a narration's audio is stored (news.articles.narrated.v1 audio_key): the API signs an expiring
-- URL for it when it answers, since the stored audio_url is only the file's unsigned address.
ALTER TABLE article_narrations ADD COLUMN audio_key Nullable(String) AFTER audio_url;
