// What an article is read out as. By default the headline and the AI summary (a minute or so of audio,
// what a listener skimming the news wants); NARRATOR_TEXT=full reads the whole article instead. An
// article whose enrichment failed is read from the feed's own summary, or the start of its text, so every
// article that has words gets a narration.
import { detectLanguage } from '../runtime/language.ts';

export const narrationTexts = ['summary', 'full'] as const;
export type NarrationTextMode = (typeof narrationTexts)[number];

/** What the read model and the enrichment say about the article. */
export interface ArticleWords {
  title: string;
  /** The feed's summary. */
  summary: string;
  content: string;
  /** The enrichment's summary, when it succeeded. */
  aiSummary: string | null;
  /** ISO 639-1 from the enrichment or the feed, when known. */
  language: string | null;
}

/** Without an AI summary, the summary mode reads at most this much of the article's own text. */
export const fallbackSummaryChars = 1_200;

const sentenceEnd = /[.!?…。！？]["'”’)\]]*$/u;

/** The title as a sentence, so the voice pauses after it. */
const asSentence = (text: string) => (sentenceEnd.test(text) ? text : `${text}.`);

/** The first `limit` characters of `text`, cut after the last full sentence when there is one. */
export function leadOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const end = Math.max(...['. ', '! ', '? ', '。', '！', '？'].map((mark) => cut.lastIndexOf(mark)));
  return end > limit / 3 ? cut.slice(0, end + 1).trim() : cut.trim();
}

/** A text compared without case, spacing or the punctuation that ends it. */
const comparable = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?…。！？:;,"'”’]+$/u, '')
    .toLowerCase();

/**
 * `body` without the title it repeats: nothing when it is the title (an AI summary of a short item often
 * is), the rest when it starts with it. The title is read first already.
 */
function withoutTitle(body: string, title: string): string {
  const head = comparable(title);
  if (!head) return body;
  if (comparable(body) === head) return '';
  // The title at the start of the body, in any case and spacing, where it ends a sentence or a clause.
  const words = head.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const lead = new RegExp(`^${words.join('\\s+')}[\\s.!?…。！？:;,"'”’]+`, 'iu');
  const match = lead.exec(body);
  return match ? body.slice(match[0].length) : body;
}

/** The text to narrate, whitespace-normalised; empty when the article has no words at all. */
export function narrationText(article: ArticleWords, mode: NarrationTextMode): string {
  const title = article.title.replace(/\s+/g, ' ').trim();
  const read = (text: string | null | undefined) => withoutTitle(text?.trim() ?? '', title);
  const body =
    mode === 'full'
      ? read(article.content) || read(article.aiSummary) || read(article.summary)
      : read(article.aiSummary) ||
        read(article.summary) ||
        read(leadOf(article.content.trim(), fallbackSummaryChars));
  const normalisedBody = body
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return [title ? asSentence(title) : '', normalisedBody].filter(Boolean).join('\n');
}

/** The language to narrate in: the enrichment's or the feed's, else detected from the text itself. */
export function narrationLanguage(article: ArticleWords, text: string): string | null {
  return article.language || detectLanguage(text);
}
