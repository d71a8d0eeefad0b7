// POST /v1/sources and DELETE /v1/sources/{id}/subscription. Adding a feed
// reuses the source with the same canonical URL if there is one (polled there
// now, or before its feed moved there or away); otherwise the feed is fetched
// once, to refuse what is not a readable feed, and a new source is appended to
// news.sources.v1. Either way the tenant's subscription is appended to
// news.source-subscriptions.v1. A URL that is a web page naming its feeds
// (feed autodiscovery) subscribes the caller to the first of them that reads
// as a feed, as if its URL had been given.
// The answer waits (briefly) until the read model shows the change, so a GET
// right after a POST sees it.
import { setTimeout as sleep } from 'node:timers/promises';
import { ZodError } from 'zod';
import { languageCode } from '../../runtime/language.ts';
import { canonicalUrl } from '../../runtime/canonical-url.ts';
import type { Source, SourceSubscription } from '../../runtime/events/types.generated.ts';
import type { EventProducer } from '../../runtime/kafka/producer.ts';
import { topicNames } from '../../runtime/kafka/topics.ts';
import { sourceIdFor, sourceState, type SourceInput } from '../../sources/source.ts';
import { feedUrlLockKey } from '../../sources/feed-url-lock.ts';
import { ApiError, invalidParameter, momentarilyInvalid } from '../../runtime/api-error.ts';
import { busyUnlessFree, LocalMutex, type KeyedMutex } from '../../runtime/keyed-mutex.ts';
import type { SourceCatalog, SourceItem } from './source-catalog.ts';
import type { FeedCheck, FeedCheckResult } from './feed-check.ts';
import { htmlPageReason } from '../../feeds/parser/detect.ts';

export type { FeedCheck, FeedCheckResult } from './feed-check.ts';

/**
 * The home page a feed names for itself, when it is a usable absolute http(s) URL. A feed whose
 * <link> is unusable ("www.example.com" without a scheme, "javascript:", junk) is still a feed: the
 * source is added without a home page rather than refused over a field the caller did not give.
 */
export function homePageOf(siteUrl: string | null): string | null {
  return siteUrl !== null && canonicalUrl(siteUrl) !== null ? siteUrl : null;
}

/**
 * A parse failure as the caller of POST /v1/sources sees it: without the excerpt of the body the
 * parser quotes for the source's owner ("the body starts with …"). The URL is the caller's to choose,
 * and on an allow-listed internal host the start of any page would be read out through this answer.
 */
export function publicFeedProblem(reason: string): string {
  return reason.replace(/the body starts with ".*"$/s, 'the body is text, not RSS, Atom, RDF or JSON Feed');
}

/** The longest source name (services/sources/source.ts). */
const maxNameLength = 200;

/**
 * Names for a new source whose caller gave none, in the order tried: the feed's title, then with its
 * feed's host, then with its host and path (a publisher's feeds often share one title: "News" for
 * /world/rss and /sport/rss), then numbered; each within the longest name, the title cut to fit.
 */
