// One poll of one source, start to finish: conditional GET, parse, normalise,
// dedupe, append the new articles and the new revisions of changed ones, choose
// the source's next interval (poll-interval.ts), follow a feed that moved for
// good (feed-move.ts), and record the outcome on news.feed-polls.v1. Everything
// that can go wrong with the *feed* becomes a recorded outcome; only our own
// infrastructure failing (Kafka, Redis) throws.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  ArticleDiscovered,
  FeedPoll,
  FeedPollStatus,
  Source,
} from '../runtime/events/types.generated.ts';
import type { EventProducer } from '../runtime/kafka/producer.ts';
import { topicNames } from '../runtime/kafka/topics.ts';
import { canonicalUrl } from '../runtime/canonical-url.ts';
import { capped } from '../runtime/capped-text.ts';
import { languageCode } from '../runtime/language.ts';
import type { Logger } from '../runtime/logger.ts';
import type { FetchOutcome, FetchRequest } from '../feeds/fetcher/feed-fetcher.ts';
import { normaliseFeed, planItems, type NormalisedItem } from '../feeds/normalise/normalise-item.ts';
import { dateWarnings } from '../feeds/normalise/published-at.ts';
import { FeedParseError } from '../feeds/parser/errors.ts';
import { feedLinksOfBody } from '../feeds/discovery/feed-links.ts';
import { htmlPageReason } from '../feeds/parser/detect.ts';
import type { FeedParseOptions } from '../feeds/parser/parse-feed.ts';
import type { PublisherHints } from '../feeds/parser/publisher-hints.ts';
import type { ParsedFeed } from '../feeds/parser/types.ts';
import type { MoveResult } from '../sources/source-registry.ts';
import { changedFields, clampedDateCaughtUp, fingerprintOf } from './article-fingerprint.ts';
import { adoptedRecord, firstRecord, nextRevision, type ArticleRecord } from './article-revision.ts';
import { moveVerdict, moveWarning, refusedStreak, type MoveStreak, type PollSighting } from './feed-move.ts';
import {
  defaultIntervalSettings,
  pollInterval,
  rememberPublications,
  type IntervalSettings,
  type PollInterval,
} from './poll-interval.ts';
import { boundedHeld, heldAtPoll, type HeldRevision } from './held-revisions.ts';
import { noPace, type PollPace, type PollState, type PollStateStore } from './poll-state.ts';
import { revisionVerdict, type RevisionBound } from './revision-bound.ts';
import { articleAlias, type SeenArticles, type Sighting } from './seen-articles.ts';
import type { WebsubLease } from '../websub/subscription.ts';
import { withoutUrlSecrets } from '../runtime/url-secrets.ts';

export interface PollDependencies {
  fetch: (request: FetchRequest) => Promise<FetchOutcome>;
  /** Synchronous for small bodies; large ones are parsed on a worker thread (parse-pool.ts). */
  parse: (
    body: Uint8Array,
    contentType: string | null,
    options: FeedParseOptions,
  ) => ParsedFeed | Promise<ParsedFeed>;
  /** EventProducer, or PollAppends (poll-appends.ts), which shares produce requests between polls. */
  producer: Pick<EventProducer, 'send'>;
  seen: SeenArticles;
  /** How often one article may be updated (revision-bound.ts). */
  revisions: RevisionBound;
  state: PollStateStore;
  logger: Logger;
  clock: () => number;
  /** Failures in a row after which the source is reported unhealthy. */
  unhealthyAfter: number;
  /**
   * When to poll next, given the failure streak, the server's Retry-After and the interval chosen for the
   * source (seconds, poll-interval.ts).
   */
  nextPollAt: (
    source: Source,
    consecutiveFailures: number,
    retryAfterMs: number | null,
    intervalSeconds: number,
  ) => number;
  /** Adaptive polling's switch and bounds (poll-interval.ts). Absent: every source at its configured interval. */
  intervals?: IntervalSettings;
  /**
   * The source's WebSub lease in force, null when none is (then its hub pushes it, and polling is a
   * safety net, brought forward to the subscription's upkeep). Absent: never.
   */
  websubLease?: (sourceId: string) => WebsubLease | null | Promise<WebsubLease | null>;
  /**
   * After an ok or not-modified poll: the WebSub hubs and self URL its Link header and feed named (the
   * header first, as WebSub §4 says), so the source can be subscribed through a hub. Its failure is
   * logged and never fails the poll.
   */
  onHubs?: (source: Source, found: { hubs: string[]; selfUrl: string | null }) => void | Promise<void>;
  /**
   * Following feeds that moved for good (feed-move.ts): the successful polls in a row a permanent
   * redirect must end at one new URL, and the move itself (SourceRegistry.move, under the feed URL's
   * lock). Absent: sources never move, and every poll follows the redirects again.
   */
  moves?: { afterPolls: number; move: (source: Source, to: string) => Promise<MoveResult> };
}

