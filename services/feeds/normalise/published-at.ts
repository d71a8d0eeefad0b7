// published_at: the feed's date in UTC; the discovery time when the feed has
// none; clamped (and flagged) when it lies in the future beyond a tolerance,
// because a future date would pin the article to the top of every list.
import { unknownZoneOf, zonelessTime } from '../parser/dates.ts';

/**
 * Clocks are often a little off; only beyond this is a date "in the future". Not hours: a publisher that
 * writes its local time as GMT dates items an hour or two ahead, and each such item sat at the top of
 * every newest-first list (and outside `date_range=today`'s "up to now") until its date came.
 */
export const futureTolerance = 15 * 60 * 1000;

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

/**
 * What a poll says of its items' dates when it did not take them as given (at most one line per kind,
 * with an example): dates it could not read, dates before `earliestPublished`, dates in the future,
 * dates whose zone it did not know and times written without a zone (both read as UTC). The items are kept, dated when they were found
 * (or, for the last, as read); this says why their dates are not quite the feed's.
 */
export function dateWarnings(
  items: readonly { publishedRaw: string | null; published: Date | null }[],
  discoveredAt: number,
): string[] {
  const unread: string[] = [];
  const old: Date[] = [];
  const future: Date[] = [];
  const unknownZones: { zone: string; raw: string }[] = [];
  const zoneless: string[] = [];
  for (const { publishedRaw, published } of items) {
    const at = published?.getTime() ?? Number.NaN;
    if (Number.isNaN(at)) {
      if (publishedRaw?.trim()) unread.push(publishedRaw.trim());
      continue;
    }
    if (at < earliestPublished) old.push(published!);
    else if (at > discoveredAt + futureTolerance) future.push(published!);
    const zone = unknownZoneOf(publishedRaw);
    if (zone !== null) unknownZones.push({ zone, raw: publishedRaw!.trim() });
    else if (zonelessTime(publishedRaw)) zoneless.push(publishedRaw!.trim());
  }
  const example = (d: Date) => d.toISOString().replace('.000Z', 'Z');
  const warnings: string[] = [];
  if (unread.length > 0)
    warnings.push(
      `${unread.length} item date(s) could not be read (such as ${JSON.stringify(unread[0]!.slice(0, 60))}): dated when found`,
    );
  if (old.length > 0)
    warnings.push(
      `${old.length} item date(s) before 1991 (such as ${example(old[0]!)}, a CMS's empty date) taken as missing: dated when found`,
    );
  if (unknownZones.length > 0) {
    const { zone, raw } = unknownZones[0]!;
    warnings.push(
      `${unknownZones.length} item date(s) with a time zone not known here (such as ${JSON.stringify(zone)} in ` +
        `${JSON.stringify(raw.slice(0, 60))}) read as UTC: hours off at most; a numeric offset such as +0700 is read exactly`,
    );
  }
  if (zoneless.length > 0)
    warnings.push(
      `${zoneless.length} item date(s) with a time and no time zone (such as ${JSON.stringify(zoneless[0]!.slice(0, 60))}) ` +
        'read as UTC: hours off if the publisher meant its local time; a date with its offset (+01:00) or Z is read exactly',
    );
  if (future.length > 0)
    warnings.push(
      `${future.length} item date(s) in the future (such as ${example(future[0]!)}) clamped to when they were found`,
    );
  return warnings;
}
