// date_range (docs/http-api.md, "Articles and lists"): a span up to now (`24h`, `7d`, `2w`, `3mo`, `1y`,
// `90min`, an ISO 8601 duration such as `PT12H`, `P7D`, `P1M`, `P1Y2M`, or in words such as
// `last_7_days`, `past week`, `24 hours`, `last month`), `today` or `yesterday` (UTC days), one date or
// month (`2026-11-20`, `2026-11`: that UTC day or month), or FROM..TO with ISO 8601 dates or instants and
// either end open; the ISO 8601 interval FROM/TO (with `..` or nothing for an open end) and FROM,TO are
// read the same way, since clients send both. Months and years are calendar ones (the same day of the
// month, cut to the month's last day), counted back from now in UTC. Returns the half-open window
// [from, to) or a message saying what was wrong.

export interface DateRange {
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** The longest span up to now: ten years, which is longer than any archive we keep. */
const longestSpanMs = 3660 * day;

/** A span back from now: calendar years and months, then a fixed number of milliseconds. */
interface Span {
  years: number;
  months: number;
  ms: number;
}

// Patterns, not a lookup table: `__proto__` or `constructor` must not find a span on Object's prototype
// (they did, and made an Invalid Date that reached an event and answered 500; found by npm run fuzz).
const shortSpan = /^(\d{1,12})(min|mo|[hdwy])$/i;
/** `5m`: minutes to some clients, months to others. */
const ambiguousSpan = /^\d{1,12}m$/i;
// In words, as clients guess the format: `last_7_days`, `past week`, `24 hours`, `last-month`.
const wordSpan = /^(?:(?:last|past)[\s_-]*)?(?:(\d{1,12})[\s_-]*)?(minute|hour|day|week|month|year)s?$/i;
const isoDuration =
  /^P(?:(\d{1,12})Y)?(?:(\d{1,12})M)?(?:(\d{1,12})W)?(?:(\d{1,12})D)?(?:T(?=\d)(?:(\d{1,12})H)?(?:(\d{1,12})M)?(?:(\d{1,12})S)?)?$/i;

const fixedMs: Record<string, number> = {
  min: minute,
  minute,
  h: hour,
  hour,
  d: day,
  day,
  w: 7 * day,
  week: 7 * day,
};

/** `3mo`, `1y`, `2 weeks`: the span of `count` of `unit`. */
function spanOfUnit(count: number, unit: string): Span {
  const u = unit.toLowerCase();
  if (u === 'mo' || u === 'month') return { years: 0, months: count, ms: 0 };
  if (u === 'y' || u === 'year') return { years: count, months: 0, ms: 0 };
  return { years: 0, months: 0, ms: count * fixedMs[u]! };
}

const monthPattern = /^(\d{4})-(\d{2})$/;
const yearPattern = /^\d{4}$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const expected =
  'expected a span up to now (24h, 7d, 2w, 3mo, 1y, PT12H, P7D, P1M, last_7_days), today, yesterday, a date ' +
  '(2026-01-31) or month (2026-01), or FROM..TO with ISO 8601 dates or instants (e.g. 2026-01-01..2026-01-31; ' +
  'FROM/TO and FROM,TO also)';

/**
 * The end of a span up to now: now included, the future not. The poller keeps a date up to two hours
 * ahead (clocks and time zones are often a little off), and such an article is not one of "the last
 * hour" before its time comes.
 */
const upToNow = (now: Date) => new Date(now.getTime() + 1);

/**
 * The times the read models can hold: ClickHouse's DateTime counts seconds since 1970 in 32 bits, so a
 * later time written into a query wraps around to 1970 (a start in 2150 had matched the whole archive).
 */
const archiveEnd = new Date(2 ** 32 * 1000 - 1000);

/**
 * The window within what the archive can hold: an end beyond it is an open end, a start before 1970 an
 * open start; a window that starts after it, or ends before 1970, is refused, naming the bound.
 */
function withinArchive(range: DateRange, text: string): DateRange | string {
  const { from, to } = range;
  if (from !== null && from.getTime() > archiveEnd.getTime())
    return `${JSON.stringify(text)} starts after ${archiveEnd.toISOString().replace('.000Z', 'Z')}, the latest time the archive can hold`;
  if (to !== null && to.getTime() <= 0)
    return `${JSON.stringify(text)} ends before 1970-01-01, the earliest time the archive can hold`;
  return {
    from: from !== null && from.getTime() < 0 ? null : from,
    to: to !== null && to.getTime() > archiveEnd.getTime() ? null : to,
  };
}

export function parseDateRange(raw: string, now: Date): DateRange | string {
  const parsed = parseWindow(raw, now);
  return typeof parsed === 'string' ? parsed : withinArchive(parsed, raw.trim());
}

function parseWindow(raw: string, now: Date): DateRange | string {
  const text = raw.trim();
  const span = spanOf(text);
  if (typeof span === 'string') return span;
  if (span !== undefined) {
    const from = back(now, span);
    const ms = now.getTime() - from.getTime();
    if (ms <= 0) return `${JSON.stringify(text)} is an empty span; ${expected}`;
    // Beyond the dates JavaScript can hold (a million years back) the start is NaN: longer, too.
    if (!(ms <= longestSpanMs)) return `${JSON.stringify(text)} is longer than 3660 days`;
    return { from, to: upToNow(now) };
  }
  const lower = text.toLowerCase();
  if (lower === 'today' || lower === 'yesterday') {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return lower === 'today'
      ? { from: new Date(midnight), to: upToNow(now) }
      : { from: new Date(midnight - day), to: new Date(midnight) };
  }
  // One date, month or year: all of it.
  if (datePattern.test(text) || monthPattern.test(text) || yearPattern.test(text)) {
    const from = readEnd(text, 'start');
    const to = readEnd(text, 'end');
    return typeof from === 'string' ? from : typeof to === 'string' ? to : { from, to };
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

/** The span of `24h`, `3mo` or `P1M`; undefined if the text is no span; a message if it is unclear. */
function spanOf(text: string): Span | string | undefined {
  const short = shortSpan.exec(text);
  if (short) return spanOfUnit(Number(short[1]), short[2]!);
  if (ambiguousSpan.test(text)) {
    return `${JSON.stringify(text)} could be minutes or months: write ${text.slice(0, -1)}min or ${text.slice(0, -1)}mo`;
  }
  const iso = isoDuration.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) {
    const [y = 0, mo = 0, w = 0, d = 0, h = 0, mi = 0, sec = 0] = iso.slice(1).map((v) => Number(v ?? 0));
    return { years: y, months: mo, ms: w * 7 * day + d * day + h * hour + mi * minute + sec * second };
  }
  const words = wordSpan.exec(text);
  if (words) return spanOfUnit(Number(words[1] ?? 1), words[2]!);
  return undefined;
}

/** `now` less the span: calendar months and years first (the day cut to the month's last), then the rest. */
function back(now: Date, span: Span): Date {
  const months = now.getUTCFullYear() * 12 + now.getUTCMonth() - span.years * 12 - span.months;
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const shifted = Date.UTC(
    year,
    month,
    Math.min(now.getUTCDate(), lastDay),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
    now.getUTCMilliseconds(),
  );
  return new Date(shifted - span.ms);
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
  // A month or a year as an end: all of it (`2017-01..2017-06` is January to June).
  const month = monthPattern.exec(text);
  if (month) {
    const [y, m] = [Number(month[1]), Number(month[2])];
    if (m < 1 || m > 12) return `${JSON.stringify(text)} is not a calendar month`;
    return new Date(Date.UTC(y, m - 1 + (end === 'end' ? 1 : 0), 1));
  }
  if (yearPattern.test(text)) return new Date(Date.UTC(Number(text) + (end === 'end' ? 1 : 0), 0, 1));
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
  // RFC 3339 lets the T be a space and the letters be lower case; clients send all three.
  const instant = text.replace(/^(\d{4}-\d{2}-\d{2})[ t](?=\d)/i, '$1T').replace(/z$/, 'Z');
  if (instantPattern.test(instant)) {
    const value = new Date(instant);
    if (!Number.isNaN(value.getTime())) return value;
  }
  return `${JSON.stringify(text.slice(0, 60))} is not an ISO 8601 date or instant; ${expected}`;
}