export interface PollResult {
  poll: FeedPoll;
  /** Every event appended to news.articles.discovered.v1: first sightings and later revisions. */
  articles: ArticleDiscovered[];
}

/**
 * How long a feed answered 410 Gone waits for its next poll: the publisher removed it on purpose, unlike a
 * 404 or a 5xx, which backoff (schedule.ts) retries within hours. Not never: a feed does come back.
 */
export const goneRetryMs = 24 * 60 * 60 * 1000;

/** Reasons kept per poll: enough to diagnose a feed, bounded so one broken feed cannot bloat the record. */
const maxSkippedReasons = 5;
/** And each reason's length: they quote the feed's titles and links, which may be of any length. */
const maxReasonLength = 300;
const keptReasons = (reasons: readonly string[]): string[] =>
  reasons.slice(0, maxSkippedReasons).map((reason) => capped(reason, maxReasonLength));
/** The parser's warnings kept per poll, bounded for the same reason. */
const maxWarnings = 5;

interface Outcome {
  status: FeedPollStatus;
  httpStatus: number | null;
  itemsSeen: number;
  articles: ArticleDiscovered[];
  skipped: string[];
  warnings: string[];
  etag: string | null;
  lastModified: string | null;
  error: string | null;
  retryAfterMs: number | null;
  /** What an ok poll's feed says about itself (its WebSub hubs and self URL among it). */
  feedHints?: PublisherHints;
  /** What the response said about its freshness (ok and not_modified). */
  freshForMs: number | null;
  /** A feed was read (ok): the dates of all its items, and what it says about how often to fetch it. */
  feed: { published: number[]; publisher: PollPace['publisher'] } | null;
  /** A feed was read (ok): the updates held back after it (held-revisions.ts); else those before stand. */
  held?: HeldRevision[];
}

/** `state`: the source's poll state when the caller has read it already (as the scheduler's lock does). */
export async function pollSource(
  source: Source,
  deps: PollDependencies,
  state?: PollState,
): Promise<PollResult> {
  const startedAt = deps.clock();
  const previous = state ?? (await deps.state.get(source.source_id));
  // A move waits for a feed read at the new address (feed-move.ts), and a server that kept its validators
  // through the move answers 304 there forever: while no feed was read, the feed is asked for whole.
  const conditional = !(previous.move && !previous.move.feedRead);
  const fetched = await deps.fetch({
    url: source.feed_url,
    etag: conditional ? previous.etag : null,
    lastModified: conditional ? previous.lastModified : null,
  });
  const outcome = await interpret(fetched, source, previous, deps, startedAt);
  const move = await followMove(source, previous.move ?? null, fetched, outcome, deps);

  const failed = outcome.status === 'failed' || outcome.status === 'refused';
  const consecutiveFailures = failed ? previous.consecutiveFailures + 1 : 0;
  const { pace, interval } = await paceAfter(source, previous.pace ?? noPace(), outcome, deps, startedAt);
  await deps.state.set(source.source_id, {
    etag: outcome.etag,
    lastModified: outcome.lastModified,
    consecutiveFailures,
    pace,
    move: move.streak,
    held: outcome.held ?? previous.held ?? [],
  });

  const finishedAt = deps.clock();
  const poll: FeedPoll = {
    poll_id: randomUUID(),
    source_id: source.source_id,
    feed_url: source.feed_url,
    status: outcome.status,
    http_status: outcome.httpStatus,
    items_seen: outcome.itemsSeen,
    new_items: outcome.articles.filter((a) => a.revision === 1).length,
    skipped_items: outcome.skipped.length,
    skipped_reasons: keptReasons(outcome.skipped),
    updated_items: outcome.articles.filter((a) => a.revision > 1).length,
    // The move first: the bound must not hide why the source is (or is not yet) polled elsewhere.
    warnings: [...(move.warning === null ? [] : [move.warning]), ...outcome.warnings].slice(0, maxWarnings),
    etag: outcome.etag,
    last_modified: outcome.lastModified,
    duration_ms: Math.max(0, finishedAt - startedAt),
    error_reason: outcome.error,
    started_at: startedAt,
    consecutive_failures: consecutiveFailures,
    // A feed the publisher says is gone (410) is unhealthy at once: asked once a day, it would take days to
    // fail as often as the others.
    healthy:
      consecutiveFailures < deps.unhealthyAfter &&
      !(outcome.status === 'failed' && outcome.httpStatus === 410),
    next_poll_at: deps.nextPollAt(source, consecutiveFailures, outcome.retryAfterMs, interval.seconds),
    poll_interval_seconds: interval.seconds,
    interval_reason: interval.reason,
    trigger: 'poll',
    ...redirectsOf(fetched),
    occurred_at: finishedAt,
  };
  await deps.producer.send(topicNames.feedPolls, [{ key: source.source_id, value: poll }]);
  if (deps.onHubs && (outcome.status === 'ok' || outcome.status === 'not_modified'))
    await announceHubs(source, fetched, outcome.feedHints, deps);
  if (failed)
    deps.logger.info(
      { sourceId: source.source_id, status: poll.status, reason: poll.error_reason },
      'poll failed',
    );
  return { poll, articles: outcome.articles };
}

