// An article parsed once for every capability: its headline and body as sentences of tokens, and the
// language they are in, which decides whose stop words are marked and which methods apply.
import { declaredOrDetected, languageCode } from '../../runtime/language.ts';
import type { ArticleText } from '../provider.ts';
import { parseSentences, type Sentence } from './sentences.ts';

export interface ParsedArticle {
  title: readonly Sentence[];
  sentences: readonly Sentence[];
  /** ISO 639-1: the article's (its feed's) unless detection plainly says otherwise; null when neither says. */
  language: string | null;
}

/**
 * The last article parsed, and what it was parsed from: `/v1/analyze` asks for an article's terms, its
 * enrichment and its education, each parsing the same text (a 100,000-character text three times).
 * Nothing that reads a ParsedArticle changes it, so the three share one.
 */
let last: { title: string; text: string; language: string | null; parsed: ParsedArticle } | null = null;

export function parseArticle(article: ArticleText): ParsedArticle {
  const title = article.title ?? '';
  const declared = languageCode(article.language);
  if (last && last.text === article.text && last.title === title && last.language === declared)
    return last.parsed;
  const language = declaredOrDetected(article.text, declared);
  const parsed = {
    title: parseSentences(title, language),
    sentences: parseSentences(article.text, language),
    language,
  };
  last = { title, text: article.text, language: declared, parsed };
  return parsed;
}
