// published_at: the feed's date in UTC; the discovery time when the feed has
// none; clamped (and flagged) when it lies in the future beyond a tolerance,
// because a future date would pin the article to the top of every list.

/** Clocks and time zones are often a little off; only beyond this is a date "in the future". */
export const futureTolerance = 2 * 60 * 60 * 1000;

/**
 * No news item was published on the web before this: dates before it are a CMS's zero value (the Unix
 * epoch, 1900-01-01, 0001-01-01), not the item's, and are taken as missing. Kept, they would date an
 * article decades back, where no "latest" list and no date_range would ever show it.
 */
export const earliestPublished = Date.UTC(1991, 0, 1);

/**
 * `dated`: the date is the feed's own (present, not clamped, not before `earliestPublished`), so it
 * counts as the item's; otherwise `at` is the discovery time.
 */
export function publishedAt(
  published: Date | null,
  discoveredAt: number,
): { at: number; clamped: boolean; dated: boolean } {
  const at = published?.getTime() ?? Number.NaN;
  if (Number.isNaN(at) || at < earliestPublished) return { at: discoveredAt, clamped: false, dated: false };
  if (at > discoveredAt + futureTolerance) return { at: discoveredAt, clamped: true, dated: false };
  return { at, clamped: false, dated: true };
}
