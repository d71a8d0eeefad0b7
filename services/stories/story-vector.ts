// What an article says, as the clusterer compares it: a sparse vector of weighted terms.
//
// Terms come from four places, weighted by how much each says about which event an article reports:
// - the enrichment's entities (`e:` keys): the people, organisations and places of the event;
// - the headline's words: what the outlet says happened;
// - the lead (the summary, or the first paragraph): the event in more words, each worth less;
// - the enrichment's keywords.
// Weight = field weight × (1 + ln tf) × idf: repeating a word says less each time, and the idf from
// TermStatistics makes a word every article uses worth nearly nothing.
import type { TermStatistics } from './term-statistics.ts';
import { entityKey, storyWords } from './story-text.ts';

export interface StoryArticle {
  id: string;
  sourceId: string;
  /** ISO 639-1, or null when unknown (compared as English). */
  language: string | null;
  /** When it reports, ms since the epoch (published, clamped to when it was discovered). */
  at: number;
  title: string;
  /** The summary, or the start of the text; may be ''. */
  lead: string;
  /** Entity names from the enrichment. */
  entities: readonly string[];
  /** Keywords from the enrichment. */
  keywords: readonly string[];
  /** The enrichment's category, else the feed's; null when unknown. Breaking news compares within it. */
  category?: string | null;
}

/** A sparse vector of unit length: term → weight. */
export type TermVector = ReadonlyMap<string, number>;

// Tuned on the UCI News Aggregator headlines (bench:stories, docs/benchmarks.md): adjacent headline word
// pairs were tried and dropped (BCubed F1 0.02-0.03 lower: outlets reword a headline, they rarely keep
// its phrases), and entities weighing more than the headline's words joined stories on one shared name.
export const fieldWeights = { entity: 1.5, title: 2, lead: 1, keyword: 1 } as const;

/** Characters of the lead read: the event is told at the top; the rest is background. */
const maxLeadChars = 600;

/** Raw field-weighted term frequencies of an article (before idf). */
export function termCounts(article: StoryArticle): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string, weight: number) => counts.set(term, (counts.get(term) ?? 0) + weight);

  for (const w of storyWords(article.title, article.language)) add(w, fieldWeights.title);
  for (const w of storyWords(article.lead.slice(0, maxLeadChars), article.language))
    add(w, fieldWeights.lead);
  for (const name of new Set(article.entities.map((entity) => entityKey(entity, article.language))))
    if (name) add(`e:${name}`, fieldWeights.entity);
  for (const keyword of article.keywords)
    for (const w of storyWords(keyword, article.language)) add(w, fieldWeights.keyword);
  return counts;
}

/**
 * The article's vector against the statistics: the `maxTerms` heaviest terms, scaled to unit length.
 * Ties are broken by the term, so the same input gives the same vector.
 */
export function weighTerms(
  counts: ReadonlyMap<string, number>,
  statistics: TermStatistics,
  maxTerms: number,
): TermVector {
  const weighted: [string, number][] = [];
  for (const [term, count] of counts) {
    const weight = (1 + Math.log(count)) * statistics.idf(term);
    if (weight > 0) weighted.push([term, weight]);
  }
  weighted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const kept = weighted.slice(0, maxTerms);
  const norm = Math.sqrt(kept.reduce((sum, [, w]) => sum + w * w, 0));
  return new Map(norm > 0 ? kept.map(([t, w]) => [t, w / norm]) : []);
}

/** Dot product of two sparse vectors, and how many terms they share. */
export function overlap(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
): { dot: number; shared: number; sharedEntities: number } {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  let shared = 0;
  let sharedEntities = 0;
  for (const [term, weight] of small) {
    const other = large.get(term);
    if (other === undefined) continue;
    dot += weight * other;
    shared += 1;
    if (term.startsWith('e:')) sharedEntities += 1;
  }
  return { dot, shared, sharedEntities };
}
