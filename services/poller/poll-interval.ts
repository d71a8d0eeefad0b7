// How long a source waits between two polls, before jitter, backoff and Retry-After (schedule.ts adds
// those). A pure function of what the poll state remembers (poll-state.ts) and what the poll just read:
//
// - The feed's pace: with at least 3 remembered publications, the interval is the geometric mean of the
//   median gap between them and the minimum interval, √(gap × min), within [min, max]. A feed that
//   publishes every `min` is polled every `min`; one a hundred times quieter, ten times less often. The
//   square root is what spends a number of requests for the least delay per article (the delay is half
//   an interval, so the total is Σ rate × interval / 2; minimised at a fixed Σ 1 / interval, the
//   interval goes as 1 / √rate). Measured by `npm run bench:freshness`; docs/operations.md, "Adaptive
//   polling", has the figures beside the linear rule (gap × ½).
// - Silence: a feed silent for more than four median gaps is taken to publish at a quarter of its
//   silence, so a feed that stopped publishing drifts to the maximum instead of being polled at its
//   old pace for ever. Quieter nights move the median of the last 20 items themselves.
// - Without that history: the publisher's sy:updatePeriod/sy:updateFrequency within [min, max], else
//   the source's configured interval as it is.
// - Never shorter than the publisher's ttl or the response's Cache-Control/Expires freshness (capped at
//   max, so a ttl of a week cannot silence a source); no-cache sets no floor.
// - While a WebSub hub pushes the feed, at least the safety-net interval: polling only catches lost pushes.
//   But no later than its subscription's next upkeep (a renewal, most often: subscription.ts, upkeepAt),
//   which rides on polls, so that a lease shorter than the interval does not end for want of a poll.

import type { WebsubLease } from '../websub/subscription.ts';

export interface IntervalSettings {
  /** false: every source at its configured interval, as before adaptive polling (POLLER_ADAPTIVE). */
  adaptive: boolean;
  minSeconds: number;
  maxSeconds: number;
  /** The least interval of a source whose WebSub hub pushes it (a lease in force). */
  websubSafetySeconds: number;
}

/** The defaults of the poller's settings (config.ts). */
export const defaultIntervalSettings: IntervalSettings = {
  adaptive: true,
  minSeconds: 120,
  maxSeconds: 3 * 60 * 60,
  websubSafetySeconds: 60 * 60,
};

/** What the publisher says about how often to fetch. */
export interface FreshnessHints {
  /** RSS <ttl>, in seconds (publisher-hints.ts). */
  ttlSeconds: number | null;
  /** sy:updatePeriod / sy:updateFrequency, in seconds (publisher-hints.ts). */
  updateIntervalSeconds: number | null;
  /** The response's Cache-Control max-age or Expires, in ms; 0 for no-cache (response-hints.ts). */
  freshForMs: number | null;
}

export interface IntervalInput {
  /** The source's poll_interval_seconds. */
  configuredSeconds: number;
  /** Publication times (ms) of the feed's latest items, as rememberPublications keeps them. */
  publications: readonly number[];
  now: number;
  hints: FreshnessHints;
  /** The source's WebSub lease in force, null when none is (subscription-keeper.ts, lease()). */
  websubLease: WebsubLease | null;
  settings: IntervalSettings;
}

export interface PollInterval {
  /** Whole seconds, at least 1. */
  seconds: number;
  /** Why, in words, for feed_polls.interval_reason. */
  reason: string;
}

/** Publications remembered per source: enough for a stable median, few enough to follow a change of pace. */
export const keptPublications = 20;
const leastPublications = 3;
/** A feed silent for more than this many median gaps is taken to have slowed down. */
const silenceGaps = 4;

export function pollInterval(input: IntervalInput): PollInterval {
  const { settings } = input;
  const chosen = settings.adaptive
    ? adaptiveInterval(input)
    : { seconds: input.configuredSeconds, reason: 'configured interval (POLLER_ADAPTIVE=false)' };
  const result =
    input.websubLease && chosen.seconds < settings.websubSafetySeconds
      ? { seconds: settings.websubSafetySeconds, reason: 'WebSub active: polled only as a safety net' }
      : { seconds: Math.max(1, Math.round(chosen.seconds)), reason: chosen.reason };
  const upkeepAt = input.websubLease?.upkeepAt ?? null;
  if (upkeepAt === null) return result;
  // The keeper acts after a poll: one then, but not more often than the minimum (a renewal just asked
  // for is pending until the hub verifies it, and its check is due only once verifyBy has passed).
  const untilUpkeep = Math.max(settings.minSeconds, Math.ceil((upkeepAt - input.now) / 1000));
  return untilUpkeep < result.seconds
    ? { seconds: untilUpkeep, reason: 'WebSub active: polled when its subscription is due for renewal' }
    : result;
}

