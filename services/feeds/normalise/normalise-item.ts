// Feed items -> ArticleDiscovered events, or the reason an item was skipped.
// The per-field rules live in the small modules beside this one.
import { canonicalAndResolved, canonicalUrl } from '../../runtime/canonical-url.ts';
import { categoryFromLabels } from '../../runtime/categories.ts';
import type { ArticleDiscovered, Source } from '../../runtime/events/types.generated.ts';
import type { ParsedFeed, ParsedItem } from '../parser/types.ts';
import { articleId } from './article-id.ts';
import { detectLanguage, languageCode } from '../../runtime/language.ts';
import { plainLine, plainText } from '../../runtime/plain-text.ts';
import { publishedAt } from './published-at.ts';

/**
 * An article of the feed, or why the item was skipped. `dated`: the feed gave the item a usable date
 * (not missing, not clamped), so published_at is the feed's and not the moment of discovery; a date
 * the feed never gave must not count as a change when the item is seen again.
 */
export type NormalisedItem = { article: ArticleDiscovered; dated: boolean } | { skipped: string };

const maxTitleLength = 500;
/**
 * The longest summary and content an article event carries (characters). Each event is one Kafka record,
 * and the broker refuses a record batch over 1 MiB: a feed whose items carried 150 kB descriptions had
 * its poll refused (and one larger item would have been refused at every poll). A news article's text
 * is rarely a tenth of the content's cap; what is longer is cut at a word, and says so with "…".
 */
export const maxSummaryLength = 10_000;
export const maxContentLength = 100_000;

/** `text` cut to at most `max` characters, at a space when one is near, ending with "…". */
export function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.lastIndexOf(' ', max - 1);
  if (cut < max * 0.9) cut = max - 1;
  // Never between the two halves of a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/**
 * Normalises every item of a feed. Language: the item's declaration, else the
 * feed's, else detection (the costly step, so at most once per feed: a feed's
 * undeclared language is nearly always one language), else the source's.
 */
export function normaliseFeed(feed: ParsedFeed, source: Source, discoveredAt: number): NormalisedItem[] {
  let detected: string | null | undefined;
  const detectedOrSource = () => {
    if (detected === undefined) {
      const sample = feed.items
        .slice(0, 20)
        .map((i) => `${plainLine(i.title)}. ${plainText(i.summaryHtml).slice(0, 300)}`)
        .join('\n')
        .slice(0, 3_000);
      detected = detectLanguage(sample);
    }
    return detected ?? languageCode(source.language) ?? 'en';
  };
  const feedLanguage = languageCode(feed.language);
  return feed.items.map((item) =>
    normaliseItem(
      item,
      feed,
      source,
      discoveredAt,
      languageCode(item.language) ?? feedLanguage ?? detectedOrSource,
    ),
  );
}

function normaliseItem(
  item: ParsedItem,
  feed: ParsedFeed,
  source: Source,
  discoveredAt: number,
  language: string | (() => string),
): NormalisedItem {
  const base = feed.siteUrl ?? source.feed_url;
  const permalinkGuid = item.guid && /^https?:\/\//i.test(item.guid) ? item.guid : null;
  const originalUrl = item.url ?? permalinkGuid;
  const link = originalUrl ? canonicalAndResolved(originalUrl, base) : null;
  const url = link?.canonical ?? null;
  if (!url)
    return { skipped: `item "${plainLine(item.title) || item.guid || '(untitled)'}" has no usable link` };

  const summary = capped(plainText(item.summaryHtml), maxSummaryLength);
  const content = capped(plainText(item.contentHtml), maxContentLength);
  let title = plainLine(item.title).slice(0, maxTitleLength);
  if (!title) title = plainLine(summary || content).slice(0, 120);
  if (!title) return { skipped: `item ${url} has neither title nor text` };

  const published = publishedAt(item.published, discoveredAt);
  const dated = item.published !== null && !Number.isNaN(item.published.getTime()) && !published.clamped;
  return {
    dated,
    article: {
      article_id: articleId(source.source_id, item.guid, url),
      source_id: source.source_id,
      source_name: source.name,
      guid: item.guid,
      url,
      // The link parsed once for both (canonicalAndResolved trims it, the URL parser only spaces and
      // control characters: a link with other whitespace around it is parsed as it is, as before).
      original_url:
        originalUrl === originalUrl!.trim() ? link!.resolved : new URL(originalUrl!, base).toString(),
      title,
      summary,
      content,
      author: plainLine(item.author) || null,
      published_at: published.at,
      published_at_clamped: published.clamped,
      discovered_at: discoveredAt,
      language: typeof language === 'string' ? language : language(),
      category: categoryFromLabels(item.categories) ?? source.category,
      image_url: item.imageUrl ? canonicalUrl(item.imageUrl, base) : null,
      // A first sighting; the poller makes it a later revision when it has seen the item before.
      revision: 1,
      changed_fields: [],
      first_published_at: null,
      first_discovered_at: null,
      occurred_at: discoveredAt,
    },
  };
}
