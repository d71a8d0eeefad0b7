// An article parsed once for every capability: its headline and body as sentences of tokens, and the
// language they are in, which decides whose stop words are marked and which methods apply.
import { detectLanguage, languageCode } from '../../runtime/language.ts';
import type { ArticleText } from '../provider.ts';
import { parseSentences, type Sentence } from './sentences.ts';

export interface ParsedArticle {
  title: Sentence[];
  sentences: Sentence[];
  /** ISO 639-1: detected from the text, else the feed's; null when neither says. */
  language: string | null;
}

export function parseArticle(article: ArticleText): ParsedArticle {
  const language = detectLanguage(article.text) ?? languageCode(article.language);
  return {
    title: parseSentences(article.title ?? '', language),
    sentences: parseSentences(article.text, language),
    language,
  };
}
