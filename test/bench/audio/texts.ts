// The texts bench:audio speaks. Narration: corpus articles read as the narrator reads them by default
// (NARRATOR_TEXT=summary: the headline as a sentence, then the AI summary, here the embedded enricher's
// `medium` summary, as the enricher writes it). Synthesis latency: texts of a fixed length, each
// different, so every first request really synthesizes.
import type { CorpusArticle } from '../../../services/demo/corpus.ts';
import { narrationText, type ArticleWords } from '../../../services/narration/narration-text.ts';
import { normaliseWhitespace } from '../../../services/speech/text-chunks.ts';

/** `n` items spread evenly over `items` (every category of the corpus, not the first n of one). */
export function pickEvenly<T>(items: readonly T[], n: number): T[] {
  const count = Math.min(n, items.length);
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/** The article as the narrator gets it from the read model and the enrichment. */
export function articleWords(article: CorpusArticle, aiSummary: string, language: string): ArticleWords {
  return {
    title: article.title,
    summary: article.paragraphs[0] ?? '',
    content: article.paragraphs.join('\n'),
    aiSummary,
    language,
  };
}

/** Exactly what the narrator speaks for `words` (the synthesizer normalises whitespace before speaking). */
export const spokenText = (words: ArticleWords): string =>
  normaliseWhitespace(narrationText(words, 'summary'));

/**
 * `count` different texts of about `length` characters (never more, at least `length` - 15): runs of
 * consecutive sentences, cut after a whole word and ended with a full stop. Starting one sentence later
 * each time keeps them distinct.
 */
export function textsOfLength(sentences: readonly string[], length: number, count: number): string[] {
  const texts = new Set<string>();
  for (let start = 0; start < sentences.length && texts.size < count; start++) {
    let text = '';
    for (let i = start; i < sentences.length && text.length < length; i++) text += ` ${sentences[i]}`;
    text = normaliseWhitespace(text);
    if (text.length < length) break;
    let cut = text.slice(0, length);
    cut = cut.slice(0, cut.lastIndexOf(' ')).replace(/[\s,;:.!?'"“”‘’()-]+$/u, '');
    const candidate = `${cut}.`;
    if (candidate.length >= length - 15) texts.add(candidate);
  }
  if (texts.size < count) throw new Error(`only ${texts.size} texts of ${length} characters in the corpus`);
  return [...texts];
}

export interface TextSizes {
  texts: number;
  characters: { total: number; min: number; median: number; max: number };
  words: number;
}

export function textSizes(texts: readonly string[]): TextSizes {
  const lengths = texts.map((t) => [...t].length).sort((a, b) => a - b);
  return {
    texts: texts.length,
    characters: {
      total: lengths.reduce((s, n) => s + n, 0),
      min: lengths[0] ?? 0,
      median: lengths[Math.floor((lengths.length - 1) / 2)] ?? 0,
      max: lengths.at(-1) ?? 0,
    },
    words: texts.reduce((s, t) => s + (t.match(/\S+/g)?.length ?? 0), 0),
  };
}

/** The corpus's sentences in order (paragraphs cut after . ! or ? followed by a space). */
export const sentencesOf = (articles: readonly CorpusArticle[]): string[] =>
  articles.flatMap((a) => a.paragraphs.flatMap((p) => p.split(/(?<=[.!?]["'”’]?)\s+/u))).filter(Boolean);
