// The cheap part of an enrichment: entity names and keywords, which the enricher uses to look up
// related articles before it asks a provider to enrich. They come from the same functions enrich()
// uses on the same text, so they match what stored enrichments report, character for character.
import type { ArticleText } from '../provider.ts';
import { parseArticle } from './article.ts';
import { extractEntities } from './entities.ts';
import { extractKeywords } from './keywords.ts';

export interface Terms {
  entities: string[];
  keywords: string[];
}

export function extractTerms(article: ArticleText): Terms {
  const parsed = parseArticle(article);
  const entities = extractEntities(parsed.title, parsed.sentences, parsed.language);
  return {
    entities: entities.map((e) => e.name),
    keywords: extractKeywords(parsed.title, parsed.sentences, parsed.language, entities),
  };
}