export function nameCandidates(title: string, feedUrl: string): string[] {
  const url = new URL(feedUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const within = (suffix: string) =>
    `${[...title]
      .slice(0, Math.max(1, maxNameLength - suffix.length))
      .join('')
      .trimEnd()}${suffix}`;
  const suffixes = [` (${url.host})`, ...(path ? [` (${url.host}${path})`] : [])];
  for (let n = 2; n <= 20; n++) suffixes.push(` (${url.host}, ${n})`);
  // A title longer than a name may be is cut, as an article's is: it had made a 400 quoting zod's issues.
  const whole =
    title.length <= maxNameLength
      ? title
      : `${[...title]
          .slice(0, maxNameLength - 1)
          .join('')
          .trimEnd()}…`;
  return [...new Set([whole, ...suffixes.map(within)])];
}

export interface NewSource {
  url: string;
  name?: string | undefined;
  category: SourceInput['category'];
  language?: string | undefined;
  country: string;
  site_url?: string | undefined;
}

export interface SubscriptionDependencies {
  catalog: SourceCatalog;
  producer: Pick<EventProducer, 'send'>;
  checkFeed: FeedCheck;
  /** Poll interval given to sources added through the API. */
  pollIntervalSeconds: number;
  /** How long an answer waits for the read model to show the change. */
  visibleWithinMs: number;
  /**
   * One subscribe per feed URL at a time, across API processes (a RedisMutex, keyed as
   * services/sources/feed-url-lock.ts says, which the poller moving a source to a URL takes too): the
   * source is new until the read model shows it, so concurrent POSTs of a new feed each found none, each
   * appended the source and each answered 201. Held until the change is visible, the next one then
   * finds it.
   */
  lock?: KeyedMutex;
  clock?: () => number;
}

type Subscribed = { source: SourceItem; created: boolean };
type NotFeed = { notFeed: Extract<FeedCheckResult, { ok: false }> };

const linksToNoFeed = ' that links to no feed (no <link rel="alternate"> of an RSS, Atom or JSON Feed type)';

/**
 * The key of the lock on new sources' names, in the lock of feed URLs (whose keys are source ids, so it
 * meets none of them).
 */
const sourceNamesLockKey = 'source-names';

export const subscriptionKey = (tenantId: string, sourceId: string) => `${tenantId}/${sourceId}`;

export class SourceSubscriptions {
  private readonly clock: () => number;
  private readonly lock: KeyedMutex;

  constructor(private readonly deps: SubscriptionDependencies) {
    this.clock = deps.clock ?? Date.now;
    this.lock = deps.lock ?? new LocalMutex();
  }

  /** `limits`: the caller's plan limits (its added sources; null: unlimited). */
  async subscribe(
    tenantId: string,
    input: NewSource,
    limits: { addedSources: number | null } = { addedSources: null },
  ): Promise<{ source: SourceItem; created: boolean }> {
    // The canonical form drops a user and password (an article's link keeps none), so the feed was
    // polled without them, failing or reading its public version, and the caller was never told.
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(input.url.trim()))
      throw invalidParameter(
        'url',
        'must not hold a user and password (user:password@): feeds behind HTTP basic authentication are not polled; a token in the query (?token=…) is kept',
      );
    const feedUrl = canonicalUrl(input.url);
    if (!feedUrl) throw invalidParameter('url', 'must be an absolute http(s) URL');
    const given = await this.subscribeAt(tenantId, input, feedUrl, null, limits);
    if ('source' in given) return given;
    const page = given.notFeed;
    if (page.feedLinks.length === 0) {
      const hint = page.reason === htmlPageReason ? linksToNoFeed : '';
      // What the feed answered now (a 503, a timeout) may not be what it answers at a retry; a feed
      // that said when to ask again (429, 503 with Retry-After) is passed on, within a day.
      const wait = page.retryAfterMs
        ? Math.min(86_400, Math.max(1, Math.ceil(page.retryAfterMs / 1000)))
        : null;
      throw momentarilyInvalid(
        'url',
        `could not be read as a feed: ${publicFeedProblem(page.reason)}${hint}` +
          (wait === null ? '' : ` (the feed asks to be asked again in ${wait} s)`),
        wait === null ? {} : { 'Retry-After': String(wait) },
      );
    }
    // A web page that names its feeds: the first that reads as one is the source, the page its home
    // unless the feed or the caller names another.
    const problems: string[] = [];
    for (const link of page.feedLinks) {
      const linkUrl = canonicalUrl(link);
      if (!linkUrl) continue;
      const found = await this.subscribeAt(tenantId, input, linkUrl, page.pageUrl ?? null, limits);
      if ('source' in found) return found;
      problems.push(`${link}: ${publicFeedProblem(found.notFeed.reason)}`);
    }
    throw momentarilyInvalid(
      'url',
      `is a web page whose feeds could not be read as feeds (${problems.join('; ')})`,
    );
  }

  private subscribeAt(
    tenantId: string,
    input: NewSource,
    feedUrl: string,
    pageUrl: string | null,
    limits: { addedSources: number | null },
  ): Promise<Subscribed | NotFeed> {
    return busyUnlessFree(
      this.lock.run(feedUrlLockKey(feedUrl), () =>
        this.subscribeOnce(tenantId, input, feedUrl, sourceIdFor(feedUrl), pageUrl, limits),
      ),
      'another request is adding this feed right now',
    );
  }

  /** `pageUrl`: the web page the feed was found on, its home page when nothing better names one. */
  private async subscribeOnce(
    tenantId: string,
    input: NewSource,
    feedUrl: string,
    newSourceId: string,
    pageUrl: string | null,
    limits: { addedSources: number | null },
  ): Promise<Subscribed | NotFeed> {
    // A moved feed's old and new address both name its source, whose id is its first address's.
    const foundId = await this.deps.catalog.idByUrl(feedUrl, newSourceId);
    const existing = foundId === null ? null : await this.deps.catalog.get(foundId, tenantId);
    const sourceId = existing?.id ?? newSourceId;
    let created = false;
    if (!existing) {
      // Before the feed is fetched: a tenant at its limit has nothing fetched on its behalf.
      await this.checkAddedSources(tenantId, limits);
      const check = await this.deps.checkFeed(feedUrl);
      if (!check.ok) return { notFeed: check };
      // Under the lock on names, held until the read model shows the new source by its name: two feeds
      // added at once under one name (each under its own URL's lock) had both found it free. Counted again
      // under it, as every new source is added under it: requests sent at once cannot pass the limit.
      await this.lock.run(sourceNamesLockKey, async () => {
        await this.checkAddedSources(tenantId, limits);
        const name = await this.uniqueName(input.name, check.title, feedUrl);
        const source = this.newSource(tenantId, input, feedUrl, pageUrl, check, name);
        await this.deps.producer.send(topicNames.sources, [{ key: source.source_id, value: source }]);
        await this.until(async () => (await this.deps.catalog.byName(name)) !== null);
      });
      created = true;
    }
    if (existing && !existing.subscribed && (await this.deps.catalog.addedBy(sourceId, tenantId)))
      // Its own source again, polled again for it: counted as when it added it.
      await this.checkAddedSources(tenantId, limits, sourceId);
    if (!existing?.subscribed) await this.append(tenantId, sourceId, true);
    const visible = await this.waitFor(sourceId, tenantId, (s) => s?.subscribed === true);
    if (!visible) {
      throw new ApiError(
        'service_unavailable',
        'the subscription was recorded but is not visible yet; retry the request in a few seconds',
        { 'Retry-After': '2' },
      );
    }
    return { source: visible, created };
  }

  /** Throws plan_limit_reached when the tenant may not add (or follow again) one more source of its own. */
  private async checkAddedSources(
    tenantId: string,
    limits: { addedSources: number | null },
    except: string | null = null,
  ): Promise<void> {
    if (limits.addedSources === null) return;
    const current = await this.deps.catalog.addedSources(tenantId, except);
    if (current < limits.addedSources) return;
    throw new ApiError(
      'plan_limit_reached',
      `the plan allows ${limits.addedSources} sources added by your tenant (feeds new to the catalog that it ` +
        `subscribes to) and ${current} are; unsubscribe from one of them, subscribe to a source already in ` +
        'the catalog (GET /v1/sources), or change plans',
    );
  }

  private newSource(
    tenantId: string,
    input: NewSource,
    feedUrl: string,
    pageUrl: string | null,
    check: Extract<FeedCheckResult, { ok: true }>,
    name: string,
  ): Source {
    const language = input.language ?? languageCode(check.language);
    if (!language)
      throw invalidParameter(
        'language',
        check.language
          ? `is required: the feed declares ${JSON.stringify(check.language)}, which is not a language code`
          : 'is required: the feed does not declare one',
      );
    try {
      return sourceState(
        {
          name,
          feed_url: feedUrl,
          site_url: input.site_url ?? homePageOf(check.siteUrl) ?? pageUrl,
          category: input.category,
          language,
          country: input.country,
          poll_interval_seconds: this.deps.pollIntervalSeconds,
        },
        null,
        this.clock(),
        tenantId,
      );
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      // The first problem, said as the caller's (a field they gave) or as the feed's (its title, language
      // or home page, taken when they gave none), with the field that settles it.
      const issue = error.issues[0]!;
      const field = String(issue.path[0] ?? 'url');
      const problem = issue.message.replace(new RegExp(`^${field} `), '');
      const given = { name: input.name, site_url: input.site_url, language: input.language }[field];
      if (given !== undefined) throw invalidParameter(field, problem);
      throw invalidParameter(
        field,
        `is required: the feed's own ${field === 'name' ? 'title' : field} cannot be used (${problem})`,
      );
    }
  }

  /**
   * The new source's name, which no other source has: articles show their source's name to every
   * tenant, and `source=` filters by it, so a feed added as "BBC News" would publish under the BBC's
   * name. A name the caller gives that is taken is refused; a feed's own title that is taken gets its
   * host beside it ("News (example.org)").
   */
  private async uniqueName(
    given: string | undefined,
    title: string | null,
    feedUrl: string,
  ): Promise<string> {
    if (given !== undefined) {
      const taken = await this.deps.catalog.byName(given);
      if (taken !== null)
        throw new ApiError(
          'conflict',
          `name: another source is called ${JSON.stringify(taken.name)} (${taken.id}); names differing only ` +
            'in case or in character width are one name; choose another name',
        );
      return given;
    }
    if (!title) throw invalidParameter('name', 'is required: the feed does not name itself');
    for (const name of nameCandidates(title, feedUrl))
      if ((await this.deps.catalog.byName(name)) === null) return name;
    throw new ApiError(
      'conflict',
      `name is required: the feed's title ${JSON.stringify(title)} is another source's name`,
    );
  }

  /** False when the tenant does not subscribe to the source. */
  async unsubscribe(tenantId: string, sourceId: string): Promise<boolean> {
    const existing = await this.deps.catalog.get(sourceId, tenantId);
    if (!existing?.subscribed) return false;
    await this.append(tenantId, sourceId, false);
    await this.waitFor(sourceId, tenantId, (s) => s?.subscribed === false);
    return true;
  }

  private async append(tenantId: string, sourceId: string, subscribed: boolean): Promise<void> {
    const value: SourceSubscription = {
      tenant_id: tenantId,
      source_id: sourceId,
      subscribed,
      occurred_at: this.clock(),
    };
    await this.deps.producer.send(topicNames.sourceSubscriptions, [
      { key: subscriptionKey(tenantId, sourceId), value },
    ]);
  }

  private async waitFor(
    sourceId: string,
    tenantId: string,
    done: (s: SourceItem | null) => boolean,
  ): Promise<SourceItem | null> {
    let current: SourceItem | null = null;
    await this.until(async () => done((current = await this.deps.catalog.get(sourceId, tenantId))));
    return done(current) ? current : null;
  }

  /** Until `shown` is true or visibleWithinMs has passed. */
  private async until(shown: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + this.deps.visibleWithinMs;
    while (!(await shown()) && Date.now() < deadline) await sleep(100);
  }
}