/** Where the feed answered and through which redirects (the poll record's final_url, redirect_statuses). */
function redirectsOf(fetched: FetchOutcome): Pick<FeedPoll, 'final_url' | 'redirect_statuses'> {
  if ((fetched.kind !== 'ok' && fetched.kind !== 'not_modified') || fetched.redirectStatuses.length === 0)
    return { final_url: null, redirect_statuses: [] };
  return { final_url: canonicalUrl(fetched.finalUrl), redirect_statuses: fetched.redirectStatuses };
}

/**
 * The move streak after this poll (feed-move.ts), and what the source's health should say about it;
 * moves the source when the verdict says so.
 *
 * The poller appends the move itself, through the sources' own command (SourceRegistry.move, which
 * `npm run sources` uses too) rather than recording it for an owner to apply: no running process owns
 * news.sources.v1 (the API adds sources, the admin command changes them, both through services/sources),
 * so an owner applying moves would be a new consumer somewhere for a change made once in a feed's life.
 * The command keeps the topic's rule: it builds the next version (+1) on the state it reads from the
 * topic, whoever wrote the one before, and writes nothing if the source changed since this poll began.
 * It runs under the source's poll lock (no other poll of it meanwhile) and the URL's lock that POST
 * /v1/sources takes. The poll state stays consistent as it is: it is keyed by the source's id, which does
 * not change, its validators already came from the new address, and the streak, written with it after
 * this, is cleared once the source moved.
 */
async function followMove(
  source: Source,
  previous: MoveStreak | null,
  fetched: FetchOutcome,
  outcome: Outcome,
  deps: PollDependencies,
): Promise<{ streak: MoveStreak | null; warning: string | null }> {
  const required = deps.moves?.afterPolls ?? 0;
  const answered =
    (fetched.kind === 'ok' || fetched.kind === 'not_modified') &&
    (outcome.status === 'ok' || outcome.status === 'not_modified');
  const sighting: PollSighting = answered
    ? {
        kind: 'answered',
        finalUrl: fetched.finalUrl,
        redirectStatuses: fetched.redirectStatuses,
        feedRead: outcome.status === 'ok',
      }
    : { kind: 'failed' };
  const verdict = moveVerdict(previous, source.feed_url, sighting, required);
  if (verdict.kind === 'none') return { streak: null, warning: null };
  if (verdict.kind === 'pending') return { streak: verdict.streak, warning: moveWarning(verdict, required) };

  const { to, streak } = verdict;
  // Logs are read by more people than the tenant that added a private feed: no feed token in them.
  const log = {
    sourceId: source.source_id,
    from: withoutUrlSecrets(source.feed_url),
    to: withoutUrlSecrets(to),
  };
  let result: MoveResult;
  try {
    result = await deps.moves!.move(source, to);
  } catch (error) {
    // Our Kafka or Redis: the poll itself is recorded as it went, and the next one that ends at the
    // same URL tries again (the streak is kept).
    deps.logger.warn({ ...log, err: error }, 'moving the source to where its feed moved failed; will retry');
    return { streak, warning: moveWarning({ kind: 'pending', to, streak }, required) };
  }
  switch (result.kind) {
    case 'moved':
      deps.logger.info(log, 'source moved to where its feed moved permanently');
      return {
        streak: null,
        warning: `the feed moved permanently: the source is polled at ${to} from now on (it was at ${source.feed_url})`,
      };
    case 'taken': {
      // Said at warn the first time; each retry after (every few polls, for as long as both exist) finds
      // the same and is kept at debug: the source's health says it all along.
      const level = streak.takenBy === result.by ? 'debug' : 'warn';
      deps.logger[level]({ ...log, takenBy: result.by }, "feed moved to another source's URL: not moved");
      const refused = refusedStreak(streak, result.by);
      return { streak: refused, warning: moveWarning({ kind: 'pending', to, streak: refused }, required) };
    }
    case 'stale':
      // The source changed while it was polled (an operator, or a move already made): start again.
      deps.logger.info({ ...log, reason: result.reason }, 'source not moved: it changed meanwhile');
      return { streak: null, warning: null };
  }
}

