import { describe, expect, it } from 'vitest';
import { parseDateRange } from './date-range.ts';

const now = new Date('2026-11-20T12:00:00Z');
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('date_range', () => {
  it.each([
    ['24h', '2026-11-19T12:00:00.000Z', null],
    ['7d', '2026-11-13T12:00:00.000Z', null],
    ['30d', '2026-10-21T12:00:00.000Z', null],
  ])('%s is a window up to now', (text, from, to) => {
    const range = parseDateRange(text, now);
    expect(typeof range).toBe('object');
    if (typeof range === 'string') return;
    expect([iso(range.from), iso(range.to)]).toEqual([from, to]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'refuses %s, which names no window (it once found one on Object.prototype)',
    (text) => {
      expect(parseDateRange(text, now)).toMatch(/^expected 24h, 7d, 30d/);
    },
  );

  it('reads dates (the end date included whole) and instants (end exclusive), either end open', () => {
    const cases: [string, string | null, string | null][] = [
      ['2026-01-01..2026-01-31', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      [
        '2026-01-01T10:00:00Z..2026-01-01T11:30:00+01:00',
        '2026-01-01T10:00:00.000Z',
        '2026-01-01T10:30:00.000Z',
      ],
      ['2026-01-01..', '2026-01-01T00:00:00.000Z', null],
      ['..2026-01-01T00:00:00.5Z', null, '2026-01-01T00:00:00.500Z'],
    ];
    for (const [text, from, to] of cases) {
      const range = parseDateRange(text, now);
      if (typeof range === 'string') throw new Error(`${text}: ${range}`);
      expect([iso(range.from), iso(range.to)], text).toEqual([from, to]);
    }
  });

  it.each([
    ['yesterday', /expected 24h, 7d, 30d or FROM\.\.TO/],
    ['2026-02-01..2026-01-01', /start 2026-02-01 is not before the end 2026-01-01/],
    ['2026-01-01..2026-01-01T00:00:00Z', /not before/],
    ['2026-02-30..', /not a calendar date/],
    ['..', /both ends are open/],
    ['2026-01-01..2026-01-02..2026-01-03', /expected/],
    ['2026-1-1..', /not an ISO 8601 date or instant/],
    ["'; DROP TABLE articles; --..", /not an ISO 8601 date or instant/],
    ['12h', /expected/],
  ])('refuses %s', (text, message) => {
    const range = parseDateRange(text, now);
    expect(typeof range).toBe('string');
    expect(range).toMatch(message);
  });
});
