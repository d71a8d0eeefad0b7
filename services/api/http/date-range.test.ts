import { describe, expect, it } from 'vitest';
import { parseDateRange } from './date-range.ts';

const now = new Date('2026-11-20T12:00:00Z');
const iso = (d: Date | null) => d?.toISOString() ?? null;
/** Now included, the future not: an article dated ahead is in no span up to now. */
const upToNow = '2026-11-20T12:00:00.001Z';

describe('date_range', () => {
  it.each([
    ['24h', '2026-11-19T12:00:00.000Z', upToNow],
    ['7d', '2026-11-13T12:00:00.000Z', upToNow],
    ['30d', '2026-10-21T12:00:00.000Z', upToNow],
    ['12h', '2026-11-20T00:00:00.000Z', upToNow],
    ['2w', '2026-11-06T12:00:00.000Z', upToNow],
    ['90D', '2026-08-22T12:00:00.000Z', upToNow],
    ['PT6H', '2026-11-20T06:00:00.000Z', upToNow],
    ['P7D', '2026-11-13T12:00:00.000Z', upToNow],
    ['p1w', '2026-11-13T12:00:00.000Z', upToNow],
    ['P1DT12H', '2026-11-19T00:00:00.000Z', upToNow],
    ['last_7_days', '2026-11-13T12:00:00.000Z', upToNow],
    ['past week', '2026-11-13T12:00:00.000Z', upToNow],
    ['Last 24 Hours', '2026-11-19T12:00:00.000Z', upToNow],
    // Months and years are calendar ones, counted back from now; a day past the month's end is its last.
    ['last-month', '2026-10-20T12:00:00.000Z', upToNow],
    ['P1M', '2026-10-20T12:00:00.000Z', upToNow],
    ['3mo', '2026-08-20T12:00:00.000Z', upToNow],
    ['1y', '2025-11-20T12:00:00.000Z', upToNow],
    ['P1Y2M10DT2H30M', '2025-09-10T09:30:00.000Z', upToNow],
    ['past year', '2025-11-20T12:00:00.000Z', upToNow],
    ['90min', '2026-11-20T10:30:00.000Z', upToNow],
    ['PT30M', '2026-11-20T11:30:00.000Z', upToNow],
    ['15 minutes', '2026-11-20T11:45:00.000Z', upToNow],
    ['day', '2026-11-19T12:00:00.000Z', upToNow],
    ['2 weeks', '2026-11-06T12:00:00.000Z', upToNow],
    ['today', '2026-11-20T00:00:00.000Z', upToNow],
    ['Yesterday', '2026-11-19T00:00:00.000Z', '2026-11-20T00:00:00.000Z'],
  ])('%s is a window up to now (or a UTC day)', (text, from, to) => {
    const range = parseDateRange(text, now);
    expect(typeof range).toBe('object');
    if (typeof range === 'string') return;
    expect([iso(range.from), iso(range.to)]).toEqual([from, to]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'refuses %s, which names no window (it once found one on Object.prototype)',
    (text) => {
      expect(parseDateRange(text, now)).toMatch(/^expected a span up to now \(24h, 7d/);
    },
  );

  it('cuts a calendar month back to the shorter month’s last day', () => {
    const range = parseDateRange('P1M', new Date('2026-03-31T08:00:00Z'));
    expect(typeof range === 'object' && iso(range.from)).toBe('2026-02-28T08:00:00.000Z');
  });

  it('keeps a window within the times the archive can hold (32-bit seconds since 1970)', () => {
    const cases: [string, string | null, string | null][] = [
      ['2106-02-07', '2106-02-07T00:00:00.000Z', null],
      ['2020-01-01..2300-01-01', '2020-01-01T00:00:00.000Z', null],
      ['1900-01-01..2020-01-01', null, '2020-01-02T00:00:00.000Z'],
    ];
    for (const [text, from, to] of cases) {
      const range = parseDateRange(text, now);
      if (typeof range === 'string') throw new Error(`${text}: ${range}`);
      expect([iso(range.from), iso(range.to)], text).toEqual([from, to]);
    }
    expect(parseDateRange('2106-02-08', now)).toBe(
      '"2106-02-08" starts after 2106-02-07T06:28:15Z, the latest time the archive can hold',
    );
    expect(parseDateRange('2150-01-01..', now)).toMatch(/starts after 2106-02-07T06:28:15Z/);
    expect(parseDateRange('1900-01-01..1969-12-31', now)).toBe(
      '"1900-01-01..1969-12-31" ends before 1970-01-01, the earliest time the archive can hold',
    );
  });

  it('reads dates (the end date included whole) and instants (end exclusive), either end open', () => {
    const cases: [string, string | null, string | null][] = [
      // One date or one month alone: all of it.
      ['2026-01-31', '2026-01-31T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ['2026-02', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      ['2026-01-01..2026-01-31', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      [
        '2026-01-01T10:00:00Z..2026-01-01T11:30:00+01:00',
        '2026-01-01T10:00:00.000Z',
        '2026-01-01T10:30:00.000Z',
      ],
      ['2026-01-01..', '2026-01-01T00:00:00.000Z', null],
      ['..2026-01-01T00:00:00.5Z', null, '2026-01-01T00:00:00.500Z'],
      // The ISO 8601 interval, `..` or nothing for an open end, and the comma some clients send.
      ['2026-01-01/2026-01-31', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ['2026-01-01T10:00:00Z/2026-01-01T12:00:00Z', '2026-01-01T10:00:00.000Z', '2026-01-01T12:00:00.000Z'],
      ['2026-01-01/..', '2026-01-01T00:00:00.000Z', null],
      ['/2026-01-01', null, '2026-01-02T00:00:00.000Z'],
      ['2026-01-01, 2026-01-31', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      // Months and years as ends (all of them), a year alone, and RFC 3339's space and lower-case letters.
      ['2017-01..2017-06', '2017-01-01T00:00:00.000Z', '2017-07-01T00:00:00.000Z'],
      ['2017..2018', '2017-01-01T00:00:00.000Z', '2019-01-01T00:00:00.000Z'],
      ['2017', '2017-01-01T00:00:00.000Z', '2018-01-01T00:00:00.000Z'],
      ['2026-01-01 10:00:00Z..2026-01-01t12:00:00z', '2026-01-01T10:00:00.000Z', '2026-01-01T12:00:00.000Z'],
    ];
    for (const [text, from, to] of cases) {
      const range = parseDateRange(text, now);
      if (typeof range === 'string') throw new Error(`${text}: ${range}`);
      expect([iso(range.from), iso(range.to)], text).toEqual([from, to]);
    }
  });

  it.each([
    ['last fortnight', /expected a span up to now .* or FROM\.\.TO/],
    ['next week', /expected a span/],
    ['0 days', /is an empty span/],
    ['11 years', /longer than 3660 days/],
    ['0d', /is an empty span/],
    ['PT0H', /is an empty span/],
    ['3661d', /longer than 3660 days/],
    ['999999w', /longer than 3660 days/],
    // Any number of minutes, days or years, however many digits: the limit says what is wrong.
    ['5270500min', /longer than 3660 days/],
    ['99999999min', /longer than 3660 days/],
    ['P99999999D', /longer than 3660 days/],
    ['999999999999y', /longer than 3660 days/],
    ['999999999999 days', /longer than 3660 days/],
    ['P', /expected a span/],
    ['7x', /expected a span/],
    ['2026-01-01/2026-01-02/2026-01-03', /expected/],
    ['/..', /both ends are open/],
    ['2026-02-01..2026-01-01', /start 2026-02-01 is not before the end 2026-01-01/],
    ['2026-01-01..2026-01-01T00:00:00Z', /not before/],
    ['2026-02-30..', /not a calendar date/],
    ['2026-02-30', /not a calendar date/],
    ['2026-13', /not a calendar month/],
    ['5m', /"5m" could be minutes or months: write 5min or 5mo/],
    ['PT', /expected a span/],
    ['..', /both ends are open/],
    ['2026-01-01..2026-01-02..2026-01-03', /expected/],
    ['2026-1-1..', /not an ISO 8601 date or instant/],
    ["'; DROP TABLE articles; --..", /not an ISO 8601 date or instant/],
  ])('refuses %s', (text, message) => {
    const range = parseDateRange(text, now);
    expect(typeof range).toBe('string');
    expect(range).toMatch(message);
  });
});