/**
 * The source's pace after this poll: the publications it remembers and the interval it gets. A feed
 * read adds its new items' times (an undated item's is its discovery); a source with no history yet
 * learns it from the dates of every item the feed holds. Only new items count after that, so a feed that
 * re-dates all its items on every build does not look busy. A 304 or a failure changes nothing but the
 * clock (a longer silence may stretch the interval).
 */
async function paceAfter(
  source: Source,
  previous: PollPace,
  outcome: Outcome,
  deps: PollDependencies,
  now: number,
): Promise<{ pace: PollPace; interval: PollInterval }> {
  const settings = deps.intervals ?? { ...defaultIntervalSettings, adaptive: false };
  let { publications, publisher, freshSeconds } = previous;
  if (outcome.feed) {
    const found = outcome.articles.filter((a) => a.revision === 1).map((a) => a.published_at);
    if (publications.length === 0) found.push(...outcome.feed.published);
    publications = rememberPublications(publications, found, now, settings.minSeconds);
    publisher = outcome.feed.publisher;
  }
  // The freshness a read said, or a 304 said of itself (RFC 9111 4.3.4: a 304's headers update the stored
  // response's); a bare 304 or a failure leaves the last one standing, as the feed's ttl stands.
  if (outcome.feed || outcome.freshForMs !== null)
    freshSeconds = outcome.freshForMs === null ? null : Math.ceil(outcome.freshForMs / 1000);
  const interval = pollInterval({
    configuredSeconds: source.poll_interval_seconds,
    publications,
    now,
    hints: { ...publisher, freshForMs: freshSeconds === null ? null : freshSeconds * 1000 },
    websubLease: (await deps.websubLease?.(source.source_id)) ?? null,
    settings,
  });
  return { pace: { publications, publisher, intervalSeconds: interval.seconds, freshSeconds }, interval };
}

async function interpret(
  fetched: FetchOutcome,
  source: Source,
  previous: { etag: string | null; lastModified: string | null; held?: HeldRevision[] },
  deps: PollDependencies,
  discoveredAt: number,
): Promise<Outcome> {
  const kept = { etag: previous.etag, lastModified: previous.lastModified };
  switch (fetched.kind) {
    case 'refused':
      return {
        ...kept,
        status: 'refused',
        httpStatus: null,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        warnings: [],
        error: fetched.reason,
        retryAfterMs: null,
        freshForMs: null,
        feed: null,
      };
    case 'failed':
      return {
        ...kept,
        status: 'failed',
        httpStatus: fetched.status,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        warnings: [],
        ...(fetched.status === 410
          ? {
              error: `${fetched.reason}: the publisher says the feed was removed for good; asked again once a day in case it comes back (deactivate the source to stop)`,
              retryAfterMs: Math.max(goneRetryMs, fetched.retryAfterMs ?? 0),
            }
          : { error: fetched.reason, retryAfterMs: fetched.retryAfterMs }),
        freshForMs: null,
        feed: null,
      };
    case 'not_modified':
      return {
        etag: fetched.etag ?? previous.etag,
        lastModified: fetched.lastModified ?? previous.lastModified,
        status: 'not_modified',
        httpStatus: 304,
        itemsSeen: 0,
        articles: [],
        skipped: [],
        warnings: [],
        error: null,
        retryAfterMs: null,
        freshForMs: fetched.hints.freshForMs,
        feed: null,
      };
    case 'ok': {
      let feed: ParsedFeed;
      try {
        // Relative links the feed itself cannot resolve are resolved against where it was fetched from.
        feed = await deps.parse(fetched.body, fetched.contentType, { baseUrl: fetched.finalUrl });
      } catch (error) {
        if (!(error instanceof FeedParseError)) throw error;
        // A feed we cannot read is a failed poll; forget the validators so the next poll refetches it whole.
        return {
          etag: null,
          lastModified: null,
          status: 'failed',
          httpStatus: fetched.status,
          itemsSeen: 0,
          articles: [],
          skipped: [],
          warnings: [],
          error: `feed could not be parsed: ${error.reason}${declaredFeeds(error, fetched)}`,
          retryAfterMs: null,
          freshForMs: null,
          feed: null,
        };
      }
      const { articles, skipped, leftForLater, held } = await appendNew(
        feed,
        source,
        deps,
        discoveredAt,
        previous.held ?? [],
      );
      // Kept, the validators would have the next poll answered 304 until the feed changes again, and an
      // item left for later (a correction held back by the bound) would never be compared again: the
      // feed is asked for whole until nothing is left.
      return {
        etag: leftForLater ? null : fetched.etag,
        lastModified: leftForLater ? null : fetched.lastModified,
        status: 'ok',
        httpStatus: fetched.status,
        itemsSeen: feed.items.length,
        articles,
        skipped,
        warnings: [...feed.warnings, ...dateWarnings(feed.items, discoveredAt)],
        error: null,
        retryAfterMs: null,
        feedHints: feed.hints,
        freshForMs: fetched.hints.freshForMs,
        feed: {
          published: feed.items.flatMap((item) => (item.published ? [item.published.getTime()] : [])),
          publisher: {
            ttlSeconds: feed.hints.ttlSeconds,
            updateIntervalSeconds: feed.hints.updateIntervalSeconds,
          },
        },
        held,
      };
    }
  }
}

