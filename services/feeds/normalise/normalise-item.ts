// Feed items -> ArticleDiscovered events, or the reason an item was skipped.
// The per-field rules live in the small modules beside this one.
import { capped } from '../../runtime/capped-text.ts';
import { canonicalAndResolved, canonicalUrl } from '../../runtime/canonical-url.ts';
import { categoryFromLabels } from '../../runtime/categories.ts';
import type { ArticleDiscovered, Source } from '../../runtime/events/types.generated.ts';
import type { ParsedFeed, ParsedItem } from '../parser/types.ts';
import { articleId } from './article-id.ts';
import { firstImageOf } from './body-image.ts';
import { itemPublisher, ownFeed, type OwnFeed } from './item-publisher.ts';
import { declaredOrDetected, declaredUnlessScriptDenies, languageCode } from '../../runtime/language.ts';
import { decodeHTML } from 'entities';
import { plainLine, plainText } from '../../runtime/plain-text.ts';
import { publishedAt } from './published-at.ts';
import { withoutPublisherSuffix } from './publisher-suffix.ts';
import { titleText } from './title-text.ts';

/**
 * An article of the feed, or why the item was skipped. `dated`: the feed gave the item a usable date
 * (not missing, not clamped), so published_at is the feed's and not the moment of discovery; a date
 * the feed never gave must not count as a change when the item is seen again.
 */
export type NormalisedItem = { article: ArticleDiscovered; dated: boolean } | { skipped: string };

/** A title is a line: a longer one is cut, at a word, and says so with "…" (capped). */
export const maxTitleLength = 500;
/**
 * Bylines of many authors stay well within this; a longer one is cut (capped), so the event stays
 * within a record.
 */
export const maxAuthorLength = 500;
/**
 * The longest summary and content an article event carries (characters). Each event is one Kafka record,
 * and the broker refuses a record batch over 1 MiB: a feed whose items carried 150 kB descriptions had
 * its poll refused (and one larger item would have been refused at every poll). A news article's text
 * is rarely a tenth of the content's cap; what is longer is cut at a word, and says so with "…".
 */
export const maxSummaryLength = 10_000;
export const maxContentLength = 100_000;

