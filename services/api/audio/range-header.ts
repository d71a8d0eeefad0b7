// The Range header of a request for an audio file (RFC 9110, 14.2), against the file's size. One range
// is served (players ask for one: `bytes=0-`, `bytes=1000-`, `bytes=-500`); a request for several, or
// in a unit other than bytes, is answered with the whole file, which the RFC allows. A bytes range that
// is malformed or starts past the end answers 416, so a broken client hears about it.
import type { ByteRange } from '../../audio/audio-store.ts';

export type RangeRequest =
  /** No Range header, or one to ignore: send the whole file (200). */
  | { kind: 'whole' }
  /** One satisfiable range, its end cut to the last byte (206). */
  | { kind: 'part'; range: ByteRange }
  /** Malformed, or no byte of the file in it (416). */
  | { kind: 'unsatisfiable' };

// Any number of digits: an end past the file (however far; RFC 9110 says it means the last byte) is cut
// to it, and a start past it is 416 either way. Numbers past 2^53 lose precision, not their size.
const position = /^\d{1,1000}$/;

export function parseRangeHeader(header: string | undefined, size: number): RangeRequest {
  if (header === undefined || header.trim() === '') return { kind: 'whole' };
  const equals = header.indexOf('=');
  const unit = header.slice(0, Math.max(equals, 0)).trim().toLowerCase();
  if (equals < 0) return { kind: 'unsatisfiable' };
  if (unit !== 'bytes') return { kind: 'whole' };
  // Empty list elements are no ranges (RFC 9110, 5.6.1.2: a recipient ignores them): `bytes=0-9,` is one.
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length === 0) return { kind: 'unsatisfiable' };
  if (specs.length > 1) return { kind: 'whole' };
  const spec = specs[0]!;
  const dash = spec.indexOf('-');
  if (dash < 0) return { kind: 'unsatisfiable' };
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();

  if (first === '') {
    // `-N`: the last N bytes (all of them when the file is shorter).
    if (!position.test(last)) return { kind: 'unsatisfiable' };
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  if (!position.test(first) || (last !== '' && !position.test(last))) return { kind: 'unsatisfiable' };
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (end < start || start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', range: { start, end: Math.min(end, size - 1) } };
}