/** An item to append: its article, whether the feed dated it, and its alias (articleAlias, once). */
interface Candidate {
  article: ArticleDiscovered;
  dated: boolean;
  alias: string;
}

/**
 * Normalises every item and appends those never seen before (revision 1) and those whose reader-visible
 * fields changed since the revision emitted last (the next revision, within the bound on revisions).
 * `held`: the updates held back by earlier polls (held-revisions.ts).
 */
async function appendNew(
  feed: ParsedFeed,
  source: Source,
  deps: Pick<PollDependencies, 'seen' | 'revisions' | 'producer'>,
  discoveredAt: number,
  held: readonly HeldRevision[],
): Promise<Appended> {
  const byId = new Map<string, Candidate>();
  const skipped: string[] = [];
  for (const normalised of await normaliseInSlices(feed, source, discoveredAt)) {
    if ('skipped' in normalised) {
      skipped.push(normalised.skipped);
      continue;
    }
    const { article } = normalised;
    const first = byId.get(article.article_id)?.article;
    if (first === undefined) byId.set(article.article_id, { ...normalised, alias: articleAlias(article) });
    // The same guid and link twice: one article, the first listing (an item repeated whole says nothing);
    // but where one listing has no text the other has (a feed that lists an article by its link and again
    // through a redirect with its summary), the one that says more.
    else if (first.title === article.title && fuller(first, article) !== null) {
      if (fuller(first, article) === article)
        byId.set(article.article_id, { ...normalised, alias: articleAlias(article) });
      skipped.push(
        `item "${article.title.slice(0, 80)}" is listed twice, once without its text: the listing with the text is kept`,
      );
    } else if (first.title !== article.title || first.summary !== article.summary)
      skipped.push(
        `item "${article.title.slice(0, 80)}" has the guid and link of "${first.title.slice(0, 80)}" ` +
          'listed before it, with another text: only the first is kept',
      );
  }
  const listed = new Set(byId.keys());
  // One article listed twice under two guids (a CMS that re-guids a repost): the same page, title and
  // text. Across polls its alias finds the first; in one poll both had been new articles.
  const byAlias = new Map<string, ArticleDiscovered>();
  for (const [id, { article, alias }] of byId) {
    const first = byAlias.get(alias);
    if (first === undefined) byAlias.set(alias, article);
    else if (first.summary === article.summary && first.content === article.content) {
      byId.delete(id);
      skipped.push(
        `item "${article.title.slice(0, 80)}" is listed twice, under the guids ${JSON.stringify(first.guid)} ` +
          `and ${JSON.stringify(article.guid)} with the same link and text: only the first is kept`,
      );
    }
  }
  // Updates held back before, of items the feed no longer lists: once the bound allows them, appended as
  // the feed listed them last, as if this poll had read them then.
  const { due, kept } = heldAtPoll(held, listed, discoveredAt);
  const released = new Map<string, HeldRevision>();
  for (const entry of due) {
    const article = { ...entry.article, discovered_at: discoveredAt, occurred_at: discoveredAt };
    byId.set(article.article_id, { article, dated: entry.dated, alias: articleAlias(article) });
    released.set(article.article_id, entry);
  }
  const heldNow: HeldRevision[] = [...kept];
  const appended = (articles: ArticleDiscovered[], leftForLater: boolean): Appended => {
    const heldAfter = boundedHeld(heldNow);
    return { articles, skipped, leftForLater: leftForLater || heldAfter.length > 0, held: heldAfter };
  };
  if (byId.size === 0) return appended([], false);

  // Every id never seen is claimed as it is looked up: each becomes a first sighting below, unless its
  // alias names an article already (a guid that changed since).
  const ids = [...byId.keys()];
  const {
    sightings,
    claimed: claimedFirsts,
    aliased,
  } = await deps.seen.lookAndClaim(ids, aliasesOf(ids.map((id) => byId.get(id)!)));
  let claimedRevisions = new Set<string>();
  const firsts: ArticleDiscovered[] = [];
  const revisions: { event: ArticleDiscovered; stored: string }[] = [];
  const emitted = new Map<string, ArticleRecord>();
  let fresh: ArticleDiscovered[];
  let leftForLater = false;
  try {
    if (aliased.size > 0)
      await followAliases(byId, aliased, { sightings, claimed: claimedFirsts }, deps.seen);
    const adopted = new Map<string, ArticleRecord>();
    let compared = 0;
    for (const [id, { article, dated }] of byId) {
      if (++compared % sliceItems === 0) await nextTurn(); // as in normaliseInSlices

      const sighting = sightings.get(id) ?? { kind: 'new' };
      if (released.has(id) && sighting.kind !== 'emitted') {
        // Not an update to make: its memory is gone (it must not become a new article after it left the
        // feed), or another poll is appending it now, which will compare it again if it is listed.
        released.delete(id);
        continue;
      }
      const fingerprint = fingerprintOf(article, dated);
      if (sighting.kind === 'new') {
        firsts.push(article);
        emitted.set(id, firstRecord(article, fingerprint));
      } else if (sighting.kind === 'legacy') {
        adopted.set(id, adoptedRecord(fingerprint));
      } else if (sighting.kind === 'emitted') {
        let changed = changedFields(sighting.record.fingerprint, fingerprint);
        if (
          clampedDateCaughtUp(sighting.record.fingerprint, sighting.record.firstDiscoveredAt, article, dated)
        )
          changed = changed.filter((field) => field !== 'published_at');
        if (changed.length === 0) {
          released.delete(id); // corrected back to what was emitted: nothing to tell
          continue;
        }
        const verdict = revisionVerdict(deps.revisions, sighting.record, discoveredAt);
        if (!verdict.allowed) {
          skipped.push(`update of "${article.title.slice(0, 80)}" held back: ${verdict.reason}`);
          leftForLater = true;
          // Kept for when the item has left the feed by then; never allowed (updates off), not kept.
          if (Number.isFinite(verdict.notBefore))
            heldNow.push({ article, dated, notBefore: verdict.notBefore });
          released.delete(id);
          continue;
        }
        const next = nextRevision(sighting.record, article, dated, changed, fingerprint);
        revisions.push({ event: next.event, stored: sighting.stored });
        emitted.set(id, next.record);
      }
      // 'claimed': another poll is producing its first sighting right now (if it fails, its claim
      // expires and a later poll must see the item again).
      else if (sighting.kind === 'claimed') leftForLater = true;
    }
    // Nothing is emitted for a legacy memory, so it needs no claim: a concurrent poller adopting the same
    // one writes the same record.
    await deps.seen.adopt(adopted);

    claimedRevisions = await deps.seen.claimRevisions(
      revisions.map((r) => ({ id: r.event.article_id, stored: r.stored })),
    );
    fresh = [
      ...firsts.filter((a) => claimedFirsts.has(a.article_id)),
      ...revisions.map((r) => r.event).filter((a) => claimedRevisions.has(a.article_id)),
    ];
    if (fresh.length < firsts.length + revisions.length) leftForLater = true;
    // A released update whose claim another poll took is kept, to be tried again.
    for (const [id, entry] of released) if (!claimedRevisions.has(id)) heldNow.push(entry);
    if (fresh.length === 0) return appended([], leftForLater);
    await deps.producer.send(
      topicNames.articlesDiscovered,
      fresh.map((a) => ({ key: a.article_id, value: a })),
    );
  } catch (error) {
    // Claims taken and nothing produced: give them back, so the next poll emits these articles.
    await deps.seen.release(claimedFirsts, claimedRevisions).catch(() => undefined);
    throw error;
  }
  await deps.seen.confirm(
    new Map(fresh.map((a) => [a.article_id, emitted.get(a.article_id)!])),
    new Map(fresh.map((a) => [byId.get(a.article_id)!.alias, a.article_id])),
  );
  return appended(fresh, leftForLater);
}

