// What an article's ai_summary is before its enrichment is stored: the interface types ai_summary as a
// string, and an article is listed seconds (or, with the enricher down or behind, minutes) before the
// enricher gets to it. Until then it is the embedded summarizer's choice among the sentences of the
// feed's own summary (the title's when the feed gave none): the same extractive method the embedded
// provider uses, over the only text a list row holds. The enrichment's summary replaces it once stored;
// GET /v1/articles/{id} says which is shown (`enrichment` is null until then).
import { splitSentences } from '../../intelligence/embedded/sentences.ts';
import { summarizeToSentences, summaryLengthFor } from '../../intelligence/embedded/summary.ts';

export function provisionalAiSummary(title: string, summary: string): string {
  const text = summary.trim() || title.trim();
  if (text === '') return '';
  const count = summaryLengthFor(splitSentences(text).length, 'short');
  return summarizeToSentences(text, count, { title }).join(' ') || text;
}
