// date_range (docs/http-api.md, "Articles and lists"): `24h`, `7d`, `30d`, or `FROM..TO` with ISO 8601
// dates or instants and either end open. Returns the half-open window
// [from, to) or a message saying what was wrong.

export interface DateRange {
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
}

// A Map, not an object literal: `__proto__` or `constructor` must not find a span on Object's prototype
// (they did, and made an Invalid Date that reached an event and answered 500; found by npm run fuzz).
const relative = new Map<string, number>([
  ['24h', 24 * 3600_000],
  ['7d', 7 * 86_400_000],
  ['30d', 30 * 86_400_000],
]);

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const expected =
  'expected 24h, 7d, 30d or FROM..TO with ISO 8601 dates or instants (e.g. 2026-01-01..2026-01-31)';

export function parseDateRange(raw: string, now: Date): DateRange | string {
  const text = raw.trim();
  const span = relative.get(text);
  if (span !== undefined) return { from: new Date(now.getTime() - span), to: null };
  const parts = text.split('..');
  if (parts.length !== 2) return expected;
  const [fromText, toText] = parts.map((p) => p.trim()) as [string, string];
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