/**
 * Of two listings of one article with the same title, the one with text where the other has none (its
 * summary and content both empty); null when both have text, or neither.
 */
function fuller(a: ArticleDiscovered, b: ArticleDiscovered): ArticleDiscovered | null {
  const empty = (x: ArticleDiscovered) => x.summary === '' && x.content === '';
  if (empty(a) === empty(b)) return null;
  return empty(a) ? b : a;
}

/**
 * What a poll appended. `leftForLater`: an item this poll saw is to be looked at again by a later one (an
 * update held back by the bound on revisions, a first sighting another poll is producing, a claim lost).
 */
interface Appended {
  articles: ArticleDiscovered[];
  skipped: string[];
  leftForLater: boolean;
  /** The updates held back after this poll, bounded (held-revisions.ts). */
  held: HeldRevision[];
}

/**
 * Each article's alias (seen-articles.ts), or null where the document gives its alias to items of other
 * guids and another text: a feed that lists such items side by side means them as different articles.
 * (The same text under two guids is one item listed twice, as under an old and a new guid.)
 */
function aliasesOf(candidates: readonly Candidate[]): (string | null)[] {
  const textOf = new Map<string, string | null>();
  for (const { article, alias } of candidates) {
    const text = `${article.summary}\n${article.content}`;
    const seen = textOf.get(alias);
    if (seen === undefined) textOf.set(alias, text);
    else if (seen !== text) textOf.set(alias, null);
  }
  return candidates.map(({ alias }) => (textOf.get(alias) === null ? null : alias));
}

