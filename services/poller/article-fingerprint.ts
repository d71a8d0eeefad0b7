// What a reader sees of an article, one short hash per field, so the poller's memory (seen-articles.ts)
// can tell a real change of an item it emitted before (a corrected headline, a rewritten paragraph, a
// new byline, a moved date) from noise that a feed makes without changing anything.
//
// The fields come already normalised (feeds/normalise: HTML stripped, entities decoded, whitespace
// collapsed within a line and paragraphs kept; the link canonical, tracking parameters removed). What
// normalisation keeps and a reader does not see is dropped here on top: paragraph breaks and any run
// of whitespace (one space), invisible characters (soft hyphens, zero-width spaces, BOMs), and
// tracking parameters of links written out in the text. A date the feed never gave (published_at is
// then the moment of discovery, different on every poll) hashes as no date. The link counts as corrected
// when its page changes: not when only its scheme or a leading "www." does (a site moving to https
// would otherwise update every article it lists), nor a value made for one fetch (a cache-buster).
import { hash as digest } from 'node:crypto';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import { futureTolerance } from '../feeds/normalise/published-at.ts';
import { readerFields, type ReaderField } from '../feeds/normalise/reader-fields.ts';
import { isSimpleText } from '../runtime/plain-text.ts';
import { stableUrl } from './stable-url.ts';

/** A hash per reader field: 48 bits each, plenty to notice a change and small to remember for months. */
export type Fingerprint = Readonly<Record<ReaderField, string>>;

const hashLength = 12;
const invisible = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
const linkInText = /\bhttps?:\/\/[^\s<>"']+/gi;
const linkStart = /https?:\/\//i;

/** The text as compared: what a reader sees of it, nothing else. */
export function comparableText(text: string | null): string {
  if (!text) return '';
  // Most fields: nothing to normalise, remove or collapse (plain-text.ts), and no link to canonicalise.
  // ('://' first: a plain substring search, far cheaper than the pattern over every summary.)
  if (isSimpleText(text) && !(text.includes('://') && linkStart.test(text))) return text;
  return text
    .normalize('NFC')
    .replace(invisible, '')
    .replace(linkInText, (link) => canonicalUrl(link) ?? link)
    .replace(/\s+/g, ' ')
    .trim();
}

// The one-shot digest: the same hex as createHash().update().digest(), at half the cost (no Hash object
// per field; five fields an item on every poll).
const hashOf = (text: string) => digest('sha256', text, 'hex').slice(0, hashLength);
// A field the item does not have (no content, no author, no date) is the commonest text of all.
const emptyHash = hashOf('');
const hash = (text: string) => (text === '' ? emptyHash : hashOf(text));

/** The link as compared: its page, whatever the scheme, a leading "www." or a volatile parameter. */
export const comparableUrl = (url: string): string =>
  stableUrl(url).replace(/^[a-z][a-z0-9+.-]*:\/\/(?:www\.)?/i, '');

/**
 * A field the record was written without (a memory from before `url` was a reader field): what it held
 * is unknown, so it is taken as unchanged.
 */
export const unknownHash = '';

/** `dated`: the feed gave the item its date (normalise-item.ts); otherwise the date is no reader field. */
export function fingerprintOf(article: ArticleDiscovered, dated: boolean): Fingerprint {
  return {
    title: hash(comparableText(article.title)),
    summary: hash(comparableText(article.summary)),
    content: hash(comparableText(article.content)),
    author: hash(comparableText(article.author)),
    published_at: hash(dated ? new Date(article.published_at).toISOString() : ''),
    url: hash(comparableUrl(article.url)),
  };
}

/**
 * Whether the date is one the item had all along, clamped when it was first found: it lay beyond the
 * future tolerance then (published-at.ts), so the memory holds it as no date, and now the clock has
 * caught up and it counts as given. Nothing in the feed changed; taken as a correction, it sent
 * article.updated and spent one of the day's updates (POLLER_UPDATES_PER_DAY) for every item of a feed
 * whose clock runs hours ahead. `firstDiscoveredAt` null (a memory from before it was kept): unknown, no.
 */
export function clampedDateCaughtUp(
  remembered: Fingerprint,
  firstDiscoveredAt: number | null,
  article: ArticleDiscovered,
  dated: boolean,
): boolean {
  return (
    dated &&
    remembered.published_at === emptyHash &&
    firstDiscoveredAt !== null &&
    article.published_at > firstDiscoveredAt + futureTolerance
  );
}

/**
 * The fields whose hashes differ, in readerFields order; empty when nothing a reader sees changed. An
 * article without content shows its summary as its content (the API's article-store.ts), so content
 * that comes (or goes) holding just the summary changes nothing a reader sees: an Atom entry that adds
 * a <content> repeating its <summary> had been a revision identical to the one before.
 */
export function changedFields(before: Fingerprint, after: Fingerprint): ReaderField[] {
  const shownContent = (f: Fingerprint) => (f.content === emptyHash ? f.summary : f.content);
  return readerFields.filter(
    (field) =>
      before[field] !== unknownHash &&
      before[field] !== after[field] &&
      (field !== 'content' || shownContent(before) !== shownContent(after)),
  );
}
