// Retry-After (RFC 9110 §10.2.3) is either delta-seconds or an HTTP-date. The date is read against the
// injected clock, not the server's Date header: what the poller needs is "how long from now".

/** Milliseconds to wait, or null when the header is absent or unreadable. Dates in the past give 0. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse also accepts loose forms like "5"; require something that looks like a date.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