/**
 * Items never seen under their ids whose aliases name articles seen before (seen-articles.ts): the feed
 * gave those articles new guids. Each item becomes its article (dropped when the document also holds the
 * article under its own id: the same item twice), looked up and claimed as that article; unless the
 * article as remembered has another date and another text, which makes the item a new article at the
 * same page under the same title (a daily column's), claimed under its own id.
 */
async function followAliases(
  byId: Map<string, Candidate>,
  aliased: ReadonlyMap<string, string>,
  found: { sightings: Map<string, Sighting>; claimed: Set<string> },
  seen: Pick<SeenArticles, 'lookAndClaim'>,
): Promise<void> {
  const targets = new Map<string, string>();
  for (const [id, target] of aliased)
    if (!byId.has(target) && !targets.has(target)) targets.set(target, id);
    else byId.delete(id);
  const looked = await seen.lookAndClaim([...targets.keys()]);
  const ownIds: string[] = [];
  for (const [target, id] of targets) {
    const sighting = looked.sightings.get(target)!;
    const item = byId.get(id)!;
    byId.delete(id);
    if (sighting.kind === 'emitted' && anotherArticle(sighting.record, item)) {
      byId.set(id, item);
      ownIds.push(id);
      continue;
    }
    byId.set(target, { ...item, article: { ...item.article, article_id: target } });
    found.sightings.set(target, sighting);
    if (looked.claimed.has(target)) found.claimed.add(target);
  }
  if (ownIds.length === 0) return;
  const own = await seen.lookAndClaim(ownIds);
  for (const [id, sighting] of own.sightings) found.sightings.set(id, sighting);
  for (const id of own.claimed) found.claimed.add(id);
}

const anotherArticle = (record: ArticleRecord, item: Candidate) => {
  const changed = changedFields(record.fingerprint, fingerprintOf(item.article, item.dated));
  return changed.includes('published_at') && (changed.includes('summary') || changed.includes('content'));
};

/**
 * Items handled per turn of the event loop. A 600-item full-text feed takes 50-200 ms to normalise and
 * 30-90 ms to fingerprint; done in one go, that delays every other poll's timers by as much, even once
 * its parse runs on a worker thread.
 */
const sliceItems = 100;

/**
 * normaliseFeed, a slice of items at a time. The same result as one call: detection, the one step that
 * looks across items (a sample of the feed's first ones), only runs for a feed that declares no
 * language it recognises, and such a feed is normalised whole.
 */
async function normaliseInSlices(
  feed: ParsedFeed,
  source: Source,
  discoveredAt: number,
): Promise<NormalisedItem[]> {
  if (feed.items.length <= sliceItems || languageCode(feed.language) === null)
    return normaliseFeed(feed, source, discoveredAt);
  // Identities are the whole document's (a guid shared by items of two slices is still shared).
  const plans = planItems(feed, source);
  const normalised: NormalisedItem[] = [];
  for (let start = 0; start < feed.items.length; start += sliceItems) {
    if (start > 0) await nextTurn();
    const slice = { ...feed, items: feed.items.slice(start, start + sliceItems) };
    normalised.push(...normaliseFeed(slice, source, discoveredAt, plans.slice(start, start + sliceItems)));
  }
  return normalised;
}

