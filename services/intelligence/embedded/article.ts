// An article parsed once for every capability: its headline and body as sentences of tokens.
import type { ArticleText } from '../provider.ts';
import { parseSentences, type Sentence } from './sentences.ts';

export interface ParsedArticle {
  title: Sentence[];
  sentences: Sentence[];
}

export function parseArticle(article: ArticleText): ParsedArticle {
  return { title: parseSentences(article.title ?? ''), sentences: parseSentences(article.text) };
}
