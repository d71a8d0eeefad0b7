-- Which related articles an enrichment's context cites (news.articles.enriched.v1 context_article_ids),
-- so an analyst can follow a story from article to article.
ALTER TABLE article_enrichments ADD COLUMN context_article_ids Array(String) AFTER context;
