// Every string a format adapter produced, repaired in one pass after parsing
// (runtime/text-repair.ts): by then the XML, JSON and HTML references are decoded,
// so "&#146;", "\u0092" in JSON and a raw C1 byte all arrive as the same character,
// and one walk covers every field of every format, including fields added later.

import { repairText } from '../../runtime/text-repair.ts';

function repairValue(value: unknown): unknown {
  if (typeof value === 'string') return repairText(value);
  if (Array.isArray(value)) return value.map(repairValue);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, repairValue(inner)]));
  }
  return value; // dates, numbers, null
}

/** The feed with C1 punctuation mapped, double-encoded UTF-8 undone and control characters removed. */
export function repairFeedText<T extends object>(feed: T): T {
  return repairValue(feed) as T;
}
