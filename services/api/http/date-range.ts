// date_range (docs/http-api.md, "Articles and lists"): a span up to now (`24h`, `7d`, `2w`, any number
// of hours, days or weeks, an ISO 8601 duration such as `PT12H`, `P7D`, `P2W`, or in words such as
// `last_7_days`, `past week`, `24 hours`, `last month` (30 days)), `today` or
// `yesterday` (UTC days), or FROM..TO with ISO 8601 dates or instants and either end open; the ISO 8601
// interval FROM/TO (with `..` or nothing for an open end) and FROM,TO are read the same way, since
// clients send both. Returns the half-open window [from, to) or a message saying what was wrong.

export interface DateRange {
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
}

const hour = 3600_000;
const day = 24 * hour;
const unitMs: Record<string, number> = { h: hour, d: day, w: 7 * day };
/** The longest span up to now: ten years, which is longer than any archive we keep. */
const longestSpanMs = 3660 * day;

// Patterns, not a lookup table: `__proto__` or `constructor` must not find a span on Object's prototype
// (they did, and made an Invalid Date that reached an event and answered 500; found by npm run fuzz).
const shortSpan = /^(\d{1,6})([hdw])$/i;
// In words, as clients guess the format: `last_7_days`, `past week`, `24 hours`, `last-month` (30 days).
const wordSpan = /^(?:(?:last|past)[\s_-]*)?(?:(\d{1,6})[\s_-]*)?(hour|day|week|month|year)s?$/i;
const wordUnitMs: Record<string, number> = { hour, day, week: 7 * day, month: 30 * day, year: 365 * day };
const isoDuration = /^P(?:(\d{1,6})W|(\d{1,6})D|T(\d{1,6})H|(\d{1,6})DT(\d{1,6})H)$/i;

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const expected =
  'expected a span up to now (24h, 7d, 2w, PT12H, P7D, last_7_days), today, yesterday, or FROM..TO with ISO 8601 ' +
  'dates or instants (e.g. 2026-01-01..2026-01-31; FROM/TO and FROM,TO also)';

export function parseDateRange(raw: string, now: Date): DateRange | string {
  const text = raw.trim();
  const span = spanOf(text);
  if (typeof span === 'string') return span;
  if (span !== undefined) return { from: new Date(now.getTime() - span), to: null };
  const lower = text.toLowerCase();
  if (lower === 'today' || lower === 'yesterday') {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return lower === 'today'
      ? { from: new Date(midnight), to: null }
      : { from: new Date(midnight - day), to: new Date(midnight) };
  }
  const parts = ends(text);
  if (parts === undefined) return expected;
  const [fromText, toText] = parts;
  if (fromText === '' && toText === '') return `both ends are open; ${expected}`;
  const from = fromText === '' ? null : readEnd(fromText, 'start');
  const to = toText === '' ? null : readEnd(toText, 'end');
  if (typeof from === 'string') return from;
  if (typeof to === 'string') return to;
  if (from && to && from.getTime() >= to.getTime()) {
    return `the start ${fromText} is not before the end ${toText}`;
  }
  return { from, to };
}

/** The span of `24h` or `P7D` in ms; undefined if the text is no span; a message if it is out of range. */
function spanOf(text: string): number | string | undefined {
  let ms: number;
  const short = shortSpan.exec(text);
  const iso = short ? null : isoDuration.exec(text);
  const words = short || iso ? null : wordSpan.exec(text);
  if (short) ms = Number(short[1]) * unitMs[short[2]!.toLowerCase()]!;
  else if (iso) {
    const [, weeks, days, hours, mixedDays, mixedHours] = iso.map((v) => Number(v ?? 0));
    ms = weeks! * 7 * day + (days! + mixedDays!) * day + (hours! + mixedHours!) * hour;
  } else if (words) ms = Number(words[1] ?? 1) * wordUnitMs[words[2]!.toLowerCase()]!;
  else return undefined;
  if (ms <= 0) return `${JSON.stringify(text)} is an empty span; ${expected}`;
  if (ms > longestSpanMs) return `${JSON.stringify(text)} is longer than 3660 days`;
  return ms;
}

/** The two ends of FROM..TO, FROM/TO (ISO 8601, `..` for an open end) or FROM,TO; undefined otherwise. */
function ends(text: string): [string, string] | undefined {
  const separator = text.includes('/')
    ? '/'
    : text.includes('..')
      ? '..'
      : text.includes(',')
        ? ','
        : undefined;
  if (separator === undefined) return undefined;
  const parts = text.split(separator).map((p) => p.trim());
  if (parts.length !== 2) return undefined;
  const open = (end: string) => (separator === '/' && end === '..' ? '' : end);
  return [open(parts[0]!), open(parts[1]!)];
}

/** A date as the start is its first instant; as the end it includes that whole day. */
function readEnd(text: string, end: 'start' | 'end'): Date | string {
  const date = datePattern.exec(text);
  if (date) {
    const [, y, m, d] = date.map(Number) as [number, number, number, number];
    const value = new Date(Date.UTC(y, m - 1, d + (end === 'end' ? 1 : 0)));
    const check = new Date(Date.UTC(y, m - 1, d));
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
      return `${JSON.stringify(text)} is not a calendar date`;
    }
    return value;
  }
  if (instantPattern.test(text)) {
    const value = new Date(text);
    if (!Number.isNaN(value.getTime())) return value;
  }
  return `${JSON.stringify(text.slice(0, 60))} is not an ISO 8601 date or instant; ${expected}`;
}