/** Hands what the poll found about WebSub hubs to `deps.onHubs`, never failing the poll for it. */
async function announceHubs(
  source: Source,
  fetched: FetchOutcome,
  feedHints: PublisherHints | undefined,
  deps: PollDependencies,
): Promise<void> {
  const header = fetched.kind === 'ok' || fetched.kind === 'not_modified' ? fetched.hints : null;
  const hubs = [...new Set([...(header?.hubs ?? []), ...(feedHints?.hubs ?? [])])];
  const selfUrl = header?.selfUrl ?? feedHints?.selfUrl ?? null;
  try {
    await deps.onHubs!(source, { hubs, selfUrl });
  } catch (error) {
    deps.logger.warn({ sourceId: source.source_id, err: error }, 'websub hub discovery failed');
  }
}

/** What ingesting pushed content needs: a poll's dependencies without the fetch and the scheduling. */
export type PushDependencies = Pick<
  PollDependencies,
  'parse' | 'producer' | 'seen' | 'revisions' | 'state' | 'logger' | 'clock' | 'unhealthyAfter'
>;

export type PushResult =
  { ok: true; poll: FeedPoll; articles: ArticleDiscovered[] } | { ok: false; poll: FeedPoll; reason: string };

/**
 * Content a WebSub hub pushed for `source` (the feed, or the part of it that changed), ingested exactly
 * as a poll's body would be: same parse, same dedupe, same ArticleDiscovered events, and a FeedPoll
 * record with trigger 'websub'. It changes neither the source's validators nor its schedule: the
 * safety-net polls go on as planned. Unreadable content is a failed record, not a thrown error.
 */
export async function ingestPushedFeed(
  source: Source,
  body: Uint8Array,
  contentType: string | null,
  deps: PushDependencies,
): Promise<PushResult> {
  const startedAt = deps.clock();
  const previous = await deps.state.get(source.source_id);
  let feed: ParsedFeed | null = null;
  let error: string | null = null;
  try {
    feed = await deps.parse(body, contentType, { baseUrl: source.feed_url });
  } catch (cause) {
    if (!(cause instanceof FeedParseError)) throw cause;
    error = `pushed content could not be parsed: ${cause.reason}`;
  }
  const { articles, skipped } =
    // Pushed content may be a part of the feed: an item it leaves out has not left the feed, so no held
    // update is released, and none is kept (the polls, which hold the source's lock, keep them).
    feed === null ? { articles: [], skipped: [] } : await appendNew(feed, source, deps, startedAt, []);
  const finishedAt = deps.clock();
  const poll: FeedPoll = {
    poll_id: randomUUID(),
    source_id: source.source_id,
    feed_url: source.feed_url,
    status: feed === null ? 'failed' : 'ok',
    http_status: null,
    items_seen: feed?.items.length ?? 0,
    new_items: articles.filter((a) => a.revision === 1).length,
    skipped_items: skipped.length,
    skipped_reasons: keptReasons(skipped),
    updated_items: articles.filter((a) => a.revision > 1).length,
    warnings: (feed ? [...feed.warnings, ...dateWarnings(feed.items, startedAt)] : []).slice(0, maxWarnings),
    etag: null,
    last_modified: null,
    duration_ms: Math.max(0, finishedAt - startedAt),
    error_reason: error,
    started_at: startedAt,
    // A push says nothing about whether polling the feed works: the streak stays as the polls left it.
    consecutive_failures: previous.consecutiveFailures,
    healthy: previous.consecutiveFailures < deps.unhealthyAfter,
    next_poll_at: null,
    poll_interval_seconds: null,
    interval_reason: null,
    trigger: 'websub',
    final_url: null,
    redirect_statuses: [],
    occurred_at: finishedAt,
  };
  await deps.producer.send(topicNames.feedPolls, [{ key: source.source_id, value: poll }]);
  return error === null ? { ok: true, poll, articles } : { ok: false, poll, reason: error };
}

/**
 * What a feed URL that now answers with a web page names as its feeds, for the source's owner: a
 * publisher that retires a feed often sends its URL to the home page, whose <link rel="alternate"> is
 * where the feed went. Told, not followed: the page's feed may not be the one the source polled.
 */
function declaredFeeds(
  error: FeedParseError,
  fetched: { body: Uint8Array; contentType: string | null; finalUrl: string },
): string {
  if (error.reason !== htmlPageReason) return '';
  const links = feedLinksOfBody(fetched.body, fetched.contentType, fetched.finalUrl).slice(0, 3);
  if (links.length === 0) return '';
  return ` that names ${links.length === 1 ? 'a feed' : 'feeds'}: ${links.map((l) => l.url).join(', ')}`;
}
