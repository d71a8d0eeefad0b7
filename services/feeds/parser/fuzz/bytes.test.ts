// Property-based tests of the parser's public entry on real feeds broken at the byte level: cut short,
// with random or awkward bytes inserted, with elements repeated. Whatever the bytes, parseFeed throws
// nothing but a FeedParseError, stays within a time linear in the size, and returns no control
// character or broken surrogate in any text a reader sees (feed-mutations.ts says what is checked).
// FUZZ_SEED and FUZZ_RUNS (the runs of both fuzz files together, 10,000 by default) vary a run.
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import {
  checkCase,
  duplication,
  feedCase,
  fuzzSettings,
  insertion,
  smallSnapshots,
  timingSummary,
  truncation,
  type Timing,
} from './feed-mutations.ts';

// Seconds on two idle cores; the limit leaves room for a busy machine and a larger FUZZ_RUNS.
const budget = 300_000;
const timings: Timing[] = [];
afterAll(() => console.log(timingSummary(`fuzz (bytes), seed ${fuzzSettings(0).seed}`, timings)));

describe('parseFeed on real feeds broken at the byte level', () => {
  it(
    'cut short anywhere',
    () => {
      fc.assert(
        fc.property(feedCase(smallSnapshots, truncation, 1), (c) => checkCase(c, timings)),
        fuzzSettings(2_500),
      );
    },
    budget,
  );

  it(
    'with random and awkward bytes inserted',
    () => {
      fc.assert(
        fc.property(feedCase(smallSnapshots, insertion, 5), (c) => checkCase(c, timings)),
        fuzzSettings(2_500),
      );
    },
    budget,
  );

  it(
    'with elements repeated',
    () => {
      fc.assert(
        fc.property(feedCase(smallSnapshots, duplication, 4), (c) => checkCase(c, timings)),
        fuzzSettings(1_500),
      );
    },
    budget,
  );
});
