// Property-based tests of the parser's public entry on real feeds in the wrong charset: re-encoded
// (UTF-16 either way, with or without a BOM, latin1), their declarations (XML prolog, Content-Type)
// removed or set to another charset; then every kind of damage at once, and the largest snapshot.
// The checks are bytes.test.ts's (feed-mutations.ts).
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import {
  anyMutation,
  checkCase,
  feedCase,
  fuzzSettings,
  largeSnapshots,
  reencoding,
  smallSnapshots,
  timingSummary,
  type Timing,
} from './feed-mutations.ts';

// Seconds on two idle cores; the limit leaves room for a busy machine and a larger FUZZ_RUNS.
const budget = 300_000;
const timings: Timing[] = [];
afterAll(() => console.log(timingSummary(`fuzz (charsets), seed ${fuzzSettings(0).seed}`, timings)));

describe('parseFeed on real feeds in the wrong charset', () => {
  it(
    're-encoded and mislabelled',
    () => {
      fc.assert(
        fc.property(feedCase(smallSnapshots, reencoding, 2), (c) => checkCase(c, timings)),
        fuzzSettings(2_500),
      );
    },
    budget,
  );

  it(
    'with every kind of damage at once',
    () => {
      fc.assert(
        fc.property(feedCase(smallSnapshots, anyMutation, 4), (c) => checkCase(c, timings)),
        fuzzSettings(1_000),
      );
    },
    budget,
  );

  // A few hundred ms a parse: few runs, but the only ones where a super-linear cost would show.
  it(
    'the largest snapshot, damaged',
    () => {
      fc.assert(
        fc.property(feedCase(largeSnapshots, anyMutation, 3), (c) => checkCase(c, timings)),
        fuzzSettings(20),
      );
    },
    budget,
  );
});
