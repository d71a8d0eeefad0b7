// published_at: the feed's date in UTC; the discovery time when the feed has
// none; clamped (and flagged) when it lies in the future beyond a tolerance,
// because a future date would pin the article to the top of every list.

/** Clocks and time zones are often a little off; only beyond this is a date "in the future". */
export const futureTolerance = 2 * 60 * 60 * 1000;

export function publishedAt(published: Date | null, discoveredAt: number): { at: number; clamped: boolean } {
  if (!published || Number.isNaN(published.getTime())) return { at: discoveredAt, clamped: false };
  const at = published.getTime();
  if (at > discoveredAt + futureTolerance) return { at: discoveredAt, clamped: true };
  return { at, clamped: false };
}
