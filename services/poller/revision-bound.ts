// How often one article may be updated. Every revision costs downstream work: an enrichment (a model
// call with a remote provider), a narration, webhook deliveries to every subscriber. A feed that
// rewrites its items on every poll (a timestamp in the text, a rotating teaser) would turn each
// article into an update every few minutes, so revisions are bounded per article:
// - at most `perDay` updates (revisions after the first) in any rolling 24 hours;
// - at least `minIntervalMs` between two revisions, the first sighting included, so a headline fixed
//   three times in the minutes after publication becomes one update with the final text.
// A change the bound holds back is not lost: the poller's memory keeps the revision last emitted, so
// the next poll the bound allows compares against it again and emits the latest text then; and an item
// that has left the feed by then is emitted as it was listed last (held-revisions.ts).

export interface RevisionBound {
  /** Updates (revisions after the first) one article may get in a rolling 24 hours; 0: none. */
  perDay: number;
  /** Least time between two revisions of one article, its first sighting included. */
  minIntervalMs: number;
}

export const rollingDayMs = 24 * 60 * 60 * 1000;

/** What the poller remembers of an article's revisions, for the bound. */
export interface RevisionHistory {
  /** When its latest revision was emitted (discovered); null when unknown. */
  lastRevisionAt: number | null;
  /** When its updates of about the last day were emitted. */
  recentUpdates: readonly number[];
}

export type RevisionVerdict =
  | { allowed: true }
  | { allowed: false; reason: string; /** The earliest time the bound allows one. */ notBefore: number };

/** The updates of `history` that still count against the rolling day at `now`. */
export function updatesWithinDay(history: RevisionHistory, now: number): number[] {
  return history.recentUpdates.filter((at) => at > now - rollingDayMs);
}

/** Whether the article may get a new revision at `now`. */
export function revisionVerdict(
  bound: RevisionBound,
  history: RevisionHistory,
  now: number,
): RevisionVerdict {
  if (bound.perDay === 0)
    return { allowed: false, reason: 'updates are off (POLLER_UPDATES_PER_DAY=0)', notBefore: Infinity };
  const recent = updatesWithinDay(history, now).sort((a, b) => a - b);
  if (recent.length >= bound.perDay)
    return {
      allowed: false,
      reason: `${recent.length} updates in the last 24 hours (POLLER_UPDATES_PER_DAY=${bound.perDay})`,
      notBefore: recent[recent.length - bound.perDay]! + rollingDayMs,
    };
  if (history.lastRevisionAt !== null && now - history.lastRevisionAt < bound.minIntervalMs) {
    // Within the interval the last revision is an update of the last day, or else the first sighting.
    const what = history.recentUpdates.includes(history.lastRevisionAt) ? 'updated' : 'first seen';
    return {
      allowed: false,
      reason: `${what} ${Math.round((now - history.lastRevisionAt) / 1000)} s ago (POLLER_UPDATE_MIN_INTERVAL_SECONDS=${Math.round(bound.minIntervalMs / 1000)})`,
      notBefore: history.lastRevisionAt + bound.minIntervalMs,
    };
  }
  return { allowed: true };
}
