// An article parsed once for every capability: its headline and body as sentences of tokens, and the
// language they are in, which decides whose stop words are marked and which methods apply.
import { declaredOrDetected, languageCode } from '../../runtime/language.ts';
import type { ArticleText } from '../provider.ts';
import { parseSentences, type Sentence } from './sentences.ts';

export interface ParsedArticle {
  title: Sentence[];
  sentences: Sentence[];
  /** ISO 639-1: the article's (its feed's) unless detection plainly says otherwise; null when neither says. */
  language: string | null;
}

export function parseArticle(article: ArticleText): ParsedArticle {
  const language = declaredOrDetected(article.text, languageCode(article.language));
  return {
    title: parseSentences(article.title ?? '', language),
    sentences: parseSentences(article.text, language),
    language,
  };
}
