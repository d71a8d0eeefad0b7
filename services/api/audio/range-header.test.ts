import { describe, expect, it } from 'vitest';
import { parseRangeHeader } from './range-header.ts';

const part = (start: number, end: number) => ({ kind: 'part', range: { start, end } });
const whole = { kind: 'whole' };
const unsatisfiable = { kind: 'unsatisfiable' };

describe('parseRangeHeader', () => {
  it('reads one closed range, cutting an end past the last byte', () => {
    expect(parseRangeHeader('bytes=0-99', 1_000)).toEqual(part(0, 99));
    expect(parseRangeHeader('bytes=500-500', 1_000)).toEqual(part(500, 500));
    expect(parseRangeHeader('bytes=900-5000', 1_000)).toEqual(part(900, 999));
    expect(parseRangeHeader('Bytes= 10 - 20 ', 1_000)).toEqual(part(10, 20));
    // However far past: past 2^53, and past what a double holds exactly.
    expect(parseRangeHeader('bytes=0-9007199254740993', 1_000)).toEqual(part(0, 999));
    expect(parseRangeHeader('bytes=0-99999999999999999999999', 1_000)).toEqual(part(0, 999));
    expect(parseRangeHeader('bytes=-99999999999999999999999', 1_000)).toEqual(part(0, 999));
  });

  it('reads an open range to the end, and a suffix of the last N bytes', () => {
    expect(parseRangeHeader('bytes=100-', 1_000)).toEqual(part(100, 999));
    expect(parseRangeHeader('bytes=0-', 1_000)).toEqual(part(0, 999));
    expect(parseRangeHeader('bytes=-500', 1_000)).toEqual(part(500, 999));
    expect(parseRangeHeader('bytes=-5000', 1_000)).toEqual(part(0, 999));
    expect(parseRangeHeader('bytes=-1', 1_000)).toEqual(part(999, 999));
  });

  it('sends the whole file without a Range, for another unit, or for several ranges', () => {
    expect(parseRangeHeader(undefined, 1_000)).toEqual(whole);
    expect(parseRangeHeader('', 1_000)).toEqual(whole);
    expect(parseRangeHeader('items=0-5', 1_000)).toEqual(whole);
    expect(parseRangeHeader('bytes=0-9, 20-29', 1_000)).toEqual(whole);
  });

  it('ignores empty list elements, as RFC 9110 says a recipient must', () => {
    expect(parseRangeHeader('bytes=0-9,', 1_000)).toEqual(part(0, 9));
    expect(parseRangeHeader('bytes=, -100 ,', 1_000)).toEqual(part(900, 999));
    expect(parseRangeHeader('bytes=0-9,,20-29', 1_000)).toEqual(whole);
  });

  it('refuses a range with no byte of the file in it', () => {
    expect(parseRangeHeader('bytes=1000-', 1_000)).toEqual(unsatisfiable);
    expect(parseRangeHeader('bytes=1000-2000', 1_000)).toEqual(unsatisfiable);
    expect(parseRangeHeader('bytes=-0', 1_000)).toEqual(unsatisfiable);
    expect(parseRangeHeader('bytes=0-', 0)).toEqual(unsatisfiable);
    expect(parseRangeHeader('bytes=-10', 0)).toEqual(unsatisfiable);
  });

  it('refuses a malformed bytes range', () => {
    for (const header of [
      'bytes=',
      'bytes=-',
      'bytes=abc',
      'bytes=5-3',
      'bytes=1-2-3',
      'bytes=0x10-20',
      'bytes=1.5-2',
      'bytes=-1-2',
      'bytes=+1-2',
      'bytes=,',
      'bytes= , ',
      'bytes=9999999999999999-',
      'bytes 0-10',
    ]) {
      expect(parseRangeHeader(header, 1_000), header).toEqual(unsatisfiable);
    }
  });
});
