// One run of bench:freshness: a discrete-event simulation of the poller over the simulated feeds, in
// virtual time. Events are polls, taken earliest first from the scheduler's own queue (due-queue.ts);
// each is the real poll path, pollSource, at that moment: the feed's answer (./simulated-feeds.ts) as the
// fetcher would return it, the real parser and normaliser, the dedupe memory and the poll state in
// memory (as poll-source.test.ts has them), the interval from poll-interval.ts and the next poll from
// schedule.ts (jitter, backoff, Retry-After). An article is discovered at the virtual time of the poll
// that appends it to news.articles.discovered.v1. A poll takes no virtual time, and nothing limits how
// many are due at once (the real scheduler's concurrency and burst spreading are not modelled).
import type {
  ArticleDiscovered,
  FeedPoll,
  Source,
} from '../../../services/runtime/events/types.generated.ts';
import { topicNames } from '../../../services/runtime/kafka/topics.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { parseFeed } from '../../../services/feeds/parser/parse-feed.ts';
import { DueQueue } from '../../../services/poller/due-queue.ts';
import type { IntervalSettings } from '../../../services/poller/poll-interval.ts';
import { pollSource, type PollDependencies } from '../../../services/poller/poll-source.ts';
import { noPollState, type PollState, type PollStateStore } from '../../../services/poller/poll-state.ts';
import { firstPollDelay, nextPollDelay } from '../../../services/poller/schedule.ts';
import { sourceState } from '../../../services/sources/source.ts';
import { memorySeen } from '../../support/memory-seen.ts';
import { mulberry32 } from '../../support/mulberry32.ts';
import { answer, itemOfGuid, publishedBy, type SimulatedFeed } from './simulated-feeds.ts';

export interface Policy {
  intervals: IntervalSettings;
  /** Every source's poll_interval_seconds. */
  configuredSeconds: number;
}

export interface RunFigures {
  /** Polls started within the day. */
  requests: number;
  /** Of those: answered with a feed, 304, or failed. */
  byStatus: Record<'ok' | 'not_modified' | 'failed', number>;
  /** From publication to discovery (ms), of each article published within the day and found, ascending. */
  delays: number[];
  /** Articles published within the day and never appended: they left the feed's window first. */
  missed: number;
  /** Each source's latest poll record of the day. */
  lastPolls: FeedPoll[];
}

export async function simulate(
  feeds: readonly SimulatedFeed[],
  day: { from: number; until: number },
  policy: Policy,
  seed: number,
): Promise<RunFigures> {
  const random = mulberry32(seed);
  const sources = feeds.map((feed) =>
    sourceState(
      {
        name: `Feed ${feed.index}`,
        feed_url: feed.url,
        category: 'general',
        language: 'en',
        country: 'gb',
        poll_interval_seconds: policy.configuredSeconds,
      },
      null,
      0,
    ),
  );
  const feedOf = new Map(sources.map((s, i) => [s.feed_url, feeds[i]!]));
  const states = new Map<string, PollState>();
  const figures: RunFigures = {
    requests: 0,
    byStatus: { ok: 0, not_modified: 0, failed: 0 },
    delays: [],
    missed: 0,
    lastPolls: [],
  };
  const lastPolls = new Map<string, FeedPoll>();
  let now = day.from;

  const deps: PollDependencies = {
    fetch: async (request) => answer(feedOf.get(request.url)!, request, now, random),
    parse: parseFeed,
    producer: {
      send: async (topic, events) => {
        if (topic !== topicNames.articlesDiscovered) return;
        for (const { value } of events) {
          const article = value as ArticleDiscovered;
          const item = itemOfGuid(article.guid);
          const published = item && feeds[item.feed]!.published[item.item]!;
          if (article.revision === 1 && published && published >= day.from && published < day.until)
            figures.delays.push(now - published);
        }
      },
    },
    seen: memorySeen().seen,
    revisions: { perDay: 6, minIntervalMs: 15 * 60_000 },
    state: {
      get: async (id: string) => states.get(id) ?? noPollState(),
      set: async (id: string, state: PollState) => void states.set(id, state),
    } as unknown as PollStateStore,
    logger: createLogger('bench', 'silent'),
    clock: () => now,
    unhealthyAfter: 3,
    intervals: policy.intervals,
    nextPollAt: (_source, failures, retryAfterMs, intervalSeconds) =>
      now +
      nextPollDelay({
        intervalMs: intervalSeconds * 1000,
        consecutiveFailures: failures,
        retryAfterMs,
        random: random(),
      }),
  };

  const queue = new DueQueue<Source>();
  for (const source of sources)
    queue.push(day.from + firstPollDelay(policy.configuredSeconds * 1000, random()), source);
  while (queue.size > 0) {
    const { at, item: source } = queue.pop()!;
    now = at;
    const { poll } = await pollSource(source, deps);
    if (at < day.until) {
      figures.requests++;
      figures.byStatus[poll.status === 'ok' || poll.status === 'not_modified' ? poll.status : 'failed']++;
      lastPolls.set(source.source_id, poll);
    }
    // After the day, a feed is polled until a poll has read it whole: every item published within the
    // day is found by then, or has left the window.
    if (at < day.until || poll.status === 'failed') queue.push(poll.next_poll_at!, source);
  }

  for (const feed of feeds)
    figures.missed += publishedBy(feed, day.until - 1) - publishedBy(feed, day.from - 1);
  figures.missed -= figures.delays.length;
  figures.delays.sort((a, b) => a - b);
  figures.lastPolls = [...lastPolls.values()];
  return figures;
}
