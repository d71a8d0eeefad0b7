// An article's revisions as the poller sees them: what it remembers of the revision it emitted last
// (ArticleRecord, kept by seen-articles.ts), and how a changed item becomes the next revision.
//
// The read models keep an article where its first revision's publication time puts it (the articles
// table is ordered by published_at: projections/migrations/0008_article_revisions.sql), so every later
// revision carries that time as first_published_at, and discovered_at of revision 1 as
// first_discovered_at. An item whose feed gives it no date keeps the publication time of revision 1:
// the moment of a later poll is not a new date.
import type { ArticleDiscovered } from '../runtime/events/types.generated.ts';
import type { ReaderField } from '../feeds/normalise/reader-fields.ts';
import type { Fingerprint } from './article-fingerprint.ts';
import { updatesWithinDay, type RevisionHistory } from './revision-bound.ts';

export interface ArticleRecord extends RevisionHistory {
  /** The revision emitted last. */
  revision: number;
  /** What a reader saw in it. */
  fingerprint: Fingerprint;
  /** published_at and discovered_at of revision 1; null when not known (first emitted before revisions). */
  firstPublishedAt: number | null;
  firstDiscoveredAt: number | null;
}

/** What is remembered once a first sighting reached Kafka. */
export function firstRecord(article: ArticleDiscovered, fingerprint: Fingerprint): ArticleRecord {
  return {
    revision: 1,
    fingerprint,
    firstPublishedAt: article.published_at,
    firstDiscoveredAt: article.discovered_at,
    lastRevisionAt: article.discovered_at,
    recentUpdates: [],
  };
}

/**
 * An article emitted before revisions were tracked (its memory says only 'seen'): it was emitted once,
 * so it is revision 1, and what it looked like then is unknown; from now on it looks like this.
 */
export function adoptedRecord(fingerprint: Fingerprint): ArticleRecord {
  return {
    revision: 1,
    fingerprint,
    firstPublishedAt: null,
    firstDiscoveredAt: null,
    lastRevisionAt: null,
    recentUpdates: [],
  };
}

/**
 * The next revision of an article whose item changed: the event to append, and what to remember once
 * it is in Kafka. `article` is the item as normalised by this poll (a first sighting's shape).
 */
export function nextRevision(
  previous: ArticleRecord,
  article: ArticleDiscovered,
  dated: boolean,
  changed: readonly ReaderField[],
  fingerprint: Fingerprint,
): { event: ArticleDiscovered; record: ArticleRecord } {
  const at = article.discovered_at;
  const event: ArticleDiscovered = {
    ...article,
    published_at: dated ? article.published_at : (previous.firstPublishedAt ?? article.published_at),
    revision: previous.revision + 1,
    changed_fields: [...changed],
    first_published_at: previous.firstPublishedAt,
    first_discovered_at: previous.firstDiscoveredAt,
  };
  return {
    event,
    record: {
      revision: event.revision,
      fingerprint,
      // Unknown before: then this revision's times are where the read model put the article.
      firstPublishedAt: previous.firstPublishedAt ?? event.published_at,
      firstDiscoveredAt: previous.firstDiscoveredAt ?? at,
      lastRevisionAt: at,
      recentUpdates: [...updatesWithinDay(previous, at), at],
    },
  };
}