/** The longest title made from an item's text. */
export const maxDerivedTitleLength = 120;
/** A sentence shorter than this ("Update.", "Mr.") is no title: the text goes on into the next. */
const minDerivedTitleLength = 20;
const minCjkTitleLength = 6;
/** The end of a sentence: . ! ? (or CJK's) before a space and a capital or digit, or at the end. */
const sentenceEnd = /[.!?]+(?=\s+[\p{Lu}\p{N}"'“‘(]|\s*$)|[。！？]/gu;

/**
 * The title of an item that has none of its own (a microblog's JSON Feed item, a status update): its
 * text's first sentence when that is long enough to say something and short enough to be a headline,
 * without its full stop, as headlines go; otherwise its beginning, cut at a word with "…". Cutting at
 * 120 characters wherever they fell gave titles ending mid-word ("…publish all the ti").
 */
export function titleFromText(line: string): string {
  for (const match of line.matchAll(sentenceEnd)) {
    const end = match.index + match[0].length;
    if (end > maxDerivedTitleLength) break;
    // Chinese and Japanese say in a dozen characters what takes English sixty.
    if (end < (/[。！？]/.test(match[0]) ? minCjkTitleLength : minDerivedTitleLength)) continue;
    const sentence = line.slice(0, end).trimEnd();
    return /[^.]\.$/.test(sentence) ? sentence.slice(0, -1) : sentence;
  }
  return capped(line, maxDerivedTitleLength);
}

/** A lead is its first paragraphs up to this length (characters), and at most `maxLeadLength`. */
const leadLength = 200;
const maxLeadLength = 600;

/**
 * The summary of an item that gives only its content (a JSON Feed item with `content_html` alone, an
 * Atom entry with `<content>` and no `<summary>`, an RSS item with `content:encoded` and no description):
 * the content's first paragraphs, as a reader's preview shows it. Without it the article's summary
 * would be empty in every list, where its text is all there.
 */
export function leadOf(content: string): string {
  let lead = '';
  for (const paragraph of content.split(/\n\s*\n/)) {
    if (lead.length >= leadLength) break;
    const text = paragraph.trim();
    if (text) lead = lead ? `${lead}\n\n${text}` : text;
  }
  return capped(lead, maxLeadLength);
}

/**
 * Normalises every item of a feed. Language: the item's declaration, else the
 * feed's (either unless the item's script denies it), else the source's unless detection plainly says
 * otherwise (declaredOrDetected: the costly
 * step, so at most once per feed, whose undeclared language is nearly always one language). Detection
 * came before the source's language until short English headlines were read as Javanese or German.
 *
 * `plans`: each item's link and identity (planItems), which depend on the whole document (guids or
 * links that items share); a caller normalising a document a slice at a time plans it whole once and
 * passes each slice its part.
 */
export function normaliseFeed(
  feed: ParsedFeed,
  source: Source,
  discoveredAt: number,
  plans: readonly ItemPlan[] = planItems(feed, source),
): NormalisedItem[] {
  let detected: string | null | undefined;
  const detectedOrSource = () => {
    if (detected === undefined) {
      const sample = feed.items
        .slice(0, 20)
        .map((i) => `${titleText(i.title)}. ${plainText(i.summaryHtml).slice(0, 300)}`)
        .join('\n')
        .slice(0, 3_000);
      detected = declaredOrDetected(sample, languageCode(source.language));
    }
    return detected ?? 'en';
  };
  const feedLanguage = languageCode(feed.language);
  const base = baseOf(feed, source);
  const own = ownFeed(feed, source);
  return feed.items.map((item, i) =>
    normaliseItem(
      item,
      plans[i]!,
      base,
      own,
      source,
      discoveredAt,
      languageCode(item.language) ?? feedLanguage,
      detectedOrSource,
    ),
  );
}

const baseOf = (feed: ParsedFeed, source: Source) => feed.siteUrl ?? source.feed_url;

/** The feed's picture of the item, else the first of its HTML (body-image.ts). */
function imageOf(item: ParsedItem, base: string): string | null {
  const found = item.imageUrl ?? firstImageOf(item.contentHtml) ?? firstImageOf(item.summaryHtml);
  return found ? canonicalUrl(found, base) : null;
}

/** Plain text on one line, as plainLine makes it of HTML. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** An item's link, and the URL its id is derived from when no guid identifies it alone. */
export interface ItemPlan extends ItemLink {
  /**
   * Undefined when the item's guid identifies it; else its canonical URL, or (told apart from items
   * on the same canonical URL) its link as resolved.
   */
  identity: string | undefined;
}

/** The links and identities of a whole document's items, in order. */
export function planItems(feed: ParsedFeed, source: Source): ItemPlan[] {
  const shared = sharedGuids(feed.items);
  const base = baseOf(feed, source);
  const links = feed.items.map((item) => itemLink(item, feed.format, base));
  const byLink = feed.items.map((item) => !item.guid?.trim() || shared.has(item.guid.trim()));
  const ownIdentity = linksToTellApart(feed.items, links, byLink);
  return links.map((link, i) => ({
    ...link,
    identity: byLink[i] ? (ownIdentity.has(i) ? link.link?.resolved : link.link?.canonical) : undefined,
  }));
}

interface ItemLink {
  /** The link as the feed gives it (or the permalink guid), null when it has none. */
  originalUrl: string | null;
  /** Resolved and canonical; null when there is no http(s) link. */
  link: { canonical: string; resolved: string } | null;
  /**
   * The link resolved as the feed wrote it (canonicalAndResolved trims it, the URL parser only spaces and
   * control characters: a link with other whitespace around it is parsed as it is, as before).
   */
  asGiven: string | null;
}

/**
 * An item's link (else its permalink guid, else its audio or video enclosure), parsed once: its canonical
 * form is its URL, and (without a guid) its identity.
 */
function itemLink(item: ParsedItem, format: ParsedFeed['format'], base: string): ItemLink {
  // RSS's parser has decided already whether the guid is a permalink (isPermaLink="false" says it is
  // not); an Atom id, a JSON Feed id or an RDF about that is an http(s) URL is the item's address.
  const permalinkGuid = format !== 'rss' && item.guid && /^https?:\/\//i.test(item.guid) ? item.guid : null;
  // An item with no address of its own but an audio or video enclosure (a podcast's episode, a radio
  // bulletin) is that file: its one address, where the item was skipped as having no usable link.
  const originalUrl = item.url ?? permalinkGuid ?? item.enclosureUrl;
  // "ht!tp://x" or "http:/ /x" is a broken absolute link, not a path to resolve under the feed's site.
  if (originalUrl === null || (/:\/\//.test(originalUrl) && !/^\s*https?:\/\//i.test(originalUrl)))
    return { originalUrl: null, link: null, asGiven: null };
  const link = canonicalAndResolved(originalUrl, base);
  if (link === null) return { originalUrl, link, asGiven: null };
  const asGiven = originalUrl === originalUrl.trim() ? link.resolved : new URL(originalUrl, base).toString();
  return { originalUrl, link, asGiven };
}

/**
 * Items identified by their link whose links are one canonical URL (a fragment or a tracking parameter
 * apart: a live blog's `…/live#post-1` and `#post-2`) but which are not the same item (another title):
 * one article would have been made of them, the rest lost without a trace. These are identified by
 * their link as resolved, before it was made canonical. The same item listed twice (same title) stays
 * one article.
 */
export function linksToTellApart(
  items: readonly ParsedItem[],
  links: readonly ItemLink[],
  byLink: readonly boolean[],
): Set<number> {
  const groups = new Map<string, number[]>();
  items.forEach((_, i) => {
    const canonical = links[i]!.link?.canonical;
    if (!byLink[i] || canonical === undefined) return;
    const group = groups.get(canonical);
    if (group) group.push(i);
    else groups.set(canonical, [i]);
  });
  const apart = new Set<number>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const titles = new Set(group.map((i) => titleText(items[i]!.title)));
    const resolved = new Set(group.map((i) => links[i]!.link!.resolved));
    if (titles.size > 1 && resolved.size > 1) for (const i of group) apart.add(i);
  }
  return apart;
}

/**
 * Guids the document gives to items with different links: a CMS that writes `<guid>1</guid>` (or the
 * site's home page) on every item. Taken as identity they would make one article of all of them, and the
 * rest would be lost without a trace; their links tell them apart instead. The same items get the same
 * ids at every poll for as long as the feed repeats the guid. An item repeated whole (same guid, same
 * link) is one article either way.
 */
export function sharedGuids(items: readonly ParsedItem[]): Set<string> {
  const linkOf = new Map<string, string>();
  const shared = new Set<string>();
  for (const item of items) {
    const guid = item.guid?.trim();
    if (!guid) continue;
    const link = item.url?.trim() ?? '';
    const seen = linkOf.get(guid);
    if (seen === undefined) linkOf.set(guid, link);
    else if (seen !== link) shared.add(guid);
  }
  return shared;
}

/**
 * What a feed writes where it has no byline: Blogger's "Unknown" (`noreply@blogger.com (Unknown)`, or
 * its Atom author's name), "unknown", "n/a". Shown to readers, it would be an author called Unknown.
 */
const noByline = /^(?:unknown|unknown author|n\/?a|none|null|undefined|-+)$/i;

/**
 * The "By" a byline is printed with ("By Jane Smith", "BY JANE SMITH", "by Ann and Bob"), at its start
 * and before each name of a list (the parser joins an item's several authors with ", "). Only as a word
 * followed by a name: "Byron Black" and "Byung-hun Lee" are names.
 */
const byPrefix = /(^|,\s*)by:?\s+(?=\S)/giu;

/** The item's author as shown: without "By", capped, and null for a placeholder (noByline). */
function bylineOf(author: string | null): string | null {
  const byline = capped(plainLine(author).replace(byPrefix, '$1'), maxAuthorLength);
  return byline === '' || noByline.test(byline) ? null : byline;
}

/**
 * Markup escaped once more than its element says, as some feed converters write reddit's self-text: read
 * once, its text is still markup, either as tags (`<div class="md"><p>…`) or as their references
 * (`&lt;div class=&quot;md&quot;&gt;`), which a reader would see and search would index ("quot", "div").
 * Only what has a markup's structure counts: a comment, a tag with an attribute, or an end tag with its
 * start; "the <div> element" or "write &lt;b&gt;" quotes a tag, and stays as it is.
 */
const commentOrAttributes = /<(?:!--|[a-z][\w-]*\s+[a-z][\w:-]*\s*=\s*["'])/i;
const endTag = /<\/([a-z][\w-]*)\s*>/i;

function looksLikeMarkup(text: string, plainByFormat: boolean): boolean {
  if (commentOrAttributes.test(text)) return true;
  // A format's plain text (Atom's type="text") quotes "<p>text</p>" when it writes about HTML: only
  // attributes or comments say it is markup escaped once too often there.
  if (plainByFormat) return false;
  const end = endTag.exec(text);
  return end !== null && new RegExp(`<${end[1]}[\\s/>]`, 'i').test(text);
}

/** The plain text of a summary or content (plainText), markup escaped once too often read as markup. */
export function feedText(html: string | null, plainByFormat = false): string {
  let text = plainText(html);
  // Twice at most: escaped twice over, the first reading gives references, the second tags.
  for (let pass = 0; pass < 2; pass++) {
    const markup = text.includes('&lt;') ? decodeHTML(text) : text;
    if (!markup.includes('<') || !looksLikeMarkup(markup, plainByFormat)) break;
    text = plainText(markup);
  }
  return text;
}

function normaliseItem(
  item: ParsedItem,
  { originalUrl, link, asGiven, identity }: ItemPlan,
  base: string,
  own: OwnFeed,
  source: Source,
  discoveredAt: number,
  declaredLanguage: string | null,
  undeclaredLanguage: () => string,
): NormalisedItem {
  const url = link?.canonical ?? null;
  if (!url || originalUrl === null)
    // Quoted in the source's health, which every tenant reads: the title cut as the duplicate's reason cuts it.
    return {
      skipped: `item "${capped(titleText(item.title) || item.guid || '(untitled)', 80)}" has no usable link`,
    };

  const description = feedText(item.summaryHtml, item.summaryIsText);
  let content = capped(feedText(item.contentHtml, item.contentIsText), maxContentLength);
  // An item whose whole text is its description (no content:encoded): past the summary's cap, the
  // description is the content, so the article keeps all of it and the summary is cut as usual.
  if (!content && description.length > maxSummaryLength) content = capped(description, maxContentLength);
  const summary = capped(description, maxSummaryLength) || leadOf(content);
  const publisher = itemPublisher(item.publisher, own, base);
  // Before the cut, which would take the outlet's name with it.
  let title = capped(withoutPublisherSuffix(titleText(item.title), publisher.publisher_name), maxTitleLength);
  // The summary and content are plain text already: read as HTML again, their "<int>" (written
  // "&lt;int&gt;") would go as a tag, and their "&amp;lt;" would become "<".
  if (!title) title = titleFromText(oneLine(summary || content));
  if (!title) return { skipped: `item ${url} has neither title nor text` };

  const published = publishedAt(item.published, discoveredAt);
  return {
    dated: published.dated,
    article: {
      article_id: articleId(source.source_id, identity === undefined ? item.guid : null, identity ?? url),
      source_id: source.source_id,
      source_name: source.name,
      guid: item.guid,
      url,
      // The link parsed once for both (canonicalAndResolved trims it, the URL parser only spaces and
      // control characters: a link with other whitespace around it is parsed as it is, as before).
      original_url: asGiven!,
      title,
      summary,
      content,
      author: bylineOf(item.author),
      published_at: published.at,
      published_at_clamped: published.clamped,
      discovered_at: discoveredAt,
      // A declaration the item's script denies (Cyrillic text in a feed declared English, a CMS's default)
      // gives way to what the text tells; the narration spoke such an article as a second of silence. So
      // does the language of a feed that declares none (detected over its first items, else the
      // source's): one Russian item among English ones is Russian.
      language: declaredUnlessScriptDenies(
        `${title}\n${(summary || content).slice(0, 300)}`,
        declaredLanguage ?? undeclaredLanguage(),
      ),
      category: categoryFromLabels(item.categories) ?? source.category,
      image_url: imageOf(item, base),
      ...publisher,
      // A first sighting; the poller makes it a later revision when it has seen the item before.
      revision: 1,
      changed_fields: [],
      first_published_at: null,
      first_discovered_at: null,
      occurred_at: discoveredAt,
    },
  };
}