function adaptiveInterval(input: IntervalInput): PollInterval {
  const { minSeconds, maxSeconds } = input.settings;
  const { hints } = input;
  const publications = publicationsOf(input.publications, input.now, minSeconds);
  let chosen: PollInterval;
  if (publications.length >= leastPublications) {
    const gaps = publications.slice(1).map((at, i) => (publications[i]! - at) / 1000);
    const gap = median(gaps);
    const silence = (input.now - publications[0]!) / 1000;
    const stretched = silence > silenceGaps * gap;
    const pace = `median gap ${duration(gap)} between the last ${publications.length} items`;
    const seconds = Math.sqrt((stretched ? silence / silenceGaps : gap) * minSeconds);
    chosen = {
      seconds: Math.min(maxSeconds, Math.max(minSeconds, seconds)),
      reason:
        (stretched ? `no new item for ${duration(silence)} (${pace})` : pace) +
        (seconds < minSeconds
          ? ', raised to the minimum'
          : seconds > maxSeconds
            ? ', capped at the maximum'
            : ''),
    };
  } else if (hints.updateIntervalSeconds !== null && hints.updateIntervalSeconds > 0) {
    chosen = {
      seconds: Math.min(maxSeconds, Math.max(minSeconds, hints.updateIntervalSeconds)),
      reason: `publisher's sy:updatePeriod/sy:updateFrequency: every ${duration(hints.updateIntervalSeconds)}`,
    };
  } else {
    chosen = {
      seconds: input.configuredSeconds,
      reason: `configured interval (fewer than ${leastPublications} dated items)`,
    };
  }

  // The publisher's own floor, within the maximum.
  const ttl = Math.min(maxSeconds, hints.ttlSeconds ?? 0);
  const fresh = Math.min(maxSeconds, Math.ceil((hints.freshForMs ?? 0) / 1000));
  // A floor past the maximum says so: "ttl: 3 h" for a <ttl> of 69 days would misreport the feed.
  const capped = (asked: number) =>
    asked > maxSeconds ? `${duration(asked)}, capped at ${duration(maxSeconds)}` : duration(asked);
  if (ttl > chosen.seconds && ttl >= fresh)
    return { seconds: ttl, reason: `publisher's ttl: ${capped(hints.ttlSeconds ?? 0)}` };
  if (fresh > chosen.seconds)
    return {
      seconds: fresh,
      reason: `response fresh for ${capped(Math.ceil((hints.freshForMs ?? 0) / 1000))} (Cache-Control/Expires)`,
    };
  return chosen;
}

/**
 * The publications to remember after a poll: the remembered ones and the new items' times, newest first,
 * as publicationsOf reads them, to whole seconds.
 */
export function rememberPublications(
  remembered: readonly number[],
  found: readonly number[],
  now: number,
  minSeconds: number,
): number[] {
  return publicationsOf([...remembered, ...found], now, minSeconds).map((at) => Math.floor(at / 1000) * 1000);
}

/**
 * Times as publications: newest first, the latest `keptPublications`, dates in the future taken as now,
 * anything not a time dropped, and items published within half a minimum interval of each other counted
 * once (a batch: polls at the minimum interval find them together, and a zero gap is no pace).
 */
function publicationsOf(times: readonly number[], now: number, minSeconds: number): number[] {
  const batchMs = minSeconds * 500;
  const sorted = times
    .filter((at) => Number.isFinite(at) && at > 0)
    .map((at) => Math.min(at, now))
    .sort((a, b) => b - a);
  const kept: number[] = [];
  for (const at of sorted) {
    if (kept.length === keptPublications) break;
    if (kept.length === 0 || kept.at(-1)! - at >= batchMs) kept.push(at);
  }
  return kept;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "45 s", "14 min", "3 h", "2.5 days". */
export function duration(seconds: number): string {
  const rounded = (n: number) => String(Math.round(n * 10) / 10);
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${rounded(seconds / 3600)} h`;
  return `${rounded(seconds / 86_400)} days`;
}
