// The background paragraph of an enrichment: which other coverage (chosen by the caller from the
// read model, most telling first) this article continues, and what they share. Plain sentences that
// cite each article by title, source and date, so a reader can find it; no claim is made that is
// not in the data handed in.
import type { RelatedArticle } from '../provider.ts';
import { splitSentences } from './sentences.ts';

/**
 * More than six citations stops being context and becomes a reading list. Callers ask for fewer: the
 * enricher for 3, `/v1/analyze` for 1, 3 or 6 by its context_level.
 */
export const maxCitations = 6;
/** Shared terms named per citation. */
const maxShared = 3;

export interface Context {
  context: string | null;
  contextArticleIds: string[];
}

/**
 * `publishedAt`: the article's publication, against which the citations are "earlier" or "later"
 * coverage; without it (a text posted to the API) they are "related".
 */
export function writeContext(related: readonly RelatedArticle[], publishedAt?: Date): Context {
  const cited = related.filter((r) => r.title.trim().length > 0).slice(0, maxCitations);
  if (cited.length === 0) return { context: null, contextArticleIds: [] };
  const label = coverageLabel(cited, publishedAt);
  const sentences = cited.map((r, i) => {
    const citation = `"${r.title.trim()}" (${r.source.trim() || 'unknown source'}, ${formatDate(r.publishedAt)})`;
    const shared = r.sharedTerms.slice(0, maxShared);
    const what = shared.length ? `also covers ${listOf(shared)}` : 'covers a related story';
    const sentence = `${i === 0 ? `${label}: ` : ''}${citation} ${what}.`;
    // The most telling article's own summary says what that coverage reported.
    const reported = i === 0 && r.summary ? firstSentence(r.summary) : null;
    return reported ? `${sentence} It reported: ${reported}` : sentence;
  });
  return { context: sentences.join(' '), contextArticleIds: cited.map((r) => r.id) };
}

/** Whether every citation came before the article, after it, or some of each. */
function coverageLabel(cited: readonly RelatedArticle[], publishedAt: Date | undefined): string {
  if (publishedAt === undefined) return 'Related coverage';
  const at = publishedAt.getTime();
  if (cited.every((r) => r.publishedAt.getTime() <= at)) return 'Earlier coverage';
  if (cited.every((r) => r.publishedAt.getTime() >= at)) return 'Later coverage';
  return 'Related coverage';
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "19 Nov 2026", in UTC so that the text does not depend on the server's time zone. */
export function formatDate(date: Date): string {
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function firstSentence(text: string): string | null {
  const first = splitSentences(text)[0];
  if (!first) return null;
  return /[.!?]["'”’]?$/.test(first) ? first : `${first}.`;
}
