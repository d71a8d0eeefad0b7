// Article ids are deterministic (docs/architecture.md, "Decisions"): the same item seen again —
// a re-poll, a restart, a second poller, a replay — gets the same id, so it
// can never become a second article.
import { hash } from 'node:crypto';

//
// An item without a guid is known by its source and canonical URL. The URL alone made one article of two
// outlets' items linking to the same page (an aggregator's and the publisher's, two blogs quoting one
// story): each poll of either found the other's text and emitted it as the article's next revision, the
// article flipping between them for ever, and the second source never had an article of its own. Ids
// made by the URL alone before stay with their articles: the poller finds such an item by its alias
// (source, URL and title; poller/seen-articles.ts) and keeps the id it was first emitted under.
export function articleId(sourceId: string, guid: string | null, canonicalUrl: string): string {
  const identity =
    guid && guid.trim() ? `guid\n${sourceId}\n${guid.trim()}` : `url\n${sourceId}\n${canonicalUrl}`;
  // The one-shot digest: the same hex as createHash, without a Hash object per item of every poll.
  return `art_${hash('sha256', identity, 'hex').slice(0, 32)}`;
}
