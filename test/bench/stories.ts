// npm run bench:stories -- <data set> [--articles N] [--from K] — how well the story clusterer puts
// articles about the same event together (a benchmark, not a test; exit code 0 either way, 2 without a
// data set): ./stories/run.ts, in a namespace of the run's own (./support/bench-namespace.ts), as every
// benchmark; it needs no stack, and leaves nothing in it.
import { runBench } from './support/bench-namespace.ts';

await runBench('stories', {}, () => import('./stories/run.ts'));
