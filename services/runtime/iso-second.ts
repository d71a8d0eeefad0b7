// A time as every answer and payload about an article writes it: ISO 8601 UTC to the second
// (`2026-12-07T00:13:16Z`), as the read models keep it. A webhook that wrote `…16.000Z` for the time the
// API wrote `…16Z` gave a receiver two strings for one instant, which it could not compare or dedupe on.

/** `ms` (epoch milliseconds) as ISO 8601 UTC, to the second: milliseconds are dropped, not rounded. */
export const isoSecond = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
